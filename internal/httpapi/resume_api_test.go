package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// resume reads GET stream/:id as user after the event id after (-1 sends
// no Last-Event-ID).
func (e *apiEnv) resume(t *testing.T, user string, msgID int64, after int) []stEvent {
	t.Helper()
	req := e.request(t, context.Background(), http.MethodGet, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d", msgID), user, nil)
	if after >= 0 {
		req.Header.Set("Last-Event-ID", fmt.Sprint(after))
	}
	resp := e.send(t, req)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resume %d: %d", msgID, resp.StatusCode)
	}
	return stReadEvents(t, resp.Body, nil)
}

// TestFinishedTurnAnswersWithItsStoredResult: a turn that ended (here one
// that never kept a journal) answers GET stream/:id with its stored
// message as events, ending in the same done or error; another user's
// answer, or one outside a scoped token's folder, is the same 404 as a
// missing one.
func TestFinishedTurnAnswersWithItsStoredResult(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		calls := 0
		env.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			calls++
			switch calls {
			case 1:
				return stToolCall("c1", "ls", `{"uri":"kb://me/"}`)
			case 2:
				return fakellm.TextStream("the notes ", "hold a plan")
			}
			return fakellm.HTTPError(400, "the model refused this request")
		})
		evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"what is here?"}`)
		conv, userMsg, msg := startIDs(t, evs)
		if evs[len(evs)-1].name != "done" {
			t.Fatalf("the turn: %s", stNames(evs))
		}
		got := env.resume(t, "alice", msg, -1)
		if names := stNames(got); names != "start,tool_call,tool_result,delta,done" {
			t.Fatalf("replayed %s: %+v", names, got)
		}
		for i, e := range got {
			if e.id != i+1 {
				t.Fatalf("event %d has id %d: %+v", i, e.id, got)
			}
		}
		if c, u, m := startIDs(t, got); c != conv || u != userMsg || m != msg || got[0].data["replay"] != true {
			t.Fatalf("replayed start %v", got[0].data)
		}
		if got[1].data["name"] != "ls" || got[2].data["ok"] != true || !strings.Contains(got[2].data["summary"].(string), "item") {
			t.Fatalf("tool card %v %v", got[1].data, got[2].data)
		}
		if answerText(got) != "the notes hold a plan" || answerText(got) != answerText(evs) {
			t.Fatalf("replayed text %q, streamed %q", answerText(got), answerText(evs))
		}
		if rest := env.resume(t, "alice", msg, 3); stNames(rest) != "delta,done" || rest[0].id != 4 {
			t.Fatalf("after 3: %+v", rest)
		}

		failed := env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"uri":"kb://me/","model_id":"fake","message":"again"}`, conv))
		_, _, failedMsg := startIDs(t, failed)
		end := failed[len(failed)-1]
		again := env.resume(t, "alice", failedMsg, -1)
		if last := again[len(again)-1]; end.name != "error" || last.name != "error" || last.data["code"] != end.data["code"] || last.data["message"] != end.data["message"] {
			t.Fatalf("streamed %+v, replayed %+v", end, again)
		}

		missing := func(user string, id int64) string {
			st, raw := env.call(t, user, http.MethodGet, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d", id), "")
			wantCode(t, st, raw, http.StatusNotFound, "answer_not_running")
			return strings.ReplaceAll(string(raw), fmt.Sprint(id), "ID")
		}
		none := missing("alice", msg+1000)
		if other := missing("bob", msg); other != none {
			t.Fatalf("another user's answer: %s, a missing one: %s", other, none)
		}
		if user := missing("alice", userMsg); user != none {
			t.Fatalf("a user message: %s", user)
		}
		env.expect(http.MethodPost, "/api/v1/resources/folders", "alice", map[string]any{"uri": "kb://me/elsewhere/"}, http.StatusCreated)
		var tok struct {
			Token string `json:"token"`
		}
		raw := env.expect(http.MethodPost, "/api/v1/auth/tokens", "alice", map[string]any{"name": "agent", "scope_uri": "kb://me/elsewhere/"}, http.StatusCreated)
		if err := json.Unmarshal(raw, &tok); err != nil {
			t.Fatal(err)
		}
		if scoped := missing(tok.Token, msg); scoped != none {
			t.Fatalf("outside the token's folder: %s", scoped)
		}
	})
}
