package httpapi

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/share"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func stToolCall(id, name, args string) fakellm.Response {
	return fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.ToolCallStart(0, id, name, args)),
		fakellm.Data(fakellm.FinishChunk("tool_calls")), fakellm.Done())
}

// TestStreamRevokedShareEndsTurn: a turn scoped to a folder shared with the
// caller reads it; the owner revokes the share between two tool calls and
// the next call fails, ending the turn as an error, never done.
func TestStreamRevokedShareEndsTurn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		ctx := context.Background()
		st, tree := env.stack.Store, env.stack.Tree
		u, err := st.UserByUsername(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		alice := kb.Caller{ID: u.ID, Username: u.Username}
		sh, err := share.New(tree).Share(ctx, alice, share.Request{URI: "kb://me/notes/", User: "bob", Role: "read"})
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		env.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			calls++
			switch calls {
			case 1:
				return stToolCall("c1", "ls", `{"uri":"kb://users/alice/notes/"}`)
			case 2:
				if err := share.New(tree).Unshare(ctx, alice, sh.ID); err != nil {
					t.Error(err)
				}
				return stToolCall("c2", "read", `{"uri":"kb://users/alice/notes/research-plan.md"}`)
			}
			return fakellm.TextStream("this answer must never be asked for")
		})
		resp := env.post(ctx, t, "bob", "/api/v1/knowledge-agent/stream",
			`{"uri":"kb://users/alice/notes/","model_id":"fake","message":"what is in alice's notes?"}`)
		defer resp.Body.Close()
		evs := stReadEvents(t, resp.Body, nil)
		if got := stNames(evs); got != "start,context,tool_call,tool_result,context,tool_call,tool_result,error" {
			t.Fatalf("events %s", got)
		}
		if first := evs[3].data; first["ok"] != true || !strings.Contains(first["summary"].(string), "items") {
			t.Fatalf("the shared folder was not listed: %v", first)
		}
		if second := evs[6].data; second["ok"] != false || !strings.Contains(second["error"].(string), "no longer visible") {
			t.Fatalf("the call after the revoke: %v", second)
		}
		last := evs[len(evs)-1].data
		if last["code"] != "scope_not_found" || !strings.Contains(last["message"].(string), "stopped sharing it") {
			t.Fatalf("error event %v", last)
		}
		if calls != 2 {
			t.Fatalf("the model was asked %d times; the turn must end at the failed call", calls)
		}
	})
}
