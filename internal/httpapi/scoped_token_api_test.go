package httpapi_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

type scopedTokenJSON struct {
	ID       int64   `json:"id"`
	Token    string  `json:"token"`
	ScopeURI *string `json:"scope_uri"`
	ReadOnly bool    `json:"read_only"`
}

func (e *env) scopedToken(token, scope string, readOnly *bool) scopedTokenJSON {
	e.t.Helper()
	body := map[string]any{"name": "agent", "scope_uri": scope}
	if readOnly != nil {
		body["read_only"] = *readOnly
	}
	var out scopedTokenJSON
	e.mustOK(e.do(http.MethodPost, "/api/v1/auth/tokens", token, body), http.StatusCreated, &out)
	return out
}

// scopedTree gives alice projects/alpha (the scope, with a file and a
// subfolder), a sibling projects/beta, a top-level secret and a share from bob.
func scopedTree(e *env) (alice, bob string) {
	_, alice = e.newUser("alice")
	_, bob = e.newUser("bob")
	e.mkdir(alice, "kb://me/projects/alpha/sub/")
	e.mkdir(alice, "kb://me/projects/beta/")
	e.mustUpload(alice, "kb://me/projects/alpha/", upFile{"plan.md", []byte("needle in alpha")})
	e.mustUpload(alice, "kb://me/projects/beta/", upFile{"b.md", []byte("needle in beta")})
	e.mustUpload(alice, "kb://me/", upFile{"secret.md", []byte("needle secret")})
	e.mustUpload(bob, "kb://me/", upFile{"bob.md", []byte("needle of bob")})
	e.share(bob, "kb://me/bob.md", "user", "alice", "read")
	return alice, bob
}

// scopedEnv is the scoped tree with alice's read-only token for alpha.
func scopedEnv(t *testing.T, dialect string) (e *env, alice, ro string) {
	e = newEnv(t, dialect)
	alice, _ = scopedTree(e)
	return e, alice, e.scopedToken(alice, "kb://me/projects/alpha/", nil).Token
}

func TestScopedTokenCreateAndList(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		alice, _ := scopedTree(e)
		tok := e.scopedToken(alice, "kb://users/alice/projects/alpha", nil)
		if tok.ScopeURI == nil || *tok.ScopeURI != "kb://users/alice/projects/alpha/" || !tok.ReadOnly {
			t.Fatalf("created %+v", tok)
		}
		f := false
		rw := e.scopedToken(alice, "kb://me/projects/alpha/", &f)
		if rw.ReadOnly {
			t.Fatalf("read_only:false ignored: %+v", rw)
		}
		var list struct{ Items []scopedTokenJSON }
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/tokens", alice, nil), http.StatusOK, &list)
		if len(list.Items) != 2 || *list.Items[0].ScopeURI != "kb://users/alice/projects/alpha/" || list.Items[0].ReadOnly || !list.Items[1].ReadOnly {
			t.Fatalf("list %+v", list.Items)
		}
		// The admin listing shows each token's scope as the owner's does.
		var all struct{ Items []scopedTokenJSON }
		e.mustOK(e.do(http.MethodGet, "/api/v1/admin/tokens", e.Admin, nil), http.StatusOK, &all)
		if len(all.Items) != 2 || all.Items[0].ScopeURI == nil || *all.Items[0].ScopeURI != "kb://users/alice/projects/alpha/" || !all.Items[1].ReadOnly {
			t.Fatalf("admin list %+v", all.Items)
		}
		for _, bad := range []struct{ uri, code string }{
			{"kb://me/", "invalid_scope"}, {"kb://me/secret.md", "invalid_scope"},
			{"kb://users/bob/", "invalid_scope"}, {"https://example.com/x", "invalid_scope"},
		} {
			wantErr(t, e.do(http.MethodPost, "/api/v1/auth/tokens", alice, map[string]any{"name": "x", "scope_uri": bad.uri}), http.StatusBadRequest, bad.code)
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/auth/tokens", alice, map[string]any{"name": "x", "scope_uri": "kb://me/nope/"}), http.StatusNotFound, "not_found")

		// A scoped token manages nothing of the account.
		for _, r := range []struct{ method, path string }{
			{http.MethodPost, "/api/v1/auth/tokens"}, {http.MethodGet, "/api/v1/auth/tokens"},
			{http.MethodDelete, fmt.Sprintf("/api/v1/auth/tokens/%d", rw.ID)}, {http.MethodPost, "/api/v1/auth/password"},
			{http.MethodPost, "/api/v1/auth/logout-all"}, {http.MethodGet, "/api/v1/admin/users"},
		} {
			var body any
			switch r.path {
			case "/api/v1/auth/tokens":
				body = map[string]any{"name": "wider"}
			case "/api/v1/auth/password":
				body = map[string]string{"current": "x", "new": "y"}
			}
			r := e.invalid().do(r.method, r.path, rw.Token, body)
			wantErr(t, r, http.StatusForbidden, "scoped_token")
		}
	})
}

