package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func TestHandler(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"index.html":           {Data: []byte("<html>shell</html>")},
		"assets/index-abc.js":  {Data: []byte("console.log(1)")},
		"assets/index-abc.css": {Data: []byte("body{}")},
		"favicon.svg":          {Data: []byte("<svg/>")},
	}
	h := newHandler(fsys)
	tests := []struct {
		name, method, path string
		status             int
		body, cache, ctype string
	}{
		{name: "root is the shell", path: "/", status: 200, body: "shell", cache: cacheIndex, ctype: "text/html"},
		{name: "index.html directly", path: "/index.html", status: 200, body: "shell", cache: cacheIndex},
		{name: "hashed asset", path: "/assets/index-abc.js", status: 200, body: "console.log", cache: cacheAsset, ctype: "javascript"},
		{name: "css asset", path: "/assets/index-abc.css", status: 200, cache: cacheAsset, ctype: "text/css"},
		{name: "plain file", path: "/favicon.svg", status: 200, body: "<svg/>", ctype: "image/svg+xml"},
		{name: "client route falls back", path: "/files/notes", status: 200, body: "shell", cache: cacheIndex},
		{name: "missing asset is 404", path: "/assets/gone-123.js", status: 404},
		{name: "missing file with extension is 404", path: "/robots.txt", status: 404},
		{name: "api never falls back", path: "/api/v1/nothing", status: 404},
		{name: "bare api never falls back", path: "/api", status: 404},
		{name: "dot-dot stays inside", path: "/../../etc/passwd.txt", status: 404},
		{name: "dot-dot reaches a real file only inside", path: "/assets/../favicon.svg", status: 200, body: "<svg/>"},
		{name: "directory falls back", path: "/assets", status: 200, body: "shell"},
		{name: "head works", method: http.MethodHead, path: "/", status: 200, cache: cacheIndex},
		{name: "post refused", method: http.MethodPost, path: "/", status: 405},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(method, tc.path, nil))
			if rec.Code != tc.status {
				t.Fatalf("status = %d, want %d (body %q)", rec.Code, tc.status, rec.Body.String())
			}
			if tc.body != "" && !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("body = %q, want it to contain %q", rec.Body.String(), tc.body)
			}
			if got := rec.Header().Get("Cache-Control"); tc.cache != "" && got != tc.cache {
				t.Errorf("Cache-Control = %q, want %q", got, tc.cache)
			}
			if got := rec.Header().Get("Content-Type"); tc.ctype != "" && !strings.Contains(got, tc.ctype) {
				t.Errorf("Content-Type = %q, want it to contain %q", got, tc.ctype)
			}
		})
	}
}

func TestPlaceholderHandler(t *testing.T) {
	t.Parallel()
	if Embedded {
		t.Skip("built with the real app")
	}
	for _, p := range []string{"/", "/some/route"} {
		rec := httptest.NewRecorder()
		Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "not built") {
			t.Errorf("GET %s = %d %q, want the placeholder page", p, rec.Code, rec.Body.String())
		}
		if got := rec.Header().Get("Cache-Control"); got != cacheIndex {
			t.Errorf("GET %s Cache-Control = %q, want %q", p, got, cacheIndex)
		}
	}
}
