package httpapi

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestStreamDatabaseLostAtTheEndOfATurn cuts the connection to PostgreSQL
// while the model answers, so the answer's final write meets a dead
// database: the stream must end in error, never done, and once the
// database is back the conversation must take the next question without a
// restart, the cut answer settled as failed.
func TestStreamDatabaseLostAtTheEndOfATurn(t *testing.T) {
	st, dir, link := storetest.OpenLinked(t)
	env := stSetupOn(t, apptest.NewStackOn(t, st, dir))
	var calls atomic.Int32
	env.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
		if calls.Add(1) == 1 {
			link.Cut()
		}
		return fakellm.TextStream("the first ", "answer")
	})

	evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"what is here?"}`)
	link.Restore()
	convID, _, firstAnswer := startIDs(t, evs)
	last := evs[len(evs)-1]
	for _, e := range evs {
		if e.name == "done" {
			t.Fatalf("the stream announced done for an answer it could not store: %s", stNames(evs))
		}
	}
	if last.name != "error" || last.data["code"] != "answer_not_saved" {
		t.Fatalf("stream ended with %s %v (%s), want error answer_not_saved", last.name, last.data, stNames(evs))
	}

	evs = env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"and now?"}`, convID))
	if got := stNames(evs); got != "start,context,delta,done" {
		t.Fatalf("next question after the database came back: %s %v", got, evs[len(evs)-1].data)
	}
	c := env.conversation(t, "alice", convID, "")
	if len(c.Messages) != 4 {
		t.Fatalf("conversation has %d messages, want 4: %+v", len(c.Messages), c.Messages)
	}
	cut, next := c.Messages[1], c.Messages[3]
	if cut.ID != firstAnswer || cut.Status != "failed" || cut.Error == nil || cut.Error.Code != "interrupted" || cut.Content != "the first answer" {
		t.Fatalf("the cut answer is stored as %+v, want failed interrupted with what was said", cut)
	}
	if next.Status != "complete" || next.Content != "the first answer" {
		t.Fatalf("the next answer is stored as %+v", next)
	}
}
