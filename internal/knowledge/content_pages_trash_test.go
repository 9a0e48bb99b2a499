package knowledge_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// A parsed PDF's page starts are kept beside its extraction, not in it, and
// follow the file through a copy and a trip through the trash.
func TestPDFPagesSurviveCopyAndTrash(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := knowledge.NewTestTree(t, dialect, "alice")
		a := cs[0]
		knowledge.MustUpload(t, tree, a, "kb://me/", "book.pdf", "%PDF-1.7 stand-in")
		_, n, err := tree.Resolve(ctx, a, "kb://me/book.pdf")
		if err != nil {
			t.Fatal(err)
		}
		raw, err := tree.Store().LatestVersion(ctx, n.ID, store.BodyRaw)
		if err != nil {
			t.Fatal(err)
		}
		res := extract.Result{Text: strings.Repeat("a", 100) + strings.Repeat("b", 100), Format: "pdf", Extractor: "test", Pages: 3,
			PageStarts: []extract.PageStart{{Page: 1, Offset: 0}, {Page: 3, Offset: 100}}}
		if _, _, err := tree.SaveL2(ctx, n, res, raw); err != nil {
			t.Fatal(err)
		}
		check := func(uri string) {
			t.Helper()
			p, err := tree.ReadPage(ctx, a, uri, 90, 20)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(p.Pages) != "[1 3]" || strings.Contains(string(p.Extraction), "page_starts") || !strings.Contains(string(p.Extraction), `"pages":3`) {
				t.Fatalf("%s: pages %v, extraction %s", uri, p.Pages, p.Extraction)
			}
		}
		check("kb://me/book.pdf")
		if _, _, err := tree.Copy(ctx, a, "kb://me/book.pdf", "kb://me/copy.pdf", false); err != nil {
			t.Fatal(err)
		}
		check("kb://me/copy.pdf")
		if err := tree.Delete(ctx, a, "kb://me/copy.pdf"); err != nil {
			t.Fatal(err)
		}
		tr, err := trash.New(tree).ListTrash(ctx, a)
		if err != nil || len(tr) != 1 {
			t.Fatalf("trash %v %v", tr, err)
		}
		if _, err := trash.New(tree).RestoreTrash(ctx, a, tr[0].ID); err != nil {
			t.Fatal(err)
		}
		check("kb://me/copy.pdf")
	})
}