func TestScopedTokenSeesOnlyItsFolder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e, _, ro := scopedEnv(t, dialect)

		// The root lists only the scope folder, under any spelling.
		for _, root := range []string{"kb://me/", "kb://me", "kb://users/alice/", "kb://users/alice"} {
			var l struct {
				Items []itemJSON `json:"items"`
			}
			e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", root), ro, nil), http.StatusOK, &l)
			if len(l.Items) != 1 || l.Items[0].URI != "kb://users/alice/projects/alpha/" {
				t.Fatalf("root %s lists %+v", root, l.Items)
			}
		}
		if got := e.names(ro, "kb://me/projects/alpha/"); !slices.Equal(got, []string{"sub", "plan.md"}) {
			t.Fatalf("scope lists %v", got)
		}
		if got := string(e.raw(ro, "kb://me/projects/alpha/plan.md")); got != "needle in alpha" {
			t.Fatalf("raw %q", got)
		}
		// Everything outside is 404, whatever the spelling.
		outside := []string{"kb://me/projects/", "kb://me/projects", "kb://me/secret.md", "kb://users/alice/projects/beta/",
			"kb://me/projects/alpha/../beta/b.md", "kb://me/projects/alpha/sub/../../beta/", "kb://users/bob/bob.md",
			"kb://me/projects/alpha%2F..%2Fbeta/", "kb://me/projects/alph", "kb://me/projects/alpha2/", "kb://me/projects/alpha\u0301/"}
		for _, u := range outside {
			for _, path := range []string{"/api/v1/resources", "/api/v1/resources/content", "/api/v1/resources/raw", "/api/v1/resources/versions"} {
				r := e.invalid().do(http.MethodGet, q(path, u), ro, nil)
				if r.Status != http.StatusNotFound && r.Status != http.StatusBadRequest {
					t.Errorf("GET %s %s: %s", path, u, r)
				}
				if code, _, _ := r.APIError(); r.Status == http.StatusBadRequest && code != "invalid_uri" {
					t.Errorf("GET %s %s: %s", path, u, r)
				}
			}
		}
		wantErr(t, rawQuery(e, http.MethodGet, "/api/v1/resources", ro, "uri=kb://me/projects/alpha/%2E%2E/beta/"), http.StatusBadRequest, "invalid_uri")
		wantErr(t, e.do(http.MethodGet, q("/api/v1/resources", "kb://shared/"), ro, nil), http.StatusNotFound, "not_found")

		// Search from the root or the scope finds the scope's files only.
		for _, root := range []string{"kb://me/", "kb://me/projects/alpha/"} {
			s := e.search(ro, root, "needle")
			if got := s.hitURIs(); !slices.Equal(got, []string{"kb://users/alice/projects/alpha/plan.md"}) {
				t.Fatalf("search from %s: %v", root, got)
			}
		}
		wantErr(t, e.do(http.MethodGet, q("/api/v1/search", "kb://me/projects/beta/", "q", "needle"), ro, nil), http.StatusNotFound, "not_found")
		wantErr(t, e.do(http.MethodGet, q("/api/v1/search", "kb://shared/", "q", "needle"), ro, nil), http.StatusNotFound, "not_found")
	})
}

