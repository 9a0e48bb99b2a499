package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/httpapi/openapi"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// listEndpoint is one list of the REST API, as a walk asks for it.
type listEndpoint struct {
	path  string // with the query that picks the list
	who   string // alice or admin
	old   string // the key the list was answered under before items, kept for one release
	limit bool   // whether limit= sizes its pages (search's pages are the tool's)
}

// listEndpoints is every list the API answers; TestListEndpointsAreAllWalked
// keeps it complete.
var listEndpoints = []listEndpoint{
	{path: "/auth/tokens", who: "alice", limit: true},
	{path: "/auth/groups", who: "alice", limit: true},
	{path: "/admin/users", who: "admin", limit: true},
	{path: "/admin/groups", who: "admin", limit: true},
	{path: "/admin/tokens", who: "admin", limit: true},
	{path: "/admin/jobs", who: "admin", old: "jobs", limit: true},
	{path: "/admin/audit", who: "admin", limit: true},
	{path: "/auth/audit", who: "alice", limit: true},
	{path: "/resources?uri=kb://me/docs/", who: "alice", limit: true},
	{path: "/resources/versions?uri=kb://me/docs/a.md", who: "alice", limit: true},
	{path: "/resources/shares", who: "alice", limit: true},
	{path: "/trash", who: "alice", limit: true},
	{path: "/search?uri=kb://me/many/&q=zq&kind=content", who: "alice", old: "hits"},
	{path: "/knowledge-agent/conversations", who: "alice", limit: true},
	{path: "/knowledge-agent/skills", who: "alice", old: "skills", limit: true},
	{path: "/jobs", who: "alice", old: "jobs", limit: true},
}

// TestEveryListPagesByCursor walks every list endpoint a page at a time
// (limit=1 where the list takes a limit), following next_cursor until it
// is empty: the pages hold exactly the items of the whole list, in its
// order, and a list answered under another key until now still answers it
// beside items.
func TestEveryListPagesByCursor(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newListEnv(t, dialect)
		e.fill()
		for _, ep := range listEndpoints {
			t.Run(ep.path, func(t *testing.T) {
				whole := e.page(t, ep, "", "")
				var want []json.RawMessage
				if ep.limit {
					if cursorOf(t, whole) != "" {
						t.Fatalf("the whole list has a next_cursor: %s", whole["next_cursor"])
					}
					want = itemsOf(t, whole)
				}
				var got []json.RawMessage
				pages := 0
				for cursor := ""; ; {
					limit := ""
					if ep.limit {
						limit = "1"
					}
					p := e.page(t, ep, limit, cursor)
					pages++
					items := itemsOf(t, p)
					if ep.limit && len(items) > 1 {
						t.Fatalf("page %d of limit=1 holds %d items", pages, len(items))
					}
					got = append(got, items...)
					if cursor = cursorOf(t, p); cursor == "" {
						break
					}
					if pages > 500 {
						t.Fatal("next_cursor never ends")
					}
				}
				if pages < 2 {
					t.Fatalf("one page only: the walk shows no paging (%d items)", len(got))
				}
				if ep.limit && !sameItems(got, want) {
					t.Fatalf("the pages hold %d items, the whole list %d:\n%s\nwant\n%s", len(got), len(want), got, want)
				}
				if !ep.limit && len(got) != listSearchHits {
					t.Fatalf("the pages hold %d hits, want %d", len(got), listSearchHits)
				}
			})
		}
	})
}

