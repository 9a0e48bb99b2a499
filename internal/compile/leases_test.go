package compile

import (
	"context"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
)

// A pool running several jobs renews all their leases with one statement
// per heartbeat, and the leases move forward.
func TestLeaseRenewalIsOneStatementPerBeat(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.Heartbeat = 100 * time.Millisecond })
		ctx := context.Background()
		counter, err := e.st.CountStatements()
		if err != nil {
			t.Fatal(err)
		}
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a"), "b.md": []byte("b"), "c.md": []byte("c")})
		for range 3 {
			e.fake.Push(hang())
		}
		res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md", "kb://me/d/b.md", "kb://me/d/c.md"}})
		e.start(3)
		deadline := time.Now().Add(10 * time.Second)
		for e.chatCount() < 3 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if e.chatCount() < 3 {
			t.Fatalf("%d of 3 jobs reached the model", e.chatCount())
		}
		leaseOf := func() map[int64]time.Time {
			out := map[int64]time.Time{}
			for _, j := range res.Jobs {
				got, err := e.st.JobByID(ctx, e.alice.ID, j.ID)
				if err != nil || got.State != store.JobRunning || got.LeaseExpiresAt == nil {
					t.Fatalf("job %d: %+v %v", j.ID, got, err)
				}
				out[j.ID] = *got.LeaseExpiresAt
			}
			return out
		}
		first := leaseOf()
		before := counter.Matching("SET lease_expires_at")
		start := time.Now()
		time.Sleep(time.Second)
		renewals := counter.Matching("SET lease_expires_at") - before
		beats := int64(time.Since(start) / (100 * time.Millisecond))
		t.Logf("%s: %d lease renewal statements in %d heartbeats with 3 running jobs", dialect, renewals, beats)
		if renewals < beats-2 || renewals > beats+1 {
			t.Fatalf("%d renewal statements in %d heartbeats for 3 jobs, want one per heartbeat", renewals, beats)
		}
		for id, at := range leaseOf() {
			if !at.After(first[id]) {
				t.Fatalf("job %d's lease did not move: %v then %v", id, first[id], at)
			}
		}
		// A cancel still reaches the job through the shared heartbeat.
		if _, err := e.svc.Cancel(ctx, e.alice, res.Jobs[0].ID); err != nil {
			t.Fatal(err)
		}
		e.wait(e.alice, res.Jobs[0].ID, store.JobCancelled)
	})
}
