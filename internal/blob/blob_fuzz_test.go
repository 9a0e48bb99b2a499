package blob

import (
	"bytes"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// FuzzReadChars checks that paging any valid text reproduces it exactly,
// whatever the read sizes during upload and the page offsets.
func FuzzReadChars(f *testing.F) {
	f.Add([]byte("hello 世界 😀 e\u0301"), uint16(3), uint16(2))
	f.Add(bytes.Repeat([]byte("中"), Stride+5), uint16(Stride), uint16(7))
	s, err := Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, offset, limit uint16) {
		p, err := s.Put(iotest.HalfReader(bytes.NewReader(data)), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if p.ValidUTF8 != utf8.Valid(data) {
			t.Fatalf("validity %v, utf8.Valid %v", p.ValidUTF8, utf8.Valid(data))
		}
		if !p.ValidUTF8 {
			p.Abort()
			return
		}
		if err := p.Commit(); err != nil {
			t.Fatal(err)
		}
		runes := []rune(string(data))
		off := int(offset) % (len(runes) + 1)
		lim := int(limit)%6000 + 1
		got, err := s.ReadChars(p.Hash, int64(off), int64(lim))
		if err != nil {
			t.Fatal(err)
		}
		if want := string(runes[off:min(len(runes), off+lim)]); got != want {
			t.Fatalf("page %d+%d: got %q want %q", off, lim, got, want)
		}
	})
}
