package knowledge

import (
	"context"
	"fmt"
	"testing"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// BenchmarkReadPDFPage reads one page of a parsed 5,000-page PDF whose
// extraction records where every page begins, against the same text parsed
// without page starts: naming the window's pages should cost next to
// nothing beside the read itself.
func BenchmarkReadPDFPage(b *testing.B) {
	const pages, perPage = 5000, 1000
	text := benchText(pages * perPage)
	runes := []rune(text)
	starts := make([]extract.PageStart, pages)
	for i := range starts {
		starts[i] = extract.PageStart{Page: i + 1, Offset: int64(i * len(runes) / pages)}
	}
	for _, c := range []struct {
		name   string
		starts []extract.PageStart
	}{{"plain", nil}, {"page-starts", starts}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			tree, cs, _ := newTestTree(b, store.DialectSQLite, "bench")
			tree.maxUpload = 1 << 30
			mustUpload(b, tree, cs[0], "kb://me/", "book.pdf", "%PDF-1.7 stand-in")
			_, n, err := tree.Resolve(ctx, cs[0], "kb://me/book.pdf")
			if err != nil {
				b.Fatal(err)
			}
			raw, err := tree.st.LatestVersion(ctx, n.ID, store.BodyRaw)
			if err != nil {
				b.Fatal(err)
			}
			res := extract.Result{Text: text, Format: "pdf", Extractor: "bench", Pages: pages, PageStarts: c.starts}
			if _, _, err := tree.SaveL2(ctx, n, res, raw); err != nil {
				b.Fatal(err)
			}
			offset := int64(len(runes) / 2)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				p, err := tree.ReadPage(ctx, cs[0], "kb://me/book.pdf", offset, DefaultPageLimit)
				if err != nil || p.Body != "l2" || (c.starts != nil && len(p.Pages) == 0) {
					b.Fatal(err, fmt.Sprint(p.Pages))
				}
			}
		})
	}
}
