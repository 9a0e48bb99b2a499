package blob

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/knowspace/knowspace/internal/scratch"
)

func putString(t *testing.T, s *Store, text string, oneByte bool) *Pending {
	t.Helper()
	var r io.Reader = strings.NewReader(text)
	if oneByte {
		r = iotest.OneByteReader(r)
	}
	p, err := s.Put(r, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	return p
}

func randomText(rng *rand.Rand, n int) string {
	alphabet := []string{"a", "Z", " ", "\n", "é", "中", "文", "😀", "e\u0301", "👩‍💻", "\r\n"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(alphabet[rng.Intn(len(alphabet))])
	}
	return b.String()
}

func TestReadCharsMatchesRuneSlices(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	for _, size := range []int{0, 1, Stride - 1, Stride, 3*Stride + 7, 20000} {
		for _, oneByte := range []bool{false, true} {
			text := randomText(rng, size)
			runes := []rune(text)
			p := putString(t, s, text, oneByte)
			if !p.ValidUTF8 || p.Chars != int64(len(runes)) {
				t.Fatalf("size %d: valid=%v chars=%d want %d", size, p.ValidUTF8, p.Chars, len(runes))
			}
			offsets := []int{0, 1, Stride - 1, Stride, Stride + 1, len(runes) - 1, len(runes)}
			for _, off := range offsets {
				if off < 0 || off > len(runes) {
					continue
				}
				for _, limit := range []int{1, 3000, 6000} {
					got, err := s.ReadChars(p.Hash, int64(off), int64(limit))
					if err != nil {
						t.Fatalf("size %d off %d: %v", size, off, err)
					}
					want := string(runes[off:min(len(runes), off+limit)])
					if got != want {
						t.Fatalf("size %d off %d limit %d: got %d runes, want %d", size, off, limit, len([]rune(got)), len([]rune(want)))
					}
				}
			}
		}
	}
}

func TestPutDetectsBinaryAndLimit(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Put(bytes.NewReader([]byte{0xff, 0xfe, 'a'}), 10)
	if err != nil {
		t.Fatal(err)
	}
	if p.ValidUTF8 {
		t.Fatal("invalid UTF-8 accepted as text")
	}
	p.Abort()
	p, err = s.Put(strings.NewReader("a\x00b"), 10)
	if err != nil || !p.HasNUL {
		t.Fatalf("NUL not detected: %v", err)
	}
	p.Abort()
	// A sequence cut at the very end is not valid text.
	if p, _ = s.Put(strings.NewReader("ab\xe4\xb8"), 10); p.ValidUTF8 {
		t.Fatal("truncated sequence accepted")
	}
	p.Abort()
	if _, err := s.Put(strings.NewReader("0123456789A"), 10); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("want ErrTooLarge, got %v", err)
	}
	if left := scratch.Files(s.staging); len(left) != 0 {
		t.Fatalf("staging not clean: %v", left)
	}
}

// A text shorter than Stride has no checkpoint, so no index file is
// written for it; reading past its end gives nothing, as for a long one.
func TestShortTextHasNoIndexFile(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text    string
		indexed bool
	}{{"short", false}, {strings.Repeat("é", Stride-1), false}, {strings.Repeat("é", Stride), true}} {
		p := putString(t, s, c.text, false)
		if _, err := os.Stat(s.path(p.Hash) + ".idx"); (err == nil) != c.indexed {
			t.Fatalf("%d chars: index file exists %v, want %v", p.Chars, err == nil, c.indexed)
		}
		for _, off := range []int64{Stride, 2 * Stride, 5 * Stride} {
			got, err := s.ReadChars(p.Hash, off, 10)
			if err != nil || got != "" {
				t.Fatalf("%d chars, offset %d: %q, %v; want nothing", p.Chars, off, got, err)
			}
		}
	}
}

// Put returns flushed bytes, so that a transaction committing them never
// waits for the disk; PutLater leaves them to one Sync of many, and
// Commit flushes what was not.
func TestSyncMarksStagedBlobsDurable(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	flushed, err := s.Put(strings.NewReader("flushed"), 1<<20)
	if err != nil || !flushed.synced {
		t.Fatalf("Put: %v, synced %v", err, err == nil && flushed.synced)
	}
	var ps []*Pending
	for i := range fewToSync + 3 {
		p, err := s.PutLater(strings.NewReader(fmt.Sprintf("file %d", i)), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if p.synced {
			t.Fatal("PutLater waited for the disk")
		}
		ps = append(ps, p)
	}
	one, err := s.PutLater(strings.NewReader("alone"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := Sync(ps...); err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if !p.synced {
			t.Fatalf("file %d not synced", i)
		}
	}
	if err := one.Commit(); err != nil || !one.synced {
		t.Fatalf("Commit: %v, synced %v", err, one.synced)
	}
}

// A text whose index file is lost is still read right, counted from its
// start, rather than as ending at its first checkpoint.
func TestReadCharsWithoutItsIndex(t *testing.T) {
	t.Parallel()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	runes := []rune(strings.Repeat("ab€", Stride))
	p := putString(t, s, string(runes), false)
	if err := os.Remove(s.path(p.Hash) + ".idx"); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadChars(p.Hash, 2*Stride+5, 20)
	if want := string(runes[2*Stride+5 : 2*Stride+25]); err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}
