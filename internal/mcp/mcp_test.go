package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/mcp"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// revisions are the handshakes /mcp answers: the current one and the
// initialize of 2025-11-25 that most clients still send.
var revisions = []string{"2026-07-28", "2025-11-25"}

type env struct {
	t          testing.TB
	url        string
	tree       *knowledge.Tree
	alice, bob string // session tokens
	aliceAPI   string // alice's personal API token
	// aliceNotes is a read-only API token of alice's that sees only kb://me/notes/.
	aliceNotes string
}

// newEnv runs the real API with /mcp mounted, two users with the sample
// tree each.
func newEnv(t testing.TB, dialect string) *env {
	t.Helper()
	stack := apptest.NewStack(t, dialect, apptest.MaxUpload(16<<20))
	e := &env{t: t, tree: stack.Tree}
	alice := stack.NewUser(t, "alice", store.RoleUser)
	e.alice = alice.Token
	e.aliceAPI = stack.APIToken(t, alice.User.ID, "mcp")
	scoped, err := stack.Auth.CreateScopedToken(context.Background(), alice.User, "notes only", 0, auth.TokenScope{URI: "kb://me/notes/"})
	if err != nil {
		t.Fatal(err)
	}
	e.aliceNotes = scoped.Secret
	e.bob = stack.NewUser(t, "bob", store.RoleUser).Token
	// Ranked search ranks what the index writer has taken: the sample
	// trees first.
	if err := stack.Index.WaitIndexed(context.Background()); err != nil {
		t.Fatal(err)
	}
	door := mcp.New(mcp.Deps{Tree: stack.Tree, Auth: stack.Auth, ResourcesPage: 3})
	srv := httptest.NewServer(httpapi.New(httpapi.Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree,
		Mounts: []httpapi.Mount{{Path: mcp.Path, Handler: door}}}))
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func (e *env) connect(token, revision string) *sdk.ClientSession {
	e.t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: e.url + mcp.Path, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	cs, err := c.Connect(context.Background(), tr, &sdk.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		e.t.Fatalf("connect (%s): %v", revision, err)
	}
	e.t.Cleanup(func() { cs.Close() })
	return cs
}

