package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store"
)

// newSPAServer serves the API with a stand-in web app, as the binary
// mounts the real one.
func newSPAServer(t *testing.T) *httptest.Server {
	stack := apptest.NewStack(t, store.DialectSQLite)
	spa := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><div id=root></div>"))
	})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree, SPA: spa}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSecurityHeaders(t *testing.T) {
	srv := newSPAServer(t)
	cases := []struct {
		method, path string
		status       int
		csp          []string // parts the policy must hold
	}{
		{"GET", "/", 200, []string{"default-src 'self'", "script-src 'self' 'wasm-unsafe-eval';", "img-src 'self' data: blob:", "connect-src 'self'", "frame-ancestors 'none'"}},
		{"GET", "/some/client/route", 200, []string{"default-src 'self'"}},
		{"GET", "/healthz", 200, []string{"default-src 'none'", "sandbox"}},
		{"GET", "/api/v1/auth/me", 401, []string{"default-src 'none'"}},
		{"POST", "/api/v1/auth/login", 400, []string{"default-src 'none'"}},
		{"GET", "/api/v1/nowhere", 401, []string{"default-src 'none'"}},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		// Every case sends {} on purpose, valid for the route or not.
		res, err := httpapi.CheckedClient(t).Do(httpapi.SkipRequestCheck(req))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		if res.StatusCode != c.status || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" ||
			h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s %s: %d %v", c.method, c.path, res.StatusCode, h)
		}
		csp := h.Get("Content-Security-Policy")
		for _, part := range c.csp {
			if !strings.Contains(csp, part) {
				t.Errorf("%s %s: CSP %q lacks %q", c.method, c.path, csp, part)
			}
		}
		// 'wasm-unsafe-eval' (the PDF viewer's decoders) compiles WebAssembly only.
		if strings.Contains(csp, "'unsafe-inline'") || strings.Contains(csp, "'unsafe-eval'") {
			t.Errorf("%s: CSP allows inline code: %q", c.path, csp)
		}
	}
}

// TestProbesNeverGetTheWebApp: paths that tools probe (metrics scrapers,
// OAuth discovery) answer the JSON error, not index.html, even with the
// web app mounted.
func TestProbesNeverGetTheWebApp(t *testing.T) {
	srv := newSPAServer(t)
	for _, c := range []struct{ path, says string }{
		{"/metrics", "metrics_listen"},
		{"/.well-known/oauth-protected-resource/mcp", "nothing is published"},
	} {
		res, err := httpapi.CheckedClient(t).Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") ||
			!strings.Contains(string(body), `"no_route"`) || !strings.Contains(string(body), c.says) {
			t.Errorf("GET %s: %d %s %s", c.path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
}