func TestScopedTokenWrites(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e, alice, ro := scopedEnv(t, dialect)
		f := false
		rw := e.scopedToken(alice, "kb://me/projects/alpha/", &f).Token

		wantErr(t, e.upload(ro, "kb://me/projects/alpha/", upFile{"x.md", []byte("x")}), http.StatusForbidden, "read_only")
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/folders", ro, map[string]string{"uri": "kb://me/projects/alpha/new/"}), http.StatusForbidden, "read_only")
		wantErr(t, e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/projects/alpha/plan.md"), ro, nil), http.StatusForbidden, "read_only")
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/folders", rw, map[string]string{"uri": "kb://me/projects/gamma/"}), http.StatusNotFound, "not_found")
		wantErr(t, e.upload(rw, "kb://me/", upFile{"x.md", []byte("x")}), http.StatusForbidden, "read_only")

		up := e.mustUpload(rw, "kb://me/projects/alpha/sub/", upFile{"new.md", []byte("new")})
		if up[0].URI != "kb://users/alice/projects/alpha/sub/new.md" {
			t.Fatalf("upload at %s", up[0].URI)
		}
		e.mustOK(e.do(http.MethodPatch, "/api/v1/resources", rw, map[string]string{"uri": "kb://me/projects/alpha/sub/new.md", "new_uri": "kb://me/projects/alpha/moved.md"}), http.StatusOK, nil)
		if r := e.do(http.MethodPatch, "/api/v1/resources", rw, map[string]string{"uri": "kb://me/projects/alpha/moved.md", "new_uri": "kb://me/projects/beta/stolen.md"}); r.Status != http.StatusForbidden && r.Status != http.StatusNotFound {
			t.Fatalf("move out of scope: %s", r)
		}
		wantErr(t, e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/projects/alpha/"), rw, nil), http.StatusForbidden, "scope_root")
		wantErr(t, e.do(http.MethodPatch, "/api/v1/resources", rw, map[string]string{"uri": "kb://me/projects/alpha/", "new_uri": "kb://me/projects/alpha2/"}), http.StatusForbidden, "scope_root")
		// Shares and skills are the account's (TestScopedTokenRefusedAccountRoutes);
		// read-only changes no conversation either.
		wantErr(t, e.do(http.MethodPost, "/api/v1/resources/shares", rw, map[string]string{"uri": "kb://me/projects/alpha/", "user": "bob", "role": "read"}), http.StatusForbidden, "scoped_token")
		wantErr(t, e.do(http.MethodPatch, "/api/v1/knowledge-agent/conversations/1", ro, map[string]string{"title": "x"}), http.StatusForbidden, "read_only")
		wantErr(t, e.do(http.MethodDelete, "/api/v1/knowledge-agent/conversations/1", ro, nil), http.StatusForbidden, "read_only")

		// Trash: only what was deleted inside the scope.
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/projects/alpha/moved.md"), rw, nil), http.StatusNoContent, nil)
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/secret.md"), alice, nil), http.StatusNoContent, nil)
		type trashList struct {
			Items []struct {
				ID  int64  `json:"id"`
				URI string `json:"uri"`
			} `json:"items"`
		}
		var trash, all trashList
		e.mustOK(e.do(http.MethodGet, "/api/v1/trash", rw, nil), http.StatusOK, &trash)
		if len(trash.Items) != 1 || !strings.HasSuffix(trash.Items[0].URI, "projects/alpha/moved.md") {
			t.Fatalf("scoped trash %+v", trash.Items)
		}
		e.mustOK(e.do(http.MethodGet, "/api/v1/trash", alice, nil), http.StatusOK, &all)
		for _, it := range all.Items {
			if strings.HasSuffix(it.URI, "secret.md") {
				wantErr(t, e.do(http.MethodPost, "/api/v1/trash/restore", rw, map[string]int64{"id": it.ID}), http.StatusNotFound, "not_found")
				wantErr(t, e.do(http.MethodDelete, fmt.Sprintf("/api/v1/trash/%d", it.ID), rw, nil), http.StatusNotFound, "not_found")
			}
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/trash/restore", ro, map[string]int64{"id": trash.Items[0].ID}), http.StatusForbidden, "read_only")
		e.mustOK(e.do(http.MethodDelete, "/api/v1/trash", rw, nil), http.StatusOK, nil)
		e.mustOK(e.do(http.MethodGet, "/api/v1/trash", alice, nil), http.StatusOK, &all)
		if len(all.Items) != 1 || !strings.HasSuffix(all.Items[0].URI, "secret.md") {
			t.Fatalf("emptying the scoped trash left %+v", all.Items)
		}

		// The owner renames the folder: the scope follows. Deleted: refused.
		e.mustOK(e.do(http.MethodPatch, "/api/v1/resources", alice, map[string]string{"uri": "kb://me/projects/alpha/", "new_uri": "kb://me/alpha/"}), http.StatusOK, nil)
		if got := e.names(ro, "kb://me/"); !slices.Equal(got, []string{"alpha"}) {
			t.Fatalf("after rename the root lists %v", got)
		}
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/alpha/"), alice, nil), http.StatusNoContent, nil)
		wantErr(t, e.do(http.MethodGet, q("/api/v1/resources", "kb://me/"), ro, nil), http.StatusUnauthorized, "token_scope_deleted")
	})
}

func TestScopedTokenCommands(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e, _, ro := scopedEnv(t, dialect)
		// /knowledge-agent/command: ls of the root is the scope; search stays inside.
		var ls struct {
			Result struct {
				Items []itemJSON `json:"items"`
			} `json:"result"`
		}
		r := e.do(http.MethodPost, "/api/v1/knowledge-agent/command", ro, map[string]any{"command": "ls", "uri": "kb://me/"})
		e.mustOK(r, http.StatusOK, &ls)
		if !strings.Contains(string(r.Body), "plan.md") || strings.Contains(string(r.Body), "secret") || strings.Contains(string(r.Body), "beta") {
			t.Fatalf("scoped ls of the root: %s", r.Body)
		}
		r = e.do(http.MethodPost, "/api/v1/knowledge-agent/command", ro, map[string]any{"command": "search", "uri": "kb://me/", "query": "needle"})
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), "alpha/plan.md") || strings.Contains(string(r.Body), "secret") || strings.Contains(string(r.Body), "beta") || strings.Contains(string(r.Body), "bob") {
			t.Fatalf("scoped search command: %s", r)
		}
		wantErr(t, e.do(http.MethodPost, "/api/v1/knowledge-agent/command", ro, map[string]any{"command": "read", "uri": "kb://me/secret.md"}), http.StatusNotFound, "not_found")

	})
}
