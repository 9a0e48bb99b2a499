package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestSearchRankedAPI: GET /search?mode=ranked matches a question's words
// and answers the best file first with marked passages; without mode the
// same question is one literal string and finds nothing; an unknown mode
// and a meaning search without an embedding model are refused with their
// codes.
func TestSearchRankedAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		_, carol := e.newUser("carol")
		e.mkdir(bob, "kb://me/docs/")
		e.mustUpload(bob, "kb://me/docs/",
			upFile{"gzip.md", []byte("# compress/gzip\n\nPackage gzip implements reading and writing of gzip format compressed files.\n")},
			upFile{"tar.md", []byte("# archive/tar\n\nPackage tar implements access to tar archives of files.\n")},
			upFile{"notes.md", []byte("# Notes\n\nnothing about it\n")})
		e.mustUpload(carol, "kb://me/", upFile{"gzip.md", []byte("# reading compressed files\n\ncarol reads compressed gzip files\n")})
		if err := e.Index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		question := "how do I read compressed files?"

		r := e.search(bob, "kb://me/docs/", question, "mode", "ranked", "kind", "content")
		if r.Mode != "ranked" || !r.Complete || r.NextCursor != nil || r.Scanned == 0 {
			t.Fatalf("ranked: %+v", r)
		}
		// tar.md holds only "files", a word of most files here: both
		// databases rank it second.
		want := "kb://users/bob/docs/gzip.md kb://users/bob/docs/tar.md"
		if got := strings.Join(r.hitURIs(), " "); got != want {
			t.Fatalf("ranked files: %s, want %s", got, want)
		}
		if h := r.Items[0]; h.Line != 3 || h.Offset != int64(len("# compress/gzip\n\n")) ||
			h.Snippet != "Package gzip implements «reading» and writing of gzip format «compressed» «files»." {
			t.Fatalf("first passage: %+v", h)
		}

		if lit := e.search(bob, "kb://me/docs/", question, "kind", "content"); lit.Mode != "index" || len(lit.Items) != 0 || !lit.Complete {
			t.Fatalf("without mode the search stays literal: %+v", lit)
		}
		// The command door, as REST: literal unless asked.
		for mode, want := range map[string]string{"": "index", "ranked": "ranked"} {
			body := map[string]any{"command": "search", "uri": "kb://me/docs/", "query": question}
			if mode != "" {
				body["mode"] = mode
			}
			var out struct {
				Mode string `json:"mode"`
				Hits []struct {
					URI string `json:"uri"`
				} `json:"hits"`
			}
			e.mustOK(e.do(http.MethodPost, "/api/v1/knowledge-agent/command", bob, body), http.StatusOK, &out)
			if out.Mode != want || (want == "ranked") != (len(out.Hits) > 0) {
				t.Errorf("command with mode %q: %+v", mode, out)
			}
		}
		wantErr(t, e.invalid().do(http.MethodGet, q("/api/v1/search", "kb://me/", "q", question, "mode", "fuzzy"), bob, nil), http.StatusBadRequest, "invalid_search_mode")
		wantErr(t, e.do(http.MethodGet, q("/api/v1/search", "kb://me/", "q", question, "mode", "meaning"), bob, nil), http.StatusBadRequest, "no_embedding_model")
	})
}
