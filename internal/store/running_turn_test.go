package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestInterruptSparesLiveReplicasTurns: a replica starting marks the
// answers no live replica runs (none recorded, or a lease not renewed) and
// leaves another replica's live turn streaming; the sweep marks only the
// turns whose lease ran out.
func TestInterruptSparesLiveReplicasTurns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		u := store.User{Username: "alice", PasswordHash: "h", Role: store.RoleUser}
		if err := st.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		c := store.Conversation{UserID: u.ID, URI: "kb://users/alice/", Title: "t"}
		if err := st.CreateConversation(ctx, &c); err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		answer := func(slot int, replica string, beat time.Time) int64 {
			m := store.ConversationMessage{ConversationID: c.ID, Slot: slot, Role: "assistant", Status: store.MessageStreaming}
			if err := st.AddMessage(ctx, &m); err != nil {
				t.Fatal(err)
			}
			if replica != "" {
				if err := st.BeginRunningTurn(ctx, store.RunningTurn{MessageID: m.ID, UserID: u.ID, ConversationID: c.ID,
					Replica: replica, Beat: store.Millis(beat)}); err != nil {
					t.Fatal(err)
				}
			}
			return m.ID
		}
		unrecorded := answer(1, "", now)
		live := answer(3, "b", now)
		gone := answer(5, "c", now.Add(-time.Minute))
		lateStale := answer(7, "d", now.Add(-time.Minute))
		status := func(id int64) string {
			m, err := st.MessageOnly(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return m.Status
		}
		if n, err := st.InterruptStale(ctx, "gone", now.Add(-2*time.Minute)); err != nil || n != 0 {
			t.Fatalf("sweep before any lease ran out: %d %v", n, err)
		}
		n, err := st.InterruptStreaming(ctx, "restarted", now.Add(-30*time.Second))
		if err != nil || n != 3 {
			t.Fatalf("interrupt: %d %v", n, err)
		}
		for id, want := range map[int64]string{unrecorded: "failed", live: "streaming", gone: "failed", lateStale: "failed"} {
			if got := status(id); got != want {
				t.Errorf("message %d: %s, want %s", id, got, want)
			}
		}
		// The live replica stops renewing: the sweep marks its turn.
		if n, err := st.InterruptStale(ctx, "gone", time.Now().Add(time.Second)); err != nil || n != 1 || status(live) != "failed" {
			t.Fatalf("sweep: %d %v %s", n, err, status(live))
		}
		if r, err := st.RunningTurnOf(ctx, live); err != nil || r.Ended == 0 {
			t.Fatalf("the swept turn's row: %+v %v", r, err)
		}
	})
}
