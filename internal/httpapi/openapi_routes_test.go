package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
)

var echoParam = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)`)

// TestOpenAPICoversEveryRoute walks the route table of the real Echo
// instance: every route must be in the document, and every documented
// operation must be a route. Only the catch-alls (/*: the web app and the
// API's 404) are left out.
func TestOpenAPICoversEveryRoute(t *testing.T) {
	stack := NewTestStack(t, "sqlite")
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
	stack := NewTestStack(t, "sqlite")
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
