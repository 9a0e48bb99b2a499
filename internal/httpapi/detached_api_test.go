package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/turn"
)

// answerText is the deltas of events, joined.
func answerText(evs []stEvent) string {
	var b strings.Builder
	for _, e := range evs {
		if e.name == "delta" {
			b.WriteString(e.data["text"].(string))
		}
	}
	return b.String()
}

// TestDetachedTurnOutlivesItsClient: a detached turn runs on when its
// client leaves; following it again after the last event id seen gives
// exactly the rest, ending with the same done; the answer is stored whole;
// another user finds nothing.
func TestDetachedTurnOutlivesItsClient(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(400*time.Millisecond),
			fakellm.Data(fakellm.TextChunk(" second")), fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done()))
		ctx, leave := context.WithCancel(context.Background())
		resp := env.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"stay","detach":true}`)
		seen := stReadEvents(t, resp.Body, func(e stEvent) bool { return e.name != "delta" })
		leave()
		resp.Body.Close()
		if len(seen) < 2 || seen[0].name != "start" || seen[0].id != 1 || answerText(seen) != "first" {
			t.Fatalf("before leaving: %+v", seen)
		}
		msgID := int64(seen[0].data["message_id"].(float64))
		convID := int64(seen[0].data["conversation_id"].(float64))
		last := seen[len(seen)-1].id

		path := fmt.Sprintf("/api/v1/knowledge-agent/stream/%d", msgID)
		req := env.request(t, context.Background(), http.MethodGet, path, "alice", nil)
		req.Header.Set("Last-Event-ID", strconv.Itoa(last))
		rest := stReadEvents(t, env.send(t, req).Body, func(stEvent) bool { return true })
		if len(rest) == 0 || rest[0].id != last+1 || answerText(rest) != " second" || rest[len(rest)-1].name != "done" {
			t.Fatalf("after id %d: %+v", last, rest)
		}
		for i := 1; i < len(rest); i++ {
			if rest[i].id <= rest[i-1].id {
				t.Fatalf("ids out of order: %+v", rest)
			}
		}
		c := env.settled(t, "alice", convID)
		if a := c.Messages[len(c.Messages)-1]; a.Status != "complete" || a.Content != "first second" {
			t.Fatalf("stored answer %+v", a)
		}
		st, raw := env.call(t, "bob", http.MethodGet, path, "")
		wantCode(t, st, raw, http.StatusNotFound, "answer_not_running")
		// Read from the start once more: the whole answer, as sent.
		all := stReadEvents(t, env.send(t, env.request(t, context.Background(), http.MethodGet, path+"?after=0", "alice", nil)).Body, func(stEvent) bool { return true })
		if answerText(all) != "first second" || all[0].name != "start" {
			t.Fatalf("from the start: %+v", all)
		}
	})
}

// TestDetachedTurnStopsOnStopAndWhenUnwatched: Stop ends a detached turn at
// once (the provider's request is closed, the answer stored as stopped);
// one nobody follows ends after the detached timeout.
func TestDetachedTurnStopsOnStopAndWhenUnwatched(t *testing.T) {
	env := stSetup(t, "sqlite", func(d *Deps) {
		d.Turns = turn.New(d.Tree, d.Chat, 4)
		d.Turns.DetachedTimeout = 300 * time.Millisecond
	})
	slow := func() {
		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("thinking")), fakellm.Sleep(30*time.Second), fakellm.Done()))
	}
	start := func() (msgID, convID int64) {
		ctx, leave := context.WithCancel(context.Background())
		defer leave()
		resp := env.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`)
		defer resp.Body.Close()
		seen := stReadEvents(t, resp.Body, func(e stEvent) bool { return e.name != "delta" })
		return int64(seen[0].data["message_id"].(float64)), int64(seen[0].data["conversation_id"].(float64))
	}

	slow()
	msgID, convID := start()
	path := fmt.Sprintf("/api/v1/knowledge-agent/stream/%d", msgID)
	st, raw := env.call(t, "alice", http.MethodPost, path+"/stop", "")
	if st != http.StatusNoContent {
		t.Fatalf("stop: %d %s", st, raw)
	}
	// A client coming back after the stop reads how it ended.
	evs := stReadEvents(t, env.send(t, env.request(t, context.Background(), http.MethodGet, path, "alice", nil)).Body, func(stEvent) bool { return true })
	if last := evs[len(evs)-1]; last.name != "error" || last.data["code"] != "stopped" {
		t.Fatalf("a follower of a stopped turn: %+v", evs)
	}
	if a := env.settled(t, "alice", convID).Messages; a[len(a)-1].Status != "stopped" {
		t.Fatalf("stored after stop: %+v", a[len(a)-1])
	}
	select {
	case <-env.fake.Aborted():
	case <-time.After(5 * time.Second):
		t.Fatal("the provider's request was never closed")
	}

	slow()
	msgID, convID = start()
	a := env.settled(t, "alice", convID).Messages
	if last := a[len(a)-1]; last.Status != "stopped" || last.Error == nil || last.Error.Code != "stopped" || !strings.Contains(last.Error.Message, "turns.detached_timeout") {
		t.Fatalf("an unwatched turn after the timeout: %+v", last)
	}
	// A client coming back reads why it stopped.
	evs = env.resume(t, "alice", msgID, 0)
	if last := evs[len(evs)-1]; last.name != "error" || !strings.Contains(last.data["message"].(string), "turns.detached_timeout") {
		t.Fatalf("coming back to an unwatched turn: %+v", last)
	}
}

// TestConversationListMarksAnswering: while a detached turn writes its
// answer, the list names the message being written, so another tab can
// mark the conversation "answering…" and follow it; once it ends, no mark.
func TestConversationListMarksAnswering(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("slow")), fakellm.Sleep(500*time.Millisecond),
			fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done()))
		resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"mark","detach":true}`)
		seen := stReadEvents(t, resp.Body, func(e stEvent) bool { return e.name != "delta" })
		resp.Body.Close()
		msgID := int64(seen[0].data["message_id"].(float64))
		convID := int64(seen[0].data["conversation_id"].(float64))
		type item struct {
			ID        int64  `json:"id"`
			Answering *int64 `json:"answering_message_id"`
		}
		list := func(user string) []item {
			var page struct {
				Items []item `json:"items"`
			}
			env.mustCall(t, user, http.MethodGet, convPath, "", 200, &page)
			return page.Items
		}
		if got := list("alice"); len(got) != 1 || got[0].ID != convID || got[0].Answering == nil || *got[0].Answering != msgID {
			t.Fatalf("while answering: %+v", got)
		}
		env.settled(t, "alice", convID)
		if got := list("alice"); len(got) != 1 || got[0].Answering != nil {
			t.Fatalf("after the answer: %+v", got)
		}
	})
}
