package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/turn"
)

// TestDetachedTurnBeyondItsJournalResumesFromTheTable: a turn whose events
// outgrow the memory kept for it is still read whole from the start, and
// from any id, exactly once: what memory dropped comes from the table.
func TestDetachedTurnBeyondItsJournalResumesFromTheTable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect, func(d *Deps) {
			d.Turns = turn.New(d.Tree, d.Chat, 4)
			d.Turns.JournalBytes = 2 << 10
		})
		var want strings.Builder
		steps := []fakellm.Step{fakellm.Data(fakellm.RoleChunk())}
		for i := range 400 {
			w := fmt.Sprintf("w%03d ", i)
			want.WriteString(w)
			steps = append(steps, fakellm.Data(fakellm.TextChunk(w)))
			if i%100 == 99 {
				steps = append(steps, fakellm.Sleep(150*time.Millisecond))
			}
		}
		env.fake.Push(fakellm.Stream(append(steps, fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done())...))
		seen := env.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"many","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
		conv, _, msg := startIDs(t, seen)
		last := seen[len(seen)-1].id
		// Resumed while it runs (most of it already out of memory), then
		// read from the start and from the middle once it ended.
		rest := env.resume(t, "alice", msg, last)
		ascending(t, rest, last+1)
		if got := answerText(seen) + answerText(rest); got != want.String() || rest[len(rest)-1].name != "done" {
			t.Fatalf("resumed after %d: %d bytes of %d, ends %s", last, len(got), want.Len(), rest[len(rest)-1].name)
		}
		all := env.resume(t, "alice", msg, 0)
		ascending(t, all, 1)
		if answerText(all) != want.String() || all[0].name != "start" {
			t.Fatalf("from the start: %d bytes of %d", len(answerText(all)), want.Len())
		}
		mid := env.resume(t, "alice", msg, 200)
		if !strings.HasSuffix(want.String(), answerText(mid)) || !strings.HasPrefix(answerText(mid), "w") || mid[0].id <= 200 {
			t.Fatalf("from 200: %+v", mid[0])
		}
		if m := env.settled(t, "alice", conv).Messages; m[len(m)-1].Content != want.String() {
			t.Fatalf("stored %d bytes", len(m[len(m)-1].Content))
		}
	})
}

// TestDetachedTurnsCountAgainstTheStreamLimit: turns whose clients left
// still count as the user's open streams until they end.
func TestDetachedTurnsCountAgainstTheStreamLimit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect, func(d *Deps) { d.Turns = turn.New(d.Tree, d.Chat, 2) })
		var msgs []int64
		for range 2 {
			env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("busy")), fakellm.Sleep(30*time.Second), fakellm.Done()))
			seen := env.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
			_, _, msg := startIDs(t, seen)
			msgs = append(msgs, msg)
		}
		st, raw := env.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"third","detach":true}`)
		wantCode(t, st, raw, http.StatusTooManyRequests, "too_many_streams")
		env.expect(http.MethodPost, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d/stop", msgs[0]), "alice", nil, http.StatusNoContent)
		deadline := time.Now().Add(5 * time.Second)
		for {
			env.fake.Push(fakellm.TextStream("free again"))
			resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"third"}`)
			if resp.StatusCode == http.StatusOK {
				evs := stReadEvents(t, resp.Body, nil)
				resp.Body.Close()
				if answerText(evs) != "free again" {
					t.Fatalf("after a stop: %+v", evs)
				}
				break
			}
			resp.Body.Close()
			if time.Now().After(deadline) {
				t.Fatalf("a stopped turn still counts: %d", resp.StatusCode)
			}
			time.Sleep(20 * time.Millisecond)
		}
		env.expect(http.MethodPost, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d/stop", msgs[1]), "alice", nil, http.StatusNoContent)
	})
}

// TestStreamLimitCountsEveryReplica: a user's detached turns on one
// replica count against a turn asked of the other.
func TestStreamLimitCountsEveryReplica(t *testing.T) {
	a, b := twoReplicas(t, func(d *Deps) { d.Turns = turn.New(d.Tree, d.Chat, 2) })
	var msgs []int64
	for range 2 {
		a.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("busy")), fakellm.Sleep(30*time.Second), fakellm.Done()))
		seen := a.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
		_, _, msg := startIDs(t, seen)
		msgs = append(msgs, msg)
	}
	st, raw := b.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"third"}`)
	wantCode(t, st, raw, http.StatusTooManyRequests, "too_many_streams")
	for _, m := range msgs {
		b.expect(http.MethodPost, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d/stop", m), "alice", nil, http.StatusNoContent)
	}
}

// TestDetachedTurnFailedUpstreamResumesIntoItsError: a detached turn the
// provider failed resumes, while its events are kept, into the very error.
func TestDetachedTurnFailedUpstreamResumesIntoItsError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("partial")), fakellm.Sleep(100*time.Millisecond), fakellm.Reset()))
		seen := env.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
		conv, _, msg := startIDs(t, seen)
		all := env.resume(t, "alice", msg, 0)
		end := all[len(all)-1]
		if end.name != "error" || answerText(all) != "partial" {
			t.Fatalf("the failed turn: %+v", all)
		}
		again := env.resume(t, "alice", msg, seen[len(seen)-1].id)
		if last := again[len(again)-1]; last.id != end.id || last.data["code"] != end.data["code"] || last.data["message"] != end.data["message"] {
			t.Fatalf("resumed %+v, first %+v", last, end)
		}
		if m := env.settled(t, "alice", conv).Messages; m[len(m)-1].Status != "failed" || m[len(m)-1].Error.Code != end.data["code"] {
			t.Fatalf("stored %+v", m[len(m)-1])
		}
	})
}

// TestFollowingATurnWhoseReplicaIsGone: a detached turn recorded by a
// replica that stopped renewing its lease, with some events written: a
// follower reads them, then ends with error interrupted instead of waiting
// for ever.
func TestFollowingATurnWhoseReplicaIsGone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		ctx := context.Background()
		conv, _, _ := startIDs(t, env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"first"}`))
		u, err := env.stack.Store.UserByUsername(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		st := env.stack.Store
		begun, err := newChatService(env).Begin(ctx, callerOf(u), chatTurn(conv, "then?"))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.BeginRunningTurn(ctx, store.RunningTurn{MessageID: begun.MessageID, UserID: u.ID, ConversationID: conv,
			Replica: "gone", Detached: true, Beat: store.Millis(time.Now().Add(-time.Hour))}); err != nil {
			t.Fatal(err)
		}
		if err := st.AppendTurnEvents(ctx, []store.TurnEvent{{MessageID: begun.MessageID, ID: 1, Name: "start",
			Data: fmt.Sprintf(`{"turn_id":"t","model_id":"fake","uri":"kb://users/alice/","mode":"native_tools","limits":{"max_steps":1,"max_tool_calls":1,"max_model_calls":1},"message_id":%d}`, begun.MessageID)},
			{MessageID: begun.MessageID, ID: 2, Name: "delta", Data: `{"text":"half an ans"}`}}); err != nil {
			t.Fatal(err)
		}
		done := make(chan []stEvent, 1)
		go func() { done <- env.resumeQuiet(begun.MessageID, 0) }()
		select {
		case evs := <-done:
			if stNames(evs) != "start,delta,error" || answerText(evs) != "half an ans" || evs[2].data["code"] != "interrupted" || evs[2].id != 3 {
				t.Fatalf("following a turn whose replica is gone: %+v", evs)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the follower waited on a turn whose replica is gone")
		}
	})
}