// command is the same call through POST /knowledge-agent/command.
func (e *env) command(token, body string) (int, []byte) {
	e.t.Helper()
	r := apptest.Client{URL: e.url}.Do(e.t, http.MethodPost, "/api/v1/knowledge-agent/command", token, body)
	return r.Status, r.Body
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) (*sdk.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: want one text content, got %d", name, len(res.Content))
	}
	text := res.Content[0].(*sdk.TextContent).Text
	var fromText, structured map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %s", name, text)
	}
	js, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(js, &structured); err != nil {
		t.Fatalf("%s: structuredContent: %v", name, err)
	}
	if !jsonEqual(fromText, structured) {
		t.Fatalf("%s: text and structuredContent differ:\n%s\n%s", name, text, js)
	}
	return res, structured
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func errCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func TestMCPTools(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for _, rev := range revisions {
			t.Run(rev, func(t *testing.T) {
				cs := e.connect(e.aliceAPI, rev)
				if got := cs.InitializeResult().ProtocolVersion; got != rev {
					t.Fatalf("negotiated %s, want %s", got, rev)
				}
				lt, err := cs.ListTools(context.Background(), nil)
				if err != nil {
					t.Fatal(err)
				}
				schemas := map[string]*jsonschema.Resolved{}
				var names []string
				for _, tool := range lt.Tools {
					names = append(names, tool.Name)
					if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
						t.Errorf("%s: not annotated readOnlyHint", tool.Name)
					}
					in, _ := json.Marshal(tool.InputSchema)
					if !strings.Contains(string(in), `"uri"`) || !strings.Contains(string(in), `"required":["uri"`) {
						t.Errorf("%s: input schema %s", tool.Name, in)
					}
					out, _ := json.Marshal(tool.OutputSchema)
					var s jsonschema.Schema
					if err := json.Unmarshal(out, &s); err != nil {
						t.Fatalf("%s: output schema %s: %v", tool.Name, out, err)
					}
					if s.Type != "object" {
						t.Errorf("%s: output schema type %q %v, want \"object\"", tool.Name, s.Type, s.Types)
					}
					r, err := s.Resolve(nil)
					if err != nil {
						t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
					}
					schemas[tool.Name] = r
				}
				if strings.Join(names, ",") != "ls,read,search,status" {
					t.Fatalf("tools %v", names)
				}
				valid := func(name string, v map[string]any) {
					t.Helper()
					if err := schemas[name].Validate(v); err != nil {
						t.Errorf("%s result does not match its output schema: %v", name, err)
					}
				}

				// ls, paged by cursor; the very JSON the command endpoint answers.
				_, page1 := call(t, cs, "ls", map[string]any{"uri": "kb://me/", "limit": 1})
				valid("ls", page1)
				status, rest := e.command(e.alice, `{"command":"ls","uri":"kb://me/","limit":1}`)
				var restJSON map[string]any
				_ = json.Unmarshal(rest, &restJSON)
				if status != 200 || !jsonEqual(restJSON, page1) {
					t.Fatalf("ls differs from the command endpoint (%d):\n%s\n%v", status, rest, page1)
				}
				cursor, _ := page1["next_cursor"].(string)
				if cursor == "" {
					t.Fatalf("first page has no next_cursor: %v", page1)
				}
				_, page2 := call(t, cs, "ls", map[string]any{"uri": "kb://me/", "limit": 1, "cursor": cursor})
				i1, i2 := page1["items"].([]any), page2["items"].([]any)
				if len(i1) != 1 || len(i2) != 1 || jsonEqual(i1[0], i2[0]) {
					t.Fatalf("cursor did not move on: %v then %v", i1, i2)
				}

				// read, paged by offset.
				_, r1 := call(t, cs, "read", map[string]any{"uri": "kb://me/Welcome.md", "limit": 7})
				valid("read", r1)
				if r1["next_offset"] != float64(7) || len([]rune(r1["text"].(string))) != 7 {
					t.Fatalf("read page: %v", r1)
				}
				_, r2 := call(t, cs, "read", map[string]any{"uri": "kb://me/Welcome.md", "offset": 7, "limit": 7})
				if r2["prev_offset"] != float64(0) || r2["offset"] != float64(7) {
					t.Fatalf("second read page: %v", r2)
				}

				_, s := call(t, cs, "search", map[string]any{"uri": "kb://me/", "query": "welcome"})
				valid("search", s)
				if hits, _ := s["hits"].([]any); len(hits) == 0 {
					t.Fatalf("search found nothing: %v", s)
				}
				// MCP's clients are models: a question is searched by its
				// words, best files first, as the agent's is.
				_, q := call(t, cs, "search", map[string]any{"uri": "kb://me/", "query": "what does the tree on the left hold?"})
				valid("search", q)
				if hits, _ := q["hits"].([]any); q["mode"] != "ranked" || len(hits) == 0 {
					t.Fatalf("a question over MCP: %v", q)
				}
				_, st := call(t, cs, "status", map[string]any{"uri": "kb://me/"})
				valid("status", st)
				if _, ok := st["coverage"].(map[string]any); !ok {
					t.Fatalf("status: %v", st)
				}

				// Failures are tool results with our error object.
				for _, c := range []struct {
					tool string
					args map[string]any
					code string
				}{
					{"read", map[string]any{"uri": "kb://users/bob/Welcome.md"}, "not_found"},
					{"ls", map[string]any{"uri": "kb://me/no-such-folder/"}, "not_found"},
					{"read", map[string]any{"uri": "kb://me/Welcome.md", "limit": 0}, "invalid_arguments"},
					{"ls", map[string]any{"uri": "kb://me/", "bogus": 1}, "invalid_arguments"},
					{"ls", map[string]any{"uri": "kb://me/Welcome.md"}, "not_a_folder"},
				} {
					res, out := call(t, cs, c.tool, c.args)
					if !res.IsError || errCode(out) != c.code {
						t.Errorf("%s %v: isError %v, %v; want %s", c.tool, c.args, res.IsError, out, c.code)
					}
				}
				res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "rm", Arguments: map[string]any{"uri": "kb://me/"}})
				if err == nil && !res.IsError {
					t.Errorf("unknown tool answered %v", res)
				}
			})
		}
	})
}

func TestMCPResources(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for _, rev := range revisions {
			t.Run(rev, func(t *testing.T) {
				cs := e.connect(e.alice, rev)
				ctx := context.Background()
				var uris []string
				cursor, pages := "", 0
				for {
					res, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
					if err != nil {
						t.Fatal(err)
					}
					pages++
					if len(res.Resources) > 3 {
						t.Fatalf("page of %d resources, over the page size", len(res.Resources))
					}
					for _, r := range res.Resources {
						if !strings.HasPrefix(r.URI, "kb://users/alice/") || strings.HasSuffix(r.URI, "/") {
							t.Fatalf("listed %s", r.URI)
						}
						uris = append(uris, r.URI)
					}
					if res.NextCursor == "" {
						break
					}
					cursor = res.NextCursor
				}
				if pages < 2 || !contains(uris, "kb://users/alice/Welcome.md") {
					t.Fatalf("%d pages: %v", pages, uris)
				}
				seen := map[string]bool{}
				for _, u := range uris {
					if seen[u] {
						t.Fatalf("%s listed twice", u)
					}
					seen[u] = true
				}

				tpl, err := cs.ListResourceTemplates(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(tpl.ResourceTemplates) == 0 || tpl.ResourceTemplates[0].URITemplate != "kb://me/{+path}" {
					t.Fatalf("templates %+v", tpl.ResourceTemplates)
				}

				_, page := call(t, cs, "read", map[string]any{"uri": "kb://me/Welcome.md", "limit": 40})
				for _, u := range []string{"kb://me/Welcome.md", "kb://users/alice/Welcome.md"} {
					rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: u})
					if err != nil {
						t.Fatalf("read %s: %v", u, err)
					}
					if len(rr.Contents) != 1 || !strings.HasPrefix(rr.Contents[0].Text, page["text"].(string)) {
						t.Fatalf("read %s: %+v", u, rr.Contents)
					}
					if rr.CacheScope != "private" && rev >= "2026" {
						t.Errorf("read %s: cacheScope %q", u, rr.CacheScope)
					}
				}

				for _, u := range []string{"kb://users/bob/Welcome.md", "kb://me/no-such-file.md", "kb://users/alice/"} {
					rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: u})
					var we *jsonrpc.Error
					if err == nil || !errors.As(err, &we) || rr != nil {
						t.Fatalf("read %s: %+v, %v; want an error and no contents", u, rr, err)
					}
					if u != "kb://users/alice/" && (we.Code != jsonrpc.CodeInvalidParams || !strings.Contains(string(we.Data), `"code":"not_found"`)) {
						t.Errorf("read %s: %d %s %s", u, we.Code, we.Message, we.Data)
					}
				}
			})
		}
	})
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func post(t *testing.T, url, token, origin string) (*http.Response, map[string]any) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	if out == nil {
		out = map[string]any{"raw": string(raw)}
	}
	return res, out
}

