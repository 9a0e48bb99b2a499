package httpapi_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/ingest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// textPage is a content page with its extraction state.
type textPage struct {
	Body      string `json:"body"`
	Text      string `json:"text"`
	Note      string `json:"note"`
	TextState string `json:"text_state"`
}

func (e *env) textPage(token, uri string) textPage {
	e.t.Helper()
	var p textPage
	e.mustOK(e.do(http.MethodGet, q("/api/v1/resources/content", uri, "limit", "6000"), token, nil), http.StatusOK, &p)
	return p
}

func corpusFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "extract", "testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestUploadedDocumentsGetTheirText: a PDF, a DOCX and a web page uploaded
// with no model configured become readable and searchable by their text
// with no compile. Until the extraction workers take them, read says
// text_pending (never an empty body) and the web page is its source; a
// file that cannot be parsed says text_failed and why.
func TestUploadedDocumentsGetTheirText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		stack := apptest.NewStack(t, dialect)
		e := newEnvOn(t, stack, httpapi.Deps{})
		_, bob := e.newUser("bob")
		svc := ingest.New(ingest.Options{Store: stack.Store, Tree: stack.Tree, MaxBytes: testUploadLimit, Poll: 50 * time.Millisecond})
		stack.Tree.AutoExtract(svc.Notify)

		e.mkdir(bob, "kb://me/docs/")
		e.mustUpload(bob, "kb://me/docs/",
			upFile{"article.pdf", corpusFile(t, "pdf/pdftex-article.pdf")},
			upFile{"report.docx", corpusFile(t, "docs/report.docx")},
			upFile{"release.html", corpusFile(t, "docs/page.html")},
			upFile{"broken.pdf", corpusFile(t, "pdf/truncated.pdf")})
		base := "kb://users/bob/docs/"

		// No worker yet: pending, said so.
		if p := e.textPage(bob, base+"article.pdf"); p.Body != "none" || p.TextState != "text_pending" || !strings.Contains(p.Note, "being extracted") {
			t.Fatalf("a PDF before extraction: %+v", p)
		}
		if p := e.textPage(bob, base+"release.html"); p.Body != "raw" || p.TextState != "text_pending" {
			t.Fatalf("a web page before extraction: %+v", p)
		}
		var pending struct {
			Items        []any  `json:"items"`
			Complete     bool   `json:"complete"`
			PendingFiles int    `json:"pending_files"`
			Note         string `json:"note"`
		}
		e.mustOK(e.do(http.MethodGet, q("/api/v1/search", "kb://me/docs/", "q", "faster search"), bob, nil), http.StatusOK, &pending)
		if len(pending.Items) != 0 || pending.Complete || pending.PendingFiles != 4 || !strings.Contains(pending.Note, "still having their text extracted") {
			t.Fatalf("a search while four documents wait: %+v", pending)
		}

		states := func() map[string]string {
			var l struct {
				Items []struct {
					Name      string `json:"name"`
					TextState string `json:"text_state"`
				} `json:"items"`
			}
			e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", "kb://me/docs/"), bob, nil), http.StatusOK, &l)
			out := map[string]string{}
			for _, it := range l.Items {
				out[it.Name] = it.TextState
			}
			return out
		}
		if s := states(); s["article.pdf"] != "text_pending" || s["release.html"] != "text_pending" {
			t.Fatalf("the listing before extraction: %v", s)
		}

		pool := svc.Start(1)
		t.Cleanup(func() { pool.Stop(context.Background()) })
		want := map[string]string{
			"article.pdf":  "Most notes are written once and never read again",
			"report.docx":  "Revenue grew in every region",
			"release.html": "faster search",
		}
		deadline := time.Now().Add(3 * time.Minute) // the first PDF loads the PDF engine
		for name, phrase := range want {
			for {
				p := e.textPage(bob, base+name)
				if p.Body == "l2" {
					if p.TextState != "" || !strings.Contains(strings.Join(strings.Fields(p.Text), " "), phrase) {
						t.Fatalf("%s after extraction: %+v", name, p)
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s not extracted in time: %+v", name, p)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		if p := e.textPage(bob, base+"release.html"); strings.Contains(p.Text, "do not show") {
			t.Fatalf("the web page's script is in its text: %q", p.Text)
		}
		for {
			p := e.textPage(bob, base+"broken.pdf")
			if p.TextState == "text_failed" {
				if p.Body != "none" || !strings.Contains(p.Note, "extracting the text of this file failed: ") {
					t.Fatalf("a broken PDF: %+v", p)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("broken PDF not settled in time: %+v", p)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if s := states(); s["article.pdf"] != "" || s["report.docx"] != "" || s["broken.pdf"] != "text_failed" {
			t.Fatalf("the listing after extraction: %v", s)
		}
		if err := stack.Index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		for name, phrase := range want {
			r := e.search(bob, "kb://me/docs/", phrase)
			if got := r.hitURIs(); len(got) != 1 || got[0] != base+name || !r.Complete {
				t.Fatalf("search %q: %v (%+v)", phrase, got, r)
			}
		}
	})
}

// A running extraction's progress reaches the listing and the page read
// says it: what the tree shows, and what the agent hears, while a long
// scan is read.
func TestExtractionProgressIsShown(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		stack := apptest.NewStack(t, dialect)
		e := newEnvOn(t, stack, httpapi.Deps{})
		_, bob := e.newUser("bob")
		svc := ingest.New(ingest.Options{Store: stack.Store, Tree: stack.Tree, MaxBytes: testUploadLimit})
		stack.Tree.AutoExtract(svc.Notify)
		e.mustUpload(bob, "kb://me/", upFile{"scan.pdf", corpusFile(t, "pdf/scanned.pdf")})

		type progress struct {
			Pages int `json:"pages"`
			Of    int `json:"of"`
		}
		listed := func() *progress {
			var l struct {
				Items []struct {
					Name         string    `json:"name"`
					TextState    string    `json:"text_state"`
					TextProgress *progress `json:"text_progress"`
				} `json:"items"`
			}
			e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", "kb://me/"), bob, nil), http.StatusOK, &l)
			for _, it := range l.Items {
				if it.Name == "scan.pdf" {
					if it.TextState != "text_pending" {
						t.Fatalf("scan.pdf is %q, want text_pending", it.TextState)
					}
					return it.TextProgress
				}
			}
			t.Fatal("scan.pdf not listed")
			return nil
		}
		if p := listed(); p != nil {
			t.Fatalf("progress before a worker took it: %+v", p)
		}
		claimed, err := stack.Store.ClaimExtraction(context.Background(), "worker-1", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if err := stack.Store.ReportExtraction(context.Background(), claimed, 2, 5); err != nil {
			t.Fatal(err)
		}
		if p := listed(); p == nil || *p != (progress{2, 5}) {
			t.Fatalf("listed progress %+v, want 2 of 5", p)
		}
		if p := e.textPage(bob, "kb://users/bob/scan.pdf"); p.TextState != "text_pending" || !strings.Contains(p.Note, "2 of 5 pages read") {
			t.Fatalf("read while 2 of 5 pages are read: %+v", p)
		}
		if err := stack.Store.ReleaseExtraction(context.Background(), claimed); err != nil {
			t.Fatal(err)
		}
		if p := listed(); p != nil {
			t.Fatalf("progress after the worker let go: %+v", p)
		}
	})
}
