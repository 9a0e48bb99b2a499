package apptest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestStackUsers: a signed-in user has a live session and the sample tree,
// a caller made in the store has neither.
func TestStackUsers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		s := apptest.NewStack(t, dialect)
		tokens := s.SignIn(t, "alice")
		u, err := s.Auth.Authenticate(ctx, tokens["alice"])
		if err != nil || u.Username != "alice" {
			t.Fatalf("alice's session: %v %+v", err, u)
		}
		if _, _, err := s.Tree.Resolve(ctx, kb.Caller{ID: u.ID, Username: u.Username}, "kb://me/Welcome.md"); err != nil {
			t.Errorf("alice has no sample tree: %v", err)
		}
		key := s.APIToken(t, u.ID, "test")
		if got, err := s.Auth.Authenticate(ctx, key); err != nil || got.ID != u.ID {
			t.Errorf("alice's API token: %v %+v", err, got)
		}
		bob := s.Caller(t, "bob")
		if _, _, err := s.Tree.Resolve(ctx, bob, "kb://me/Welcome.md"); err == nil {
			t.Errorf("a caller made in the store got the sample tree")
		}
	})
}

// TestScenarios runs a table against a handler that answers one success
// and one error in the one error shape.
func TestScenarios(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"token":"` + r.Header.Get("Authorization") + `"}`))
	})
	mux.HandleFunc("POST /refused", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":"invalid_json","message":"the body is not JSON"}}`))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	var sawInvalid bool
	client := apptest.Client{URL: srv.URL, HTTP: &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		sawInvalid = sawInvalid || apptest.IsInvalid(r)
		return http.DefaultTransport.RoundTrip(r)
	})}}
	apptest.RunScenarios(t, client, []apptest.Scenario{
		{Name: "success", Method: "GET", URL: "/ok", Token: "t0k", WantStatus: 200, WantBodyContains: []string{"Bearer t0k"}},
		{Name: "refused", Method: "POST", URL: "/refused", Body: "{", Invalid: true, WantStatus: 400, WantCode: "invalid_json",
			Check: func(t *testing.T, r apptest.Response) {
				if _, msg, _ := r.APIError(); msg != "the body is not JSON" {
					t.Errorf("message %q", msg)
				}
			}},
	})
	if !sawInvalid {
		t.Errorf("the invalid row's request was not marked")
	}
}

// TestFakeModels: a model made from the fake reaches it.
func TestFakeModels(t *testing.T) {
	t.Parallel()
	fake := apptest.StartFake(t, fakellm.Options{})
	reg := apptest.Models(t, fake.Model("fake", "sk-test", "upstream"))
	if reg.Len() != 1 {
		t.Fatalf("registry of one model holds %d", reg.Len())
	}
	res, err := http.Get(fake.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the fake's models: %d", res.StatusCode)
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
