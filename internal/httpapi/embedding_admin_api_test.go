package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestEmbeddingModelsThroughTheAPI: an admin adds an embedding model
// beside the config file's, checks it with its stored key, and puts it in
// use: meaning search uses it at once, each step is an audit event, and
// its key is in no answer.
func TestEmbeddingModelsThroughTheAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		stack := apptest.NewStack(t, dialect)
		fake := apptest.StartFake(t, fakellm.Options{})
		cat, err := catalog.New(context.Background(), stack.Store, apptest.Models(t), strings.Repeat("k", 32), llm.RegistryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		embedder := search.NewEmbedder(stack.Index, cat.Meaning())
		fromFile := []embed.Config{{ID: "file-embed", BaseURL: fake.URL + "/v1"}}
		if err := cat.WithEmbedding(context.Background(), fromFile, nil, embedder.Kick); err != nil {
			t.Fatal(err)
		}
		e := newEnvOn(t, stack, httpapi.Deps{Models: cat.Models(), Catalog: cat})
		const key = "sk-embedding-key-9z8y7x6w"
		form := map[string]any{"id": "team-embed", "kind": "embedding", "base_url": fake.URL + "/v1", "model": "text-embedding-small",
			"dimensions": 0, "batch_size": 16, "price_input": 0.02, "api_key": key}
		var bodies []string
		r := e.do(http.MethodPost, "/api/v1/admin/models", e.Admin, form)
		bodies = append(bodies, string(r.Body))
		if r.Status != http.StatusCreated || !strings.Contains(string(r.Body), `"kind":"embedding"`) || !strings.Contains(string(r.Body), `"last4":"7x6w"`) {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/admin/models", e.Admin, map[string]any{"id": "file-embed", "kind": "embedding", "base_url": fake.URL + "/v1"}),
			http.StatusConflict, "model_read_only")

		var check struct {
			OK    bool `json:"ok"`
			Error *struct{ Code string }
		}
		stored := map[string]any{"id": "team-embed", "kind": "embedding", "base_url": fake.URL + "/v1", "model": "text-embedding-small"}
		r = e.do(http.MethodPost, "/api/v1/admin/models/check", e.Admin, stored)
		bodies = append(bodies, string(r.Body))
		e.mustOK(r, http.StatusOK, &check)
		if !check.OK {
			t.Fatalf("check with the stored key: %+v", check.Error)
		}
		down := map[string]any{"id": "down", "kind": "embedding", "base_url": "http://127.0.0.1:1/v1"}
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/models/check", e.Admin, down), http.StatusOK, &check)
		if check.OK || check.Error == nil || check.Error.Code != "llm_connect_error" {
			t.Fatalf("check of a provider that is down: %+v", check)
		}

		if id := stack.Tree.Meaning().ID(); id != "file-embed" {
			t.Fatalf("in use before the choice: %q", id)
		}
		var list catalog.Listing
		r = e.do(http.MethodPut, "/api/v1/admin/models/embedding-in-use", e.Admin, map[string]any{"id": "team-embed"})
		bodies = append(bodies, string(r.Body))
		e.mustOK(r, http.StatusOK, &list)
		inUse := ""
		for _, m := range list.Models {
			if m.InUse {
				inUse += m.ID
			}
		}
		if inUse != "team-embed" || stack.Tree.Meaning().ID() != "team-embed" {
			t.Fatalf("in use after the choice: listed %q, searching with %q", inUse, stack.Tree.Meaning().ID())
		}
		wantErr(t, e.do(http.MethodPut, "/api/v1/admin/models/embedding-in-use", e.Admin, map[string]any{"id": "nope"}), http.StatusNotFound, "unknown_model")

		r = e.do(http.MethodGet, auditPath+"?action=model_change", e.Admin, nil)
		bodies = append(bodies, string(r.Body))
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"target":"model:team-embed"`) || !strings.Contains(string(r.Body), `"target":"embedding_in_use"`) {
			t.Fatalf("embedding model changes in the audit log: %d %s", r.Status, r.Body)
		}
		for _, b := range bodies {
			if strings.Contains(b, key) {
				t.Fatalf("the key in an answer: %s", b)
			}
		}
	})
}
