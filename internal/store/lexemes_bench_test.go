package store

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRankPostings cuts the postings of real documents, the plain
// text files of this machine's /usr/share/doc (up to 32 MB): what
// PostgreSQL's index writer does to each file before its batch is sent.
func BenchmarkRankPostings(b *testing.B) {
	var docs []RankDoc
	total := 0
	filepath.WalkDir("/usr/share/doc", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || strings.HasSuffix(p, ".gz") || total > 32<<20 {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil || strings.IndexByte(string(raw), 0) >= 0 {
			return nil
		}
		total += len(raw)
		docs = append(docs, RankDoc{Name: RankText{Words: d.Name()}, Body: RankText{Words: string(raw)}})
		return nil
	})
	if total < 1<<20 {
		b.Skipf("/usr/share/doc holds %d bytes of plain text, too few", total)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for i, d := range docs {
			rankPostingsOf(int64(i), d)
		}
	}
}
