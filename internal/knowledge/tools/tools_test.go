package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// toolEnv is a real store and blob store with two users, alice and bob.
type toolEnv struct {
	t          testing.TB
	tree       *Service
	st         *store.Store
	blobs      *blob.Store
	alice, bob kb.Caller
}

func newToolEnv(t testing.TB, dialect string) *toolEnv {
	t.Helper()
	st, dir := storetest.Open(t, dialect)
	blobs, err := blob.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := &toolEnv{t: t, tree: New(knowledge.NewTree(st, blobs, 256<<20)), st: st, blobs: blobs}
	for _, name := range []string{"alice", "bob"} {
		u := store.User{Username: name, PasswordHash: "x", Role: store.RoleUser}
		if err := st.CreateUser(context.Background(), &u); err != nil {
			t.Fatal(err)
		}
		c := kb.Caller{ID: u.ID, Username: name}
		if name == "alice" {
			e.alice = c
		} else {
			e.bob = c
		}
	}
	return e
}

func (e *toolEnv) mkdir(c kb.Caller, uri string) { apptest.Mkdir(e.t, e.tree.Tree, c, uri) }

// put uploads content as the file name in folder (created when missing).
func (e *toolEnv) put(c kb.Caller, folder, name string, content []byte) string {
	return apptest.Put(e.t, e.tree.Tree, c, folder, name, content)
}

// putL2 stores text as the parsed body of an existing file.
func (e *toolEnv) putL2(c kb.Caller, uri, text string) {
	e.t.Helper()
	ctx := context.Background()
	_, n, err := e.tree.Resolve(ctx, c, uri)
	if err != nil {
		e.t.Fatal(err)
	}
	p, err := e.blobs.Put(strings.NewReader(text), 1<<30)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		e.t.Fatal(err)
	}
	v := store.FileVersion{NodeID: n.ID, Body: store.BodyL2, BlobHash: p.Hash, Size: p.Size, IsText: true, CharCount: p.Chars, MediaType: "text/plain"}
	if err := e.st.AddVersion(ctx, &v); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.tree.MarkForIndex(ctx, e.st, n.ID); err != nil {
		e.t.Fatal(err)
	}
}

func toolArgsJSON(t testing.TB, args any) json.RawMessage {
	if raw, ok := args.(string); ok {
		return json.RawMessage(raw)
	}
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *toolEnv) run(c kb.Caller, scope, tool string, args any) (ToolResult, error) {
	return e.tree.RunScopedTool(context.Background(), c, kb.Scope{URI: scope}, tool, toolArgsJSON(e.t, args))
}

func (e *toolEnv) mustRun(c kb.Caller, scope, tool string, args any) ToolResult {
	e.t.Helper()
	res, err := e.run(c, scope, tool, args)
	if err != nil {
		e.t.Fatalf("%s %v in %s: %v", tool, args, scope, err)
	}
	if len(res.JSON) > MaxToolResultBytes || !json.Valid(res.JSON) {
		e.t.Fatalf("%s: result JSON invalid or too large (%d bytes)", tool, len(res.JSON))
	}
	return res
}

// wantToolErr checks err is an API error with code whose message holds
// every fragment.
func wantToolErr(t testing.TB, err error, code string, fragments ...string) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("got error %v, want code %s", err, code)
	}
	if e.Code.String() != code {
		t.Fatalf("got code %s (%s), want %s", e.Code, e.Message, code)
	}
	for _, f := range fragments {
		if !strings.Contains(e.Message, f) {
			t.Fatalf("message %q lacks %q", e.Message, f)
		}
	}
}

func TestToolsDescribeSchemas(t *testing.T) {
	tools := New(&knowledge.Tree{}).Tools()
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s has no description", tool.Name)
		}
		var schema struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(tool.Schema, &schema); err != nil {
			t.Fatalf("%s schema: %v", tool.Name, err)
		}
		if schema.Type != "object" || schema.AdditionalProperties == nil || *schema.AdditionalProperties {
			t.Errorf("%s schema must be a closed object: %s", tool.Name, tool.Schema)
		}
		if !slices.Contains(schema.Required, "uri") {
			t.Errorf("%s schema does not require uri", tool.Name)
		}
		for _, r := range schema.Required {
			if _, ok := schema.Properties[r]; !ok {
				t.Errorf("%s requires undeclared %s", tool.Name, r)
			}
		}
	}
	if !slices.Equal(names, []string{"ls", "read", "search", "status"}) {
		t.Fatalf("tools %v", names)
	}
	read := string(tools[1].Schema)
	if !strings.Contains(read, `"maximum":6000`) || !strings.Contains(read, `"minimum":1`) {
		t.Errorf("read schema lacks its limit bounds: %s", read)
	}
	if !strings.Contains(string(tools[2].Schema), `"required":["uri","query"]`) {
		t.Errorf("search schema: %s", tools[2].Schema)
	}
}

func TestRunToolUnknownTool(t *testing.T) {
	e := newToolEnv(t, store.DialectSQLite)
	_, err := e.run(e.alice, "kb://me/", "shell", `{"uri":"kb://me/"}`)
	wantToolErr(t, err, "unknown_tool", `"shell"`, "ls, read, search, status")
}

// A page of 6000 control characters escapes to 36 KB of JSON: the ceiling
// answers with an explicit error, never a shortened page.
func TestToolResultCeiling(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		uri := e.put(e.alice, "kb://me/d/", "ctl.txt", bytes.Repeat([]byte{0x01}, 7000))
		_, err := e.run(e.alice, "kb://me/d/", "read", map[string]any{"uri": uri, "limit": 6000})
		wantToolErr(t, err, "result_too_large", "32768-byte limit", "smaller limit")
		res := e.mustRun(e.alice, "kb://me/d/", "read", map[string]any{"uri": uri, "limit": 4000})
		if got := res.Value.(*ReadResult).Text; len(got) != 4000 {
			t.Fatalf("read %d bytes", len(got))
		}
	})
}

func TestRunCommand(t *testing.T) {
	e := newToolEnv(t, store.DialectSQLite)
	e.put(e.alice, "kb://me/notes/", "a.md", []byte("hello"))
	ctx := context.Background()
	res, err := e.tree.RunCommand(ctx, e.alice, []byte(`{"command":"read","uri":"kb://me/notes/a.md","limit":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.JSON) == "" || res.Value.(*ReadResult).Text != "he" {
		t.Fatalf("read command: %s", res.JSON)
	}
	cases := []struct {
		body, code, fragment string
	}{
		{`{"uri":"kb://me/"}`, "invalid_arguments", "command is required"},
		{`{"command":1,"uri":"kb://me/"}`, "invalid_arguments", "command must be a string"},
		{`{"command":"rm","uri":"kb://me/"}`, "unknown_command", `"rm"`},
		{`{"command":"ls"}`, "invalid_arguments", `needs the argument "uri"`},
		{`{"command":"ls","uri":"kb://me/","query":"x"}`, "invalid_arguments", `ls has no argument "query"`},
		{`{"command":"ls","command":"read","uri":"kb://me/"}`, "invalid_arguments", `"command" is given twice`},
		{`[1]`, "invalid_arguments", "JSON object"},
		{`{"command":"ls","uri":"kb://users/bob/"}`, "not_found", "kb://users/bob/"},
	}
	for _, tc := range cases {
		_, err := e.tree.RunCommand(ctx, e.alice, []byte(tc.body))
		wantToolErr(t, err, tc.code, tc.fragment)
	}
}
