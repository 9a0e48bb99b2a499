package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/labstack/echo/v4"
)

var echoParam = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)`)

// TestOpenAPICoversEveryRoute walks the route table of the real Echo
// instance: every route must be in the document, and every documented
// operation must be a route. Only the catch-alls (/*: the web app and the
// API's 404) are left out.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	stack := apptest.NewStack(t, "sqlite")
	e := New(Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree, SPA: http.NotFoundHandler()})
	spec, err := loadSpec()
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, item := range spec.doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	routed := map[string]bool{}
	for _, r := range e.Routes() {
		// Echo marks its group 404 handlers with a pseudo-method.
		if strings.HasSuffix(r.Path, "/*") || r.Method == echo.RouteNotFound {
			continue
		}
		key := r.Method + " " + echoParam.ReplaceAllString(r.Path, "{$1}")
		routed[key] = true
		if !documented[key] {
			t.Errorf("route %s (%s) is not in the OpenAPI document (internal/httpapi/openapi)", key, r.Name)
		}
	}
	var stale []string
	for key := range documented {
		if !routed[key] {
			stale = append(stale, key)
		}
	}
	sort.Strings(stale)
	for _, key := range stale {
		t.Errorf("the OpenAPI document lists %s, which is no route", key)
	}
	if len(routed) < 60 {
		t.Fatalf("only %d routes found; the walk is broken", len(routed))
	}
	t.Logf("%d routes", len(routed))
}

// TestOpenAPIServed: the document is served without a token, as JSON, and
// is the valid OpenAPI 3.1 document of this API.
func TestOpenAPIServed(t *testing.T) {
	stack := apptest.NewStack(t, "sqlite")
	srv := httptest.NewServer(New(Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree}))
	t.Cleanup(srv.Close)
	res, err := CheckedClient(t).Get(srv.URL + "/api/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("content type %q, want application/json", ct)
	}
	doc, err := openapi3.NewLoader().LoadFromData(body)
	if err != nil {
		t.Fatalf("load the served document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the served document is not valid: %v", err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version == "" || len(doc.Servers) != 1 || doc.Servers[0].URL != "/" {
		t.Fatalf("openapi %q, version %q, servers %+v", doc.OpenAPI, doc.Info.Version, doc.Servers)
	}
	stream := doc.Paths.Find("/api/v1/knowledge-agent/stream").Post.Responses.Status(200).Value
	sse := stream.Content.Get("text/event-stream")
	if sse == nil {
		t.Fatal("the stream answer is not text/event-stream")
	}
	var events map[string]any
	if raw, _ := json.Marshal(sse.Extensions["x-events"]); json.Unmarshal(raw, &events) != nil || len(events) != 8 {
		t.Fatalf("x-events lists %d events, want the 8 of SPEC §5", len(events))
	}
	if got := doc.Components.Schemas["StreamEvent"].Value.Discriminator; got == nil || len(got.Mapping) != 8 {
		t.Fatalf("StreamEvent discriminator = %+v", got)
	}
}

// recordingT keeps what the checking transport reports instead of failing.
type recordingT struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingT) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingT) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.errs
	r.errs = nil
	return out
}

// TestCheckingTransportCatchesMismatches: the validation the API tests
// rely on reports a wrong answer, a wrong stream event and an invalid
// request, and lets a right exchange and an opted-out request pass.
func TestCheckingTransportCatchesMismatches(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/auth/me":
			w.Header().Set("Content-Type", "application/json")
			if r.URL.Query().Get("bad") != "" {
				fmt.Fprint(w, `{"id":"seven","username":"bob","role":"user","disabled":false,"created_at":"2026-01-02T03:04:05Z"}`)
				return
			}
			fmt.Fprint(w, `{"id":7,"username":"bob","role":"user","disabled":false,"created_at":"2026-01-02T03:04:05Z"}`)
		case "/api/v1/knowledge-agent/stream":
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-cache")
			fmt.Fprint(w, ": heartbeat\n\nevent: delta\ndata: {\"text\":\"hi\"}\n\nevent: delta\ndata: {\"txt\":\"hi\"}\n\nevent: surprise\ndata: {}\n\n")
		case "/api/v1/auth/login":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"code":"invalid_json","message":"bad"}}`)
		}
	}))
	t.Cleanup(srv.Close)
	rec := &recordingT{TB: t}
	client := CheckedClient(rec)
	get := func(path string) {
		res, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	login := func(skip bool) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/auth/login", strings.NewReader(`{"username":42}`))
		req.Header.Set("Content-Type", "application/json")
		if skip {
			req = SkipRequestCheck(req)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}

	get("/api/v1/auth/me")
	if errs := rec.take(); len(errs) != 0 {
		t.Fatalf("a right answer was reported: %v", errs)
	}
	get("/api/v1/auth/me?bad=1")
	if errs := rec.take(); len(errs) != 1 || !strings.Contains(errs[0], "GET /api/v1/auth/me") || !strings.Contains(errs[0], "/id") {
		t.Fatalf("a wrong answer: %v", errs)
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/knowledge-agent/stream", strings.NewReader(`{"uri":"kb://me/","model_id":"m","message":"hi"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	errs := rec.take()
	if len(errs) != 2 || !strings.Contains(errs[0], `event "delta"`) || !strings.Contains(errs[1], `event "surprise" is not in the document`) {
		t.Fatalf("stream events: %v", errs)
	}
	login(false)
	if errs := rec.take(); len(errs) != 1 || !strings.Contains(errs[0], "request POST /api/v1/auth/login") {
		t.Fatalf("an invalid request: %v", errs)
	}
	login(true)
	if errs := rec.take(); len(errs) != 0 {
		t.Fatalf("an opted-out request was reported: %v", errs)
	}
}
