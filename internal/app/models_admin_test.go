package app_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const (
	adminModelKey  = "sk-admin-added-4d2f8b1e9a7c"
	testSecretsKey = "models-secrets-key-0123456789abcdef"
)

// syncBuffer collects every log line of the app while a test runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// captureLogs sends the app's logs, at debug, to a buffer until the test
// ends.
func captureLogs(t *testing.T) *syncBuffer {
	buf := &syncBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}

// startApp builds and starts the app with the fake LLM's models in its
// configuration until the test ends.
// settings may name the database (KB_DATABASE_DSN) to share it.
func startApp(t *testing.T, dialect string, settings map[string]string) (*app.App, apptest.Client) {
	t.Helper()
	cfg := testConfig(t, dialect, settings)
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, cfg, app.Options{FakeLLM: true})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := a.Start(ctx); err != nil {
		cancel()
		a.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = a.Wait(ctx)
		a.Close()
	})
	return a, apptest.Client{URL: "http://" + a.Addr()}
}

func signIn(t *testing.T, c apptest.Client, name, password string) string {
	t.Helper()
	r := c.Do(t, http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": name, "password": password})
	var s struct {
		Token string `json:"token"`
	}
	r.Decode(t, &s)
	if s.Token == "" {
		t.Fatalf("sign in %s: %s", name, r)
	}
	return s.Token
}

// chat asks one question with the model and returns the stream or the
// refusal.
func chat(t *testing.T, c apptest.Client, token, model string) apptest.Response {
	t.Helper()
	return c.Do(t, http.MethodPost, "/api/v1/knowledge-agent/stream", token,
		map[string]any{"uri": "kb://me/", "model_id": model, "message": "hello", "temporary": true})
}

func wantCode(t *testing.T, r apptest.Response, status int, code string) {
	t.Helper()
	if got, _, _ := r.APIError(); r.Status != status || got != code {
		t.Fatalf("want %d %s, got %s", status, code, r)
	}
}

// An admin adds a model through the API pointed at the fake LLM: a user
// chats with it at once; disabled, the next turn is unknown_model;
// restricted to a group, only its members list it and chat with it, and
// the others are answered as for an unknown model. Its key is in no
// response and no log line.
func TestAdminModelsThroughTheAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		logs := captureLogs(t)
		var responses []string
		_, api := startApp(t, dialect, map[string]string{"KB_ADMIN_PASSWORD": "models-admin-pw", "KB_SECRETS_KEY": testSecretsKey})
		do := func(method, path, token string, body any) apptest.Response {
			r := api.Do(t, method, path, token, body)
			responses = append(responses, string(r.Body))
			return r
		}
		fake := apptest.StartFake(t, fakellm.Options{})
		admin := signIn(t, api, "admin", "models-admin-pw")
		ids := map[string]int64{}
		for _, u := range []string{"alice", "bob"} {
			r := do(http.MethodPost, "/api/v1/admin/users", admin, map[string]string{"username": u, "password": "password-" + u, "role": "user"})
			var made struct {
				ID int64 `json:"id"`
			}
			if r.Decode(t, &made); r.Status != http.StatusCreated || made.ID == 0 {
				t.Fatalf("create %s: %s", u, r)
			}
			ids[u] = made.ID
		}
		alice, bob := signIn(t, api, "alice", "password-alice"), signIn(t, api, "bob", "password-bob")

		body := map[string]any{"id": "team-gpt", "name": "Team GPT", "profile": "openai-compatible", "base_url": fake.URL + "/v1",
			"model": "upstream-team", "context_window": 32768, "output_reserve": 2048, "price_input": 0.5, "price_output": 1.5,
			"api_key": adminModelKey}
		r := do(http.MethodPost, "/api/v1/admin/models", admin, body)
		var created struct {
			ID     string `json:"id"`
			Source string `json:"source"`
			APIKey struct {
				Set   bool   `json:"set"`
				Last4 string `json:"last4"`
			} `json:"api_key"`
			PriceOutput float64 `json:"price_output"`
		}
		if r.Status != http.StatusCreated {
			t.Fatalf("create model: %s", r)
		}
		r.Decode(t, &created)
		if created.ID != "team-gpt" || created.Source != "admin" || !created.APIKey.Set || created.APIKey.Last4 != adminModelKey[len(adminModelKey)-4:] || created.PriceOutput != 1.5 {
			t.Fatalf("created: %s", r.Body)
		}
		wantCode(t, do(http.MethodPost, "/api/v1/admin/models", alice, body), http.StatusForbidden, "admin_only")
		wantCode(t, do(http.MethodPost, "/api/v1/admin/models", admin, body), http.StatusConflict, "already_exists")
		// The config's models win their ids and are read-only here.
		taken := map[string]any{"id": "fake", "profile": "openai-compatible", "base_url": fake.URL + "/v1", "context_window": 32768, "output_reserve": 2048}
		wantCode(t, do(http.MethodPost, "/api/v1/admin/models", admin, taken), http.StatusConflict, "model_read_only")
		wantCode(t, do(http.MethodPatch, "/api/v1/admin/models/fake", admin, map[string]any{"disabled": true}), http.StatusConflict, "model_read_only")
		bad := map[string]any{"id": "bad", "profile": "openai-compatible", "base_url": "ftp://x", "context_window": 32768, "output_reserve": 2048}
		if r := do(http.MethodPost, "/api/v1/admin/models", admin, bad); r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), "base_url") {
			t.Fatalf("a bad base_url: %s", r)
		}

		r = chat(t, api, alice, "team-gpt")
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "event: done") {
			t.Fatalf("chat with the new model: %s", r)
		}
		last := fake.Requests()[len(fake.Requests())-1]
		if last.Header.Get("Authorization") != "Bearer "+adminModelKey || last.Chat.Model != "upstream-team" {
			t.Fatalf("the provider saw key %q, model %q", last.Header.Get("Authorization"), last.Chat.Model)
		}
		check := do(http.MethodPost, "/api/v1/admin/models/check", admin, map[string]any{"id": "team-gpt", "profile": "openai-compatible",
			"base_url": fake.URL + "/v1", "model": "upstream-team", "context_window": 32768, "output_reserve": 2048})
		if check.Status != http.StatusOK || !strings.Contains(string(check.Body), `"ok":true`) {
			t.Fatalf("check from the form with the stored key: %s", check)
		}
		if last := fake.Requests()[len(fake.Requests())-1]; last.Header.Get("Authorization") != "Bearer "+adminModelKey {
			t.Fatal("the check did not use the stored key")
		}

		r = do(http.MethodPatch, "/api/v1/admin/models/team-gpt", admin, map[string]any{"disabled": true})
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"disabled":true`) || !strings.Contains(string(r.Body), `"set":true`) {
			t.Fatalf("disable: %s", r)
		}
		wantCode(t, chat(t, api, alice, "team-gpt"), http.StatusBadRequest, "unknown_model")

		r = do(http.MethodPost, "/api/v1/admin/groups", admin, map[string]string{"name": "research"})
		var group struct {
			ID int64 `json:"id"`
		}
		r.Decode(t, &group)
		if r := do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", group.ID, ids["alice"]), admin, nil); r.Status >= 300 || group.ID == 0 {
			t.Fatalf("add alice to group %d: %s", group.ID, r)
		}
		r = do(http.MethodPatch, "/api/v1/admin/models/team-gpt", admin, map[string]any{"disabled": false, "groups": []int64{group.ID}})
		if r.Status != http.StatusOK {
			t.Fatalf("restrict: %s", r)
		}
		if r := chat(t, api, alice, "team-gpt"); r.Status != http.StatusOK {
			t.Fatalf("a member of the group: %s", r)
		}
		refused, unknown := chat(t, api, bob, "team-gpt"), chat(t, api, bob, "no-such-model")
		wantCode(t, refused, http.StatusBadRequest, "unknown_model")
		if strings.ReplaceAll(string(refused.Body), "team-gpt", "X") != strings.ReplaceAll(string(unknown.Body), "no-such-model", "X") {
			t.Fatalf("a refused user can tell the model exists: %s vs %s", refused.Body, unknown.Body)
		}
		if o := do(http.MethodGet, "/api/v1/knowledge-agent/options", bob, nil); strings.Contains(string(o.Body), "team-gpt") {
			t.Fatalf("bob is offered the model: %s", o)
		}
		if o := do(http.MethodGet, "/api/v1/knowledge-agent/options", alice, nil); !strings.Contains(string(o.Body), "team-gpt") {
			t.Fatalf("alice is not offered the model: %s", o)
		}
		wantCode(t, do(http.MethodPost, "/api/v1/knowledge-agent/models/team-gpt/check", bob, nil), http.StatusNotFound, "unknown_model")
		wantCode(t, do(http.MethodPost, "/api/v1/knowledge-agent/compile", bob, map[string]any{"uris": []string{"kb://me/Welcome.md"}, "model_id": "team-gpt"}),
			http.StatusBadRequest, "unknown_model")
		// The OpenAI-compatible door: listed to the member only, refused to
		// the others as a model that does not exist.
		for who, want := range map[string]bool{alice: true, bob: false} {
			r := do(http.MethodPost, "/api/v1/auth/tokens", who, map[string]any{"name": "v1"})
			var tok struct {
				Token string `json:"token"`
			}
			if r.Decode(t, &tok); tok.Token == "" {
				t.Fatalf("token: %s", r)
			}
			if listed := strings.Contains(string(do(http.MethodGet, "/v1/models", tok.Token, nil).Body), `"team-gpt"`); listed != want {
				t.Fatalf("/v1/models lists team-gpt: %v, want %v", listed, want)
			}
			if !want {
				r := do(http.MethodPost, "/v1/chat/completions", tok.Token, map[string]any{"model": "team-gpt",
					"messages": []map[string]string{{"role": "user", "content": "hi"}}})
				if r.Status != http.StatusNotFound || !strings.Contains(string(r.Body), "model_not_found") {
					t.Fatalf("/v1 completion of a refused model: %s", r)
				}
			}
		}

		r = do(http.MethodGet, "/api/v1/admin/models", admin, nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"secrets_key":true`) || !strings.Contains(string(r.Body), "team-gpt") ||
			!strings.Contains(string(r.Body), `"source":"config","read_only":true`) {
			t.Fatalf("list: %s", r)
		}
		if r := do(http.MethodDelete, "/api/v1/admin/models/team-gpt", admin, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %s", r)
		}
		wantCode(t, chat(t, api, alice, "team-gpt"), http.StatusBadRequest, "unknown_model")
		wantCode(t, do(http.MethodDelete, "/api/v1/admin/models/team-gpt", admin, nil), http.StatusNotFound, "unknown_model")

		for i, body := range append(responses, logs.String()) {
			if strings.Contains(body, adminModelKey) || strings.Contains(body, adminModelKey[:12]) {
				t.Fatalf("the key leaked in response %d (or the log): %.400s", i, body)
			}
		}
		if !strings.Contains(logs.String(), "/api/v1/admin/models") {
			t.Fatal("the log captured nothing: the scan proves nothing")
		}
	})
}

