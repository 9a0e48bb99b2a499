package compile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
	"github.com/knowspace/knowspace/internal/store"
)

// A summary names how its document's text was extracted; the L2 body says
// the same through the content page; a folder's overview lists the files
// that could not be read, with their reason, instead of hiding them.
func TestExtractionProvenanceAndFailedFiles(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/p/", map[string][]byte{
			"paper.pdf": extracttest.MinimalPDF("Provenance matters"), "broken.pdf": []byte("%PDF-1.4 not really"),
		})
		e.start(1)
		ok := e.enqueue(e.alice, Request{URIs: []string{"kb://me/p/paper.pdf"}}).Jobs[0].ID
		e.wait(e.alice, ok, store.JobSucceeded)
		bad := e.enqueue(e.alice, Request{URIs: []string{"kb://me/p/broken.pdf"}}).Jobs[0].ID
		j := e.wait(e.alice, bad, store.JobFailed)
		if j.Error.Code != "parse_failed" || j.Attempts != 1 {
			t.Fatalf("broken pdf: %+v %+v", j, j.Error)
		}

		sum := e.read(e.alice, "kb://me/wiki/p/paper.pdf.md")
		for _, want := range []string{"extractor: \"", "l2_sha256: ", "pages: 1\n"} {
			if !strings.Contains(sum, want) {
				t.Fatalf("summary front matter lacks %q:\n%s", want, sum)
			}
		}
		p, err := e.tree.ReadPage(t.Context(), e.alice, "kb://me/p/paper.pdf", 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var how struct {
			Format    string `json:"format"`
			Extractor string `json:"extractor"`
			Pages     int    `json:"pages"`
		}
		if err := json.Unmarshal(p.Extraction, &how); err != nil || how.Format != "pdf" || how.Extractor == "" || how.Pages != 1 {
			t.Fatalf("extraction of the l2 page: %s (%v)", p.Extraction, err)
		}
		if len(p.Pages) != 1 || p.Pages[0] != 1 || strings.Contains(string(p.Extraction), "page_starts") {
			t.Fatalf("the parsed page names pages %v; extraction %s", p.Pages, p.Extraction)
		}

		ov := e.read(e.alice, "kb://me/wiki/p/.overview.md")
		if !strings.Contains(ov, "## Files not compiled") || !strings.Contains(ov, "`broken.pdf` — parse_failed: ") {
			t.Fatalf("overview does not list the failed file:\n%s", ov)
		}
	})
}
