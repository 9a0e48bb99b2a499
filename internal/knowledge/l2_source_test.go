package knowledge

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestNewUploadSupersedesParsedText: an L2 body belongs to the upload it was
// parsed from; after a new upload the page shows the new bytes (text) or
// says a new parse is needed (binary), never the old parse.
func TestNewUploadSupersedesParsedText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := newTestTree(t, dialect, "alice")
		a := cs[0]
		parse := func(name, text string) {
			_, n, err := tree.Resolve(ctx, a, "kb://me/"+name)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := tree.st.LatestVersion(ctx, n.ID, store.BodyRaw)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := tree.SaveL2(ctx, n, extract.Result{Text: text, Format: "pdf", Extractor: "test"}, raw); err != nil {
				t.Fatal(err)
			}
		}
		page := func(name string) Page {
			p, err := tree.ReadPage(ctx, a, "kb://me/"+name, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}

		mustUpload(t, tree, a, "kb://me/", "paper.pdf", "%PDF-1.7 first")
		parse("paper.pdf", "first paper text")
		if p := page("paper.pdf"); p.Body != "l2" || p.Text != "first paper text" {
			t.Fatalf("parsed pdf: %+v", p)
		}
		mustUpload(t, tree, a, "kb://me/", "paper.pdf", "%PDF-1.7 second")
		if p := page("paper.pdf"); p.Body != "none" || p.Text != "" || !strings.Contains(p.Note, "uploaded again") {
			t.Fatalf("re-uploaded pdf served the old parse: %+v", p)
		}
		parse("paper.pdf", "first paper text") // same text, new source: a new L2 row
		if p := page("paper.pdf"); p.Body != "l2" {
			t.Fatalf("re-parsed pdf: %+v", p)
		}

		mustUpload(t, tree, a, "kb://me/", "note.md", "old note")
		parse("note.md", "old note")
		mustUpload(t, tree, a, "kb://me/", "note.md", "new note")
		if p := page("note.md"); p.Body != "raw" || p.Text != "new note" {
			t.Fatalf("re-uploaded text served the old parse: %+v", p)
		}
	})
}