// Two app instances on one PostgreSQL database: a model added through one
// is chatted with through the other within 5 s, and a disable reaches it
// as fast.
func TestAdminModelsReachTheOtherReplica(t *testing.T) {
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		t.Skip("KB_TEST_POSTGRES_DSN is not set: replicas need a shared PostgreSQL")
	}
	dsn, _ := storetest.Empty(t, "postgres")
	settings := map[string]string{"KB_ADMIN_PASSWORD": "replica-models-pw", "KB_SECRETS_KEY": testSecretsKey,
		"KB_JWT_SECRET": strings.Repeat("j", 40), "KB_DATABASE_DSN": dsn}
	_, one := startApp(t, "postgres", settings)
	_, two := startApp(t, "postgres", settings)
	fake := apptest.StartFake(t, fakellm.Options{})
	tokOne, tokTwo := signIn(t, one, "admin", "replica-models-pw"), signIn(t, two, "admin", "replica-models-pw")
	wantCode(t, chat(t, two, tokTwo, "shared-model"), http.StatusBadRequest, "unknown_model")
	r := one.Do(t, http.MethodPost, "/api/v1/admin/models", tokOne, map[string]any{"id": "shared-model", "profile": "openai-compatible",
		"base_url": fake.URL + "/v1", "context_window": 32768, "output_reserve": 2048, "api_key": adminModelKey})
	if r.Status != http.StatusCreated {
		t.Fatalf("create on one: %s", r)
	}
	start := time.Now()
	waitFor(t, func() bool { return chat(t, two, tokTwo, "shared-model").Status == http.StatusOK })
	t.Logf("the other replica chatted with the new model after %v", time.Since(start).Round(10*time.Millisecond))
	if r := one.Do(t, http.MethodPatch, "/api/v1/admin/models/"+url.PathEscape("shared-model"), tokOne, map[string]any{"disabled": true}); r.Status != http.StatusOK {
		t.Fatalf("disable on one: %s", r)
	}
	start = time.Now()
	waitFor(t, func() bool { return chat(t, two, tokTwo, "shared-model").Status == http.StatusBadRequest })
	t.Logf("the other replica refused the disabled model after %v", time.Since(start).Round(10*time.Millisecond))
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("the other replica did not see the change within 5 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
