package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// cmdEnv is the env with two users for the command endpoint, alice and
// bob; each gets the sample tree on creation.
type cmdEnv struct {
	*env
	alice, bob     string // session tokens
	aliceID, bobID int64
}

func newCmdEnv(t *testing.T, dialect string) *cmdEnv {
	t.Helper()
	e := &cmdEnv{env: newEnv(t, dialect)}
	alice, aliceTok := e.newUser("alice")
	bob, bobTok := e.newUser("bob")
	e.alice, e.aliceID, e.bob, e.bobID = aliceTok, alice.ID, bobTok, bob.ID
	return e
}

func (e *cmdEnv) command(token, body string) (int, map[string]any) {
	e.t.Helper()
	r := e.do(http.MethodPost, "/api/v1/knowledge-agent/command", token, body)
	var out map[string]any
	if err := json.Unmarshal(r.Body, &out); err != nil {
		e.t.Fatalf("status %d, body not JSON: %s", r.Status, r.Body)
	}
	return r.Status, out
}

func cmdErrCode(out map[string]any) string {
	if e, ok := out["error"].(map[string]any); ok {
		code, _ := e["code"].(string)
		return code
	}
	return ""
}

func TestCommandEndpoint(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newCmdEnv(t, dialect)
		cases := []struct {
			name   string
			token  string
			body   string
			status int
			code   string         // error code, when status is not 200
			fields map[string]any // expected top-level values
			keys   []string       // fields that must be present
		}{
			{"ls root", e.alice, `{"command":"ls","uri":"kb://me/"}`, 200, "",
				map[string]any{"uri": "kb://users/alice/", "next_offset": nil}, []string{"items"}},
			{"ls paged", e.alice, `{"command":"ls","uri":"kb://me/","offset":1,"limit":1}`, 200, "",
				map[string]any{"next_offset": float64(2)}, []string{"items"}},
			{"read", e.alice, `{"command":"read","uri":"kb://me/Welcome.md","limit":7}`, 200, "",
				map[string]any{"offset": float64(0), "limit": float64(7), "body": "raw", "next_offset": float64(7)}, []string{"text", "total", "prev_offset"}},
			{"search", e.alice, `{"command":"search","uri":"kb://users/","query":"knowspace"}`, 200, "",
				map[string]any{"complete": true, "next_offset": nil, "query": "knowspace"}, []string{"hits", "scanned", "matched_files"}},
			{"status", e.alice, `{"command":"status","uri":"kb://me/notes/"}`, 200, "",
				map[string]any{"uri": "kb://users/alice/notes/", "jobs": []any{}}, []string{"note"}},
			{"no token", "", `{"command":"ls","uri":"kb://me/"}`, 401, "missing_token", nil, nil},
			{"unknown command", e.alice, `{"command":"rm","uri":"kb://me/"}`, 400, "unknown_command", nil, nil},
			{"missing command", e.alice, `{"uri":"kb://me/"}`, 400, "invalid_arguments", nil, nil},
			{"missing uri", e.alice, `{"command":"ls"}`, 400, "invalid_arguments", nil, nil},
			{"extra field", e.alice, `{"command":"read","uri":"kb://me/Welcome.md","query":"x"}`, 400, "invalid_arguments", nil, nil},
			{"limit 0", e.alice, `{"command":"read","uri":"kb://me/Welcome.md","limit":0}`, 400, "invalid_arguments", nil, nil},
			{"limit 6001", e.alice, `{"command":"read","uri":"kb://me/Welcome.md","limit":6001}`, 400, "invalid_arguments", nil, nil},
			{"search with 16 \"**\"", e.alice, `{"command":"search","uri":"kb://me/","query":"x","path":"` + strings.Repeat("**/", 16) + `zz"}`, 400, "invalid_arguments", nil, nil},
			{"search numeric offset", e.alice, `{"command":"search","uri":"kb://me/","query":"x","offset":3}`, 400, "invalid_arguments", nil, nil},
			{"other user's folder", e.alice, `{"command":"ls","uri":"kb://users/bob/notes/"}`, 404, "not_found", nil, nil},
			{"other user's missing path", e.alice, `{"command":"ls","uri":"kb://users/bob/nothing/"}`, 404, "not_found", nil, nil},
			{"dot segments", e.alice, `{"command":"read","uri":"kb://me/notes/../Welcome.md"}`, 400, "invalid_uri", nil, nil},
			{"ls a file", e.alice, `{"command":"ls","uri":"kb://me/Welcome.md"}`, 400, "not_a_folder", nil, nil},
			{"not JSON", e.alice, `{"command":`, 400, "invalid_arguments", nil, nil},
			{"body too large", e.alice, `{"command":"search","uri":"kb://me/","query":"` + strings.Repeat("x", 70<<10) + `"}`, 413, "body_too_large", nil, nil},
		}
		// These break the OpenAPI document on purpose.
		outside := map[string]bool{"unknown command": true, "missing command": true, "missing uri": true, "extra field": true,
			"limit 0": true, "limit 6001": true, "search numeric offset": true, "not JSON": true}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				e.skip.Store(outside[tc.name])
				status, out := e.command(tc.token, tc.body)
				if status != tc.status {
					t.Fatalf("status %d, want %d: %v", status, tc.status, out)
				}
				if tc.code != "" && cmdErrCode(out) != tc.code {
					t.Fatalf("code %q, want %q: %v", cmdErrCode(out), tc.code, out)
				}
				for k, want := range tc.fields {
					if got, ok := out[k]; !ok || !jsonEqual(got, want) {
						t.Errorf("%s = %#v, want %#v", k, got, want)
					}
				}
				for _, k := range tc.keys {
					if _, ok := out[k]; !ok {
						t.Errorf("missing %s in %v", k, out)
					}
				}
			})
		}
	})
}

func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

// The command endpoint and the tool share one implementation: the same
// call gives the same bytes.
func TestCommandMatchesTool(t *testing.T) {
	e := newCmdEnv(t, "sqlite")
	_, out := e.command(e.alice, `{"command":"search","uri":"kb://me/notes/","query":"会议"}`)
	res, err := tools.New(e.Tree).RunScopedTool(context.Background(), kb.Caller{ID: e.aliceID, Username: "alice"},
		kb.Scope{URI: "kb://me/notes/"}, "search", json.RawMessage(`{"uri":"kb://me/notes/","query":"会议"}`))
	if err != nil {
		t.Fatal(err)
	}
	var fromTool map[string]any
	if err := json.Unmarshal(res.JSON, &fromTool); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(out, fromTool) {
		t.Fatalf("command %v\ntool    %v", out, fromTool)
	}
	if hits, _ := out["hits"].([]any); len(hits) == 0 {
		t.Fatalf("no hits for 会议 in the sample notes: %v", out)
	}
}
