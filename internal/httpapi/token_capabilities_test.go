package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
)

// routeKey is how routeCapabilities names a route; Echo's Any registers
// one route per method, declared once as ANY.
func routeKey(r *echo.Route) string {
	if k := r.Method + " " + r.Path; routeCapabilities[k] != access.Undeclared {
		return k
	}
	return "ANY " + r.Path
}

// TestEveryRouteDeclaresItsCapability walks the route table of the real
// Echo instance: every route has a line in routeCapabilities, and every
// line is a route.
func TestEveryRouteDeclaresItsCapability(t *testing.T) {
	stack := apptest.NewStack(t, "sqlite")
	e := New(Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree, SPA: http.NotFoundHandler()})
	used := map[string]bool{}
	n := 0
	for _, r := range e.Routes() {
		// Echo marks its group 404 handlers with a pseudo-method.
		if r.Method == echo.RouteNotFound {
			continue
		}
		k := routeKey(r)
		if routeCapabilities[k] == access.Undeclared {
			t.Errorf("route %s %s has no line in routeCapabilities (token_capabilities.go): declare whether scoped and read-only tokens may reach it", r.Method, r.Path)
		}
		used[k] = true
		n++
	}
	for k := range routeCapabilities {
		if !used[k] {
			t.Errorf("routeCapabilities declares %s, which is no route", k)
		}
	}
	if n < 60 {
		t.Fatalf("only %d routes found; the walk is broken", n)
	}
}

// TestCapabilitiesAreEnforced sends every declared route a scoped
// read-only token, a scoped read-write token and a session, and checks the
// answer is the one its declaration promises, so a route registered
// outside the guarded group fails here.
func TestCapabilitiesAreEnforced(t *testing.T) {
	stack := apptest.NewStack(t, "sqlite")
	e := newAPIEnv(t, stack, Deps{}, "alice")
	srv, session := e.srv, e.tokens["alice"]
	ctx := context.Background()
	u, err := stack.Store.UserByUsername(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stack.Tree.Mkdir(ctx, kb.Caller{ID: u.ID, Username: u.Username}, "kb://me/box/"); err != nil {
		t.Fatal(err)
	}
	f := false
	ro, err := stack.Auth.CreateScopedToken(ctx, u, "ro", 0, auth.TokenScope{URI: "kb://me/box/"})
	if err != nil {
		t.Fatal(err)
	}
	rw, err := stack.Auth.CreateScopedToken(ctx, u, "rw", 0, auth.TokenScope{URI: "kb://me/box/", ReadOnly: &f})
	if err != nil {
		t.Fatal(err)
	}
	send := func(method, path, token string) (int, string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var body errorBody
		_ = json.Unmarshal(b, &body)
		return res.StatusCode, body.Error.Code
	}
	params := strings.NewReplacer(":id", "999", ":user_id", "999", ":name", "nope")
	for key, want := range routeCapabilities {
		method, path, _ := strings.Cut(key, " ")
		if method == "ANY" || strings.Contains(path, "*") {
			continue
		}
		if strings.HasSuffix(path, "/stream") {
			continue // a stream with a valid body would open; an empty one is refused alike
		}
		path = params.Replace(path)
		roStatus, roCode := send(method, path, ro.Secret)
		rwStatus, rwCode := send(method, path, rw.Secret)
		_, sessCode := send(method, path, session)
		refused := func(code string) bool { return code == "scoped_token" || code == "read_only" }
		switch want {
		case access.Public:
			if status, _ := send(method, path, ""); status == http.StatusUnauthorized {
				t.Errorf("public %s answers 401 without a credential", key)
			}
		case access.FolderRead:
			if refused(roCode) || refused(rwCode) {
				t.Errorf("%s is declared for every token, but refused it: %d %s / %d %s", key, roStatus, roCode, rwStatus, rwCode)
			}
		case access.FolderWrite:
			if roStatus != http.StatusForbidden || roCode != "read_only" || refused(rwCode) {
				t.Errorf("%s: read-only token %d %s (want 403 read_only), read-write %d %s (want through)", key, roStatus, roCode, rwStatus, rwCode)
			}
		case access.Account:
			if roStatus != http.StatusForbidden || roCode != "scoped_token" || rwStatus != http.StatusForbidden || rwCode != "scoped_token" {
				t.Errorf("%s: scoped tokens answered %d %s and %d %s, want 403 scoped_token", key, roStatus, roCode, rwStatus, rwCode)
			}
		}
		if want != access.Public && refused(sessCode) {
			t.Errorf("%s refused a session: %s", key, sessCode)
		}
	}
}
