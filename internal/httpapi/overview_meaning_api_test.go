package httpapi_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

type overviewMeaning struct {
	Meaning *struct {
		Model     string `json:"model"`
		Files     int64  `json:"embedded_files"`
		Waiting   int64  `json:"waiting_files"`
		Failed    int64  `json:"failed_files"`
		Chunks    int64  `json:"chunks"`
		LastError string `json:"last_error"`
	} `json:"meaning"`
}

// TestOverviewMeaningProgress: the admin overview says how far meaning
// search's embedding is (files embedded, waiting, chunks), and why it
// paused when the model cannot be reached; without an embedding model it
// says nothing of it.
func TestOverviewMeaningProgress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		storetest.NeedVector(t, dialect)
		ctx := context.Background()
		overview := func(e *env) overviewMeaning {
			t.Helper()
			var o overviewMeaning
			e.mustOK(e.do(http.MethodGet, "/api/v1/admin/overview", e.Admin, nil), http.StatusOK, &o)
			return o
		}

		fake := apptest.StartFake(t, fakellm.Options{})
		stack := apptest.NewStack(t, dialect, apptest.Meaning(fake.Embedder("fake-embed")))
		e := newEnvOn(t, stack, httpapi.Deps{Embedding: stack.Embedder})
		e.mkdir(e.Admin, "kb://me/evaldocs/")
		e.mustUpload(e.Admin, "kb://me/evaldocs/", evalDocs...)
		if err := e.Index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		if err := stack.Embedder.WaitEmbedded(ctx); err != nil {
			t.Fatal(err)
		}
		m := overview(e).Meaning
		if m == nil || m.Model != "fake-embed" || m.Files < int64(len(evalDocs)) || m.Waiting != 0 || m.Chunks < m.Files || m.LastError != "" {
			t.Fatalf("embedded: %+v", m)
		}

		// A model nobody answers for: files wait, and the overview says why.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		dead := "http://" + ln.Addr().String() + "/v1"
		ln.Close()
		down := apptest.NewStack(t, dialect, apptest.Meaning(embed.New(embed.Config{ID: "down", BaseURL: dead, Dimensions: 64}, nil)))
		d := newEnvOn(t, down, httpapi.Deps{Embedding: down.Embedder})
		d.mkdir(d.Admin, "kb://me/evaldocs/")
		d.mustUpload(d.Admin, "kb://me/evaldocs/", evalDocs...)
		if err := d.Index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		if err := down.Embedder.WaitEmbedded(ctx); err != nil {
			t.Fatal(err)
		}
		m = overview(d).Meaning
		if m == nil || m.Waiting < int64(len(evalDocs)) || m.Files != 0 || !strings.Contains(m.LastError, "embedding model down: request failed") || strings.Contains(m.LastError, dead) {
			t.Fatalf("unreachable model: %+v", m)
		}

		plain := newEnvOn(t, apptest.NewStack(t, dialect), httpapi.Deps{})
		var raw map[string]json.RawMessage
		plain.mustOK(plain.do(http.MethodGet, "/api/v1/admin/overview", plain.Admin, nil), http.StatusOK, &raw)
		if _, ok := raw["meaning"]; ok {
			t.Fatalf("without an embedding model: %s", raw["meaning"])
		}
	})
}
