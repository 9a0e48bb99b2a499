package httpapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// newModelsEnv serves the API with a catalog on the stack's store; secret
// is secrets_key ("" for none).
func newModelsEnv(t *testing.T, dialect, secret string) (*env, *apptest.Fake) {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	base := apptest.Models(t, fake.Model("cfg-model", "cfg-key-0123456789", "up"))
	cat, err := catalog.New(context.Background(), stack.Store, base, secret, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return newEnvOn(t, stack, httpapi.Deps{Models: cat.Models(), Catalog: cat}), fake
}

// The admin's model routes answer as the OpenAPI document says (the
// checking transport validates every exchange), refuse what they must by
// code, and never echo the key.
func TestAdminModelRoutes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e, fake := newModelsEnv(t, dialect, strings.Repeat("k", 32))
		_, user := e.newUser("plain")
		const key = "sk-routes-key-0a1b2c3d4e5f"
		form := map[string]any{"id": "team/gpt", "name": "Team", "profile": "openai-compatible", "base_url": fake.URL + "/v1",
			"context_window": 16384, "output_reserve": 1024, "api_key": key, "users": []int64{}, "groups": []int64{}}
		wantErr(t, e.do(http.MethodGet, "/api/v1/admin/models", user, nil), http.StatusForbidden, "admin_only")
		r := e.do(http.MethodPost, "/api/v1/admin/models", e.Admin, form)
		if r.Status != http.StatusCreated || strings.Contains(string(r.Body), key) || !strings.Contains(string(r.Body), `"last4":"4e5f"`) {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		path := "/api/v1/admin/models/" + url.PathEscape("team/gpt")
		r = e.do(http.MethodPatch, path, e.Admin, map[string]any{"name": "Team GPT", "api_key": ""})
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"api_key":{"set":false}`) || !strings.Contains(string(r.Body), `"name":"Team GPT"`) {
			t.Fatalf("remove the key: %d %s", r.Status, r.Body)
		}
		wantErr(t, e.invalid().do(http.MethodPatch, path, e.Admin, map[string]any{"context_window": 0}), http.StatusBadRequest, "invalid_model_config")
		wantErr(t, e.invalid().do(http.MethodPatch, path, e.Admin, map[string]any{"colour": "red"}), http.StatusBadRequest, "invalid_json")
		wantErr(t, e.do(http.MethodPatch, "/api/v1/admin/models/nope", e.Admin, map[string]any{"disabled": true}), http.StatusNotFound, "unknown_model")
		wantErr(t, e.do(http.MethodDelete, "/api/v1/admin/models/cfg-model", e.Admin, nil), http.StatusConflict, "model_read_only")

		var check struct {
			OK    bool `json:"ok"`
			Error *struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		down := map[string]any{"id": "down", "profile": "openai-compatible", "base_url": "http://127.0.0.1:1/v1", "context_window": 16384, "output_reserve": 1024}
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/models/check", e.Admin, down), http.StatusOK, &check)
		if check.OK || check.Error == nil || check.Error.Code != "llm_connect_error" {
			t.Fatalf("check of a provider that is down: %+v", check)
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/models/check", e.Admin, form), http.StatusOK, &check)
		if !check.OK {
			t.Fatalf("check of the fake: %+v", check.Error)
		}

		var list catalog.Listing
		e.mustOK(e.do(http.MethodGet, "/api/v1/admin/models", e.Admin, nil), http.StatusOK, &list)
		if len(list.Models) != 2 || list.Models[0].Source != "config" || list.Models[0].BaseURL != "" || list.Models[1].ID != "team/gpt" {
			t.Fatalf("list: %+v", list)
		}
		if r := e.do(http.MethodDelete, path, e.Admin, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		// Each change is an audit event naming the model, never its key.
		r = e.do(http.MethodGet, auditPath+"?action=model_change", e.Admin, nil)
		if r.Status != http.StatusOK || strings.Contains(string(r.Body), key) || strings.Count(string(r.Body), `"target":"model:team/gpt"`) != 5 {
			t.Fatalf("model changes in the audit log: %d %s", r.Status, r.Body)
		}
	})
}

// Without secrets_key the list says so and a key is refused by name; a
// model without a key is still added.
func TestAdminModelsWithoutSecretsKey(t *testing.T) {
	e, fake := newModelsEnv(t, "sqlite", "")
	var list catalog.Listing
	e.mustOK(e.do(http.MethodGet, "/api/v1/admin/models", e.Admin, nil), http.StatusOK, &list)
	if list.SecretsKey {
		t.Fatal("the list claims a secrets key")
	}
	form := map[string]any{"id": "k", "profile": "openai-compatible", "base_url": fake.URL + "/v1", "context_window": 16384, "output_reserve": 1024, "api_key": "sk-some-key-123456"}
	wantErr(t, e.do(http.MethodPost, "/api/v1/admin/models", e.Admin, form), http.StatusConflict, "no_secrets_key")
	delete(form, "api_key")
	if r := e.do(http.MethodPost, "/api/v1/admin/models", e.Admin, form); r.Status != http.StatusCreated {
		t.Fatalf("a model without a key: %d %s", r.Status, r.Body)
	}
}