// TestListCursorsAreTheirListsOwn: a cursor that a list did not make, or a
// limit past its bound, is refused, not read as a position.
func TestListCursorsAreTheirListsOwn(t *testing.T) {
	t.Parallel()
	e := newListEnv(t, "sqlite")
	e.fill()
	next := func(path string) string {
		var p map[string]json.RawMessage
		e.decode(e.call("alice", "GET", path, nil, 200), &p)
		c := cursorOf(t, p)
		if c == "" {
			t.Fatalf("%s has no next page", path)
		}
		return c
	}
	trash, jobs := next("/trash?limit=1"), next("/jobs?limit=1")
	for _, bad := range []struct{ path, code string }{
		{"/trash?cursor=nope", "invalid_cursor"},
		{"/trash?cursor=" + jobs, "invalid_cursor"},
		{"/jobs?cursor=" + trash, "invalid_cursor"},
		{"/admin/jobs?cursor=" + trash, "invalid_cursor"},
		{"/admin/audit?cursor=" + trash, "invalid_cursor"},
		{"/auth/audit?cursor=" + jobs, "invalid_cursor"},
		{"/admin/audit?limit=1001", "invalid_limit"},
		{"/knowledge-agent/skills?cursor=" + jobs, "invalid_cursor"},
		{"/trash?limit=1001", "invalid_limit"},
		{"/auth/tokens?limit=-1", "invalid_limit"},
		{"/jobs?limit=501", "invalid_limit"},
	} {
		who := "alice"
		if strings.HasPrefix(bad.path, "/admin/") {
			who = "admin"
		}
		var body struct{ Error struct{ Code string } }
		e.decode(e.callInvalid(who, "GET", bad.path, nil, 400), &body)
		if body.Error.Code != bad.code {
			t.Errorf("%s: %s, want %s", bad.path, body.Error.Code, bad.code)
		}
	}
}

// TestListEndpointsAreAllWalked: each GET of the OpenAPI document that
// answers a list (items) is in listEndpoints, and each documents the
// shape: items, next_cursor, and the cursor parameter.
func TestListEndpointsAreAllWalked(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	walked := map[string]bool{}
	for _, ep := range listEndpoints {
		walked["/api/v1"+strings.SplitN(ep.path, "?", 2)[0]] = true
	}
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	params := doc["components"].(map[string]any)["parameters"].(map[string]any)
	for path, item := range doc["paths"].(map[string]any) {
		get, ok := item.(map[string]any)["get"].(map[string]any)
		if !ok {
			continue
		}
		props := answerProps(get, schemas)
		_, lists := props["items"]
		if lists != walked[path] {
			t.Errorf("GET %s answers items: %v, walked: %v", path, lists, walked[path])
			continue
		}
		if !lists {
			continue
		}
		if _, ok := props["next_cursor"]; !ok {
			t.Errorf("GET %s answers items without next_cursor", path)
		}
		if !hasParam(get, params, "cursor") {
			t.Errorf("GET %s documents no cursor parameter", path)
		}
	}
}

// answerProps is the properties of an operation's 200 JSON answer.
func answerProps(op map[string]any, schemas map[string]any) map[string]any {
	ok, _ := op["responses"].(map[string]any)["200"].(map[string]any)
	content, _ := ok["content"].(map[string]any)
	mt, _ := content["application/json"].(map[string]any)
	s, _ := mt["schema"].(map[string]any)
	for {
		ref, isRef := s["$ref"].(string)
		if !isRef {
			break
		}
		s, _ = schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
	}
	out := map[string]any{}
	parts := []map[string]any{s}
	if all, ok := s["allOf"].([]any); ok {
		for _, p := range all {
			m, _ := p.(map[string]any)
			if ref, ok := m["$ref"].(string); ok {
				m, _ = schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
			}
			parts = append(parts, m)
		}
	}
	for _, p := range parts {
		props, _ := p["properties"].(map[string]any)
		for k, v := range props {
			out[k] = v
		}
	}
	return out
}

func hasParam(op map[string]any, shared map[string]any, name string) bool {
	list, _ := op["parameters"].([]any)
	for _, p := range list {
		m, _ := p.(map[string]any)
		if ref, ok := m["$ref"].(string); ok {
			m, _ = shared[strings.TrimPrefix(ref, "#/components/parameters/")].(map[string]any)
		}
		if m["name"] == name {
			return true
		}
	}
	return false
}