func TestMCPAuthAndOrigin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for _, c := range []struct {
			name, token string
			code        string
		}{{"no token", "", "missing_token"}, {"bad token", "not-a-token", "invalid_token"}, {"bad api token", "ks_nope", ""}} {
			res, out := post(t, e.url+mcp.Path, c.token, "")
			if res.StatusCode != 401 || !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Bearer") || errCode(out) == "" ||
				(c.code != "" && errCode(out) != c.code) {
				t.Errorf("%s: %d %q %v", c.name, res.StatusCode, res.Header.Get("WWW-Authenticate"), out)
			}
			if strings.Contains(res.Header.Get("WWW-Authenticate"), "resource_metadata") {
				t.Errorf("%s: advertises OAuth metadata", c.name)
			}
		}
		res, out := post(t, e.url+mcp.Path, e.alice, "https://evil.example")
		if res.StatusCode != 403 || errCode(out) != "foreign_origin" {
			t.Errorf("foreign origin: %d %v", res.StatusCode, out)
		}
		res, out = post(t, e.url+mcp.Path, e.alice, e.url)
		if res.StatusCode != 200 || res.Header.Get("X-Accel-Buffering") != "no" || !strings.Contains(res.Header.Get("Cache-Control"), "no-cache") {
			t.Errorf("own origin: %d %v %v", res.StatusCode, res.Header, out)
		}
		// No OAuth discovery: the well-known documents are JSON 404s.
		r, err := http.Get(e.url + "/.well-known/oauth-protected-resource/mcp")
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != 404 {
			t.Errorf("oauth metadata: %d", r.StatusCode)
		}
	})
}

// A token scoped to one folder sees that folder and nothing else over MCP,
// whatever the spelling of the URI.
func TestMCPScopedToken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for _, rev := range revisions {
			t.Run(rev, func(t *testing.T) {
				cs := e.connect(e.aliceNotes, rev)
				ctx := context.Background()
				var uris []string
				for cursor := ""; ; {
					res, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range res.Resources {
						uris = append(uris, r.URI)
					}
					if cursor = res.NextCursor; cursor == "" {
						break
					}
				}
				if len(uris) == 0 {
					t.Fatal("a token scoped to notes/ lists no resource")
				}
				for _, u := range uris {
					if !strings.HasPrefix(u, "kb://users/alice/notes/") {
						t.Fatalf("a token scoped to notes/ lists %s", u)
					}
				}
				if rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uris[0]}); err != nil || len(rr.Contents) != 1 {
					t.Fatalf("read %s inside the scope: %v", uris[0], err)
				}
				outside := []string{"kb://users/alice/Welcome.md", "kb://users/alice/notes/../Welcome.md",
					"kb://users/alice/notes/%2E%2E/Welcome.md", "kb://users/bob/Welcome.md", "kb://users/bob/notes/"}
				for _, u := range outside {
					if rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: u}); err == nil || rr != nil {
						t.Errorf("read %s outside the scope: %+v", u, rr)
					}
				}
				for _, u := range append(outside, "kb://users/alice/data/") {
					tool := "read"
					if strings.HasSuffix(u, "/") {
						tool = "ls"
					}
					res, out := call(t, cs, tool, map[string]any{"uri": u})
					if !res.IsError || errCode(out) == "" {
						t.Errorf("%s %s outside the scope: %v", tool, u, out)
					}
				}
				// Search finds nothing outside the folder.
				_, out := call(t, cs, "search", map[string]any{"uri": "kb://me/", "query": "Welcome"})
				raw, _ := json.Marshal(out)
				if strings.Contains(string(raw), "kb://users/alice/Welcome.md") {
					t.Errorf("search with a scoped token found a file outside it: %s", raw)
				}
			})
		}
	})
}
