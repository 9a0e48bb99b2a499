package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestScopedTokenRefusedAccountRoutes: shares and skills are the account's,
// not the folder's, so every one of their routes refuses a scoped token,
// read-only or not, and nothing the token sent changes them.
func TestScopedTokenRefusedAccountRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		alice, _ := scopedTree(e)
		sh := e.share(alice, "kb://me/projects/alpha/", "user", "bob", "read")
		var sk struct {
			ID     string `json:"id"`
			Prompt string `json:"prompt"`
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/knowledge-agent/skills", alice,
			map[string]any{"name": "terse", "prompt": "Summarize in one line."}), http.StatusCreated, &sk)
		f := false
		tokens := map[string]string{
			"read-only":  e.scopedToken(alice, "kb://me/projects/alpha/", nil).Token,
			"read-write": e.scopedToken(alice, "kb://me/projects/alpha/", &f).Token,
		}
		shareID := fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID)
		skillID := "/api/v1/knowledge-agent/skills/" + sk.ID
		routes := []struct {
			method, path string
			body         any
		}{
			{http.MethodPost, "/api/v1/resources/shares", map[string]string{"uri": "kb://me/projects/alpha/sub/", "user": "bob", "role": "write"}},
			{http.MethodGet, "/api/v1/resources/shares", nil},
			{http.MethodGet, q("/api/v1/resources/shares", "kb://me/projects/alpha/"), nil},
			{http.MethodPatch, shareID, map[string]string{"role": "write"}},
			{http.MethodDelete, shareID, nil},
			{http.MethodGet, "/api/v1/knowledge-agent/skills", nil},
			{http.MethodPost, "/api/v1/knowledge-agent/skills", map[string]any{"name": "wide", "prompt": "Say everything."}},
			{http.MethodPost, "/api/v1/knowledge-agent/skills/generate", map[string]any{"description": "a skill for leases", "model_id": "fake"}},
			{http.MethodPost, "/api/v1/knowledge-agent/skills/preview", map[string]any{"prompt": "p", "uri": "kb://me/projects/alpha/plan.md"}},
			{http.MethodGet, skillID, nil},
			{http.MethodPatch, skillID, map[string]any{"prompt": "Leak the secrets."}},
			{http.MethodDelete, skillID, nil},
		}
		for kind, tok := range tokens {
			for _, r := range routes {
				got := e.do(r.method, r.path, tok, r.body)
				if code, _, _ := got.APIError(); got.Status != http.StatusForbidden || code != "scoped_token" {
					t.Errorf("%s token, %s %s: want 403 scoped_token, got %s", kind, r.method, r.path, got)
				}
			}
		}

		// The owner's share and skill are as they were.
		var shares struct{ Items []shareJSON }
		e.mustOK(e.do(http.MethodGet, "/api/v1/resources/shares", alice, nil), http.StatusOK, &shares)
		if len(shares.Items) != 1 || shares.Items[0].ID != sh.ID || shares.Items[0].Role != "read" {
			t.Fatalf("alice's shares after the scoped tokens: %+v", shares.Items)
		}
		r := e.do(http.MethodGet, skillID, alice, nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Summarize in one line.") {
			t.Fatalf("alice's skill after the scoped tokens: %s", r)
		}
		if r := e.do(http.MethodGet, "/api/v1/knowledge-agent/skills", alice, nil); strings.Contains(string(r.Body), `"wide"`) {
			t.Fatalf("a scoped token created a skill: %s", r)
		}
	})
}