func itemsOf(t *testing.T, page map[string]json.RawMessage) []json.RawMessage {
	t.Helper()
	var items []json.RawMessage
	if err := json.Unmarshal(page["items"], &items); err != nil || items == nil {
		t.Fatalf("items is no array: %s (%v)", page["items"], err)
	}
	return items
}

// cursorOf is next_cursor, "" when it is absent, null or empty.
func cursorOf(t *testing.T, page map[string]json.RawMessage) string {
	t.Helper()
	var c *string
	if raw, ok := page["next_cursor"]; ok {
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatalf("next_cursor is no string: %s", raw)
		}
	}
	if c == nil {
		return ""
	}
	return *c
}

func sameItems(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if json.Unmarshal(a[i], &x) != nil || json.Unmarshal(b[i], &y) != nil || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// listSearchHits is how many hits the walk's search finds: more files
// than a scanning page visits.
const listSearchHits = 45

// listEnv serves the whole API, compile, skills and conversations
// included, to alice, bob and an admin.
type listEnv struct {
	t      *testing.T
	srv    *httptest.Server
	tokens map[string]string
}

func newListEnv(t *testing.T, dialect string) *listEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fakeSrv := httptest.NewServer(fakellm.New(fakellm.Options{}))
	t.Cleanup(fakeSrv.Close)
	reg, err := llm.NewRegistry([]llm.ModelConfig{{ID: "fake", Profile: "openai-compatible", BaseURL: fakeSrv.URL + "/v1",
		APIKey: "sk-list-test", Model: "fake-model", ContextWindow: 32768, OutputReserve: 2048}}, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	skills := &skill.Service{Store: stack.Store, Tree: stack.Tree, Models: reg}
	// No workers: the jobs stay queued, so the lists hold still while
	// they are walked.
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: reg, Skills: skills})
	e := &listEnv{t: t}
	e.srv = httptest.NewServer(New(Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree, Models: reg,
		Compile: comp, Skills: skills, Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree}}))
	t.Cleanup(e.srv.Close)
	// The first account is the admin.
	ctx := context.Background()
	if _, err := stack.Auth.EnsureAdmin(ctx, "admin-password-1"); err != nil {
		t.Fatal(err)
	}
	e.tokens = stack.SignIn(t, "alice", "bob")
	sess, err := stack.Auth.Login(ctx, "admin", "admin-password-1", "test")
	if err != nil {
		t.Fatal(err)
	}
	e.tokens["admin"] = sess.Token
	return e
}

// fill gives every list at least three items.
func (e *listEnv) fill() {
	for _, name := range []string{"a", "b", "c"} {
		e.call("alice", "POST", "/auth/tokens", map[string]any{"name": "script " + name}, 201)
		e.call("admin", "POST", "/admin/groups", map[string]any{"name": "team-" + name}, 201)
		e.call("alice", "POST", "/knowledge-agent/skills", map[string]any{"name": "Skill " + name,
			"description": "d", "prompt": "Summarize the file."}, 201)
		e.call("alice", "POST", "/knowledge-agent/conversations", map[string]any{"uri": "kb://me/", "title": "Talk " + name}, 201)
	}
	var groups struct {
		Items []struct{ ID int64 } `json:"items"`
	}
	e.decode(e.call("admin", "GET", "/admin/groups", nil, 200), &groups)
	var alice struct {
		ID int64 `json:"id"`
	}
	e.decode(e.call("alice", "GET", "/auth/me", nil, 200), &alice)
	for _, g := range groups.Items {
		e.call("admin", "PUT", fmt.Sprintf("/admin/groups/%d/members/%d", g.ID, alice.ID), nil, 200)
	}

	e.call("alice", "POST", "/resources/folders", map[string]any{"uri": "kb://me/docs/"}, 201)
	e.upload("alice", "kb://me/docs/", map[string]string{"a.md": "one", "b.md": "two", "c.md": "three", "d.md": "four", "e.md": "five"})
	e.upload("alice", "kb://me/docs/", map[string]string{"a.md": "one again"})
	e.upload("alice", "kb://me/docs/", map[string]string{"a.md": "one more time"})
	for _, grantee := range []map[string]any{{"user": "bob"}, {"group": "team-a"}, {"group": "team-b"}} {
		grantee["uri"], grantee["role"] = "kb://me/docs/", "read"
		e.call("alice", "POST", "/resources/shares", grantee, 201)
	}
	e.call("alice", "POST", "/knowledge-agent/compile", map[string]any{"uris": []string{"kb://me/docs/a.md", "kb://me/docs/b.md",
		"kb://me/docs/c.md"}, "executor": "llm", "model_id": "fake"}, 200)
	for _, name := range []string{"d.md", "e.md"} {
		e.call("alice", "DELETE", "/resources?uri="+url.QueryEscape("kb://me/docs/"+name), nil, 204)
	}
	e.call("alice", "POST", "/resources/folders", map[string]any{"uri": "kb://me/junk/"}, 201)
	e.call("alice", "DELETE", "/resources?uri="+url.QueryEscape("kb://me/junk/"), nil, 204)

	e.call("alice", "POST", "/resources/folders", map[string]any{"uri": "kb://me/many/"}, 201)
	many := map[string]string{}
	for i := range listSearchHits {
		many[fmt.Sprintf("f%02d.md", i)] = "a zq here"
	}
	e.upload("alice", "kb://me/many/", many)
}

