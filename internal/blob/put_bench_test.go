package blob_test

import (
	"bytes"
	"testing"

	"github.com/knowspace/knowspace/internal/blob"
)

// BenchmarkPutLaterSmall stages a small text file, as an archive import
// does thousands of: what staging costs beside the file's own bytes.
func BenchmarkPutLaterSmall(b *testing.B) {
	s, err := blob.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	body := bytes.Repeat([]byte("a line of a small text file\n"), 150) // 4.2 KB
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		p, err := s.PutLater(bytes.NewReader(body), 1<<20)
		if err != nil {
			b.Fatal(err)
		}
		p.Abort()
	}
}