// page asks for one page of ep; limit and cursor are left out when empty.
func (e *listEnv) page(t *testing.T, ep listEndpoint, limit, cursor string) map[string]json.RawMessage {
	t.Helper()
	u, err := url.Parse(ep.path)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	if limit != "" {
		q.Set("limit", limit)
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	u.RawQuery = q.Encode()
	var page map[string]json.RawMessage
	e.decode(e.call(ep.who, "GET", u.String(), nil, 200), &page)
	if ep.old != "" {
		var old, items any
		if json.Unmarshal(page[ep.old], &old) != nil || json.Unmarshal(page["items"], &items) != nil || !reflect.DeepEqual(old, items) {
			t.Fatalf("%s (kept for one release) is not items: %s vs %s", ep.old, page[ep.old], page["items"])
		}
	}
	if next, ok := page["next_offset"]; ok && strings.HasPrefix(ep.path, "/search") && !bytes.Equal(next, page["next_cursor"]) {
		t.Fatalf("next_offset (kept for one release) %s is not next_cursor %s", next, page["next_cursor"])
	}
	return page
}

func (e *listEnv) call(who, method, path string, body any, status int) []byte {
	e.t.Helper()
	return e.send(who, method, path, body, status, false)
}

// callInvalid is call for a request invalid on purpose: only its answer
// is checked against the OpenAPI document.
func (e *listEnv) callInvalid(who, method, path string, body any, status int) []byte {
	e.t.Helper()
	return e.send(who, method, path, body, status, true)
}

func (e *listEnv) send(who, method, path string, body any, status int, invalid bool) []byte {
	e.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.srv.URL+"/api/v1"+path, r)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.tokens[who])
	if invalid {
		req = SkipRequestCheck(req)
	}
	resp, err := CheckedClient(e.t).Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		e.t.Fatalf("%s %s: %d %s, want %d", method, path, resp.StatusCode, b, status)
	}
	return b
}

func (e *listEnv) decode(b []byte, v any) {
	e.t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		e.t.Fatalf("decode %s: %v", b, err)
	}
}

// upload stores files in folder, replacing what is there.
func (e *listEnv) upload(who, folder string, files map[string]string) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		w, _ := mw.CreateFormFile("file", name)
		w.Write([]byte(files[name]))
	}
	mw.Close()
	req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/resources/upload?on_conflict=replace&uri="+url.QueryEscape(folder), &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+e.tokens[who])
	resp, err := CheckedClient(e.t).Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 201 {
		e.t.Fatalf("upload to %s: %s", folder, resp.Status)
	}
}
