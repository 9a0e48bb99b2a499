package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// enqueueFor makes a user with n files and enqueues a job for each.
func enqueueFor(t *testing.T, st *store.Store, name string, n int) int64 {
	t.Helper()
	ctx := context.Background()
	u := store.User{Username: name, PasswordHash: "x", Role: store.RoleUser}
	if err := st.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	root, err := st.EnsureRoot(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	cfg := `{"executor":"llm"}`
	for i := range n {
		node := store.Node{UserID: u.ID, ParentID: &root.ID, Name: fmt.Sprintf("f%03d.md", i), Kind: store.KindFile}
		node.Path = node.Name
		if err := st.CreateNode(ctx, &node); err != nil {
			t.Fatal(err)
		}
		id := node.ID
		j := store.Job{UserID: u.ID, Kind: "wiki_compile", NodeID: &id, Path: node.Path, OutputPath: "wiki",
			MaxAttempts: 1, ConfigurationJSON: &cfg, ConfigHash: "h"}
		if _, _, err := st.EnqueueJob(ctx, &j); err != nil {
			t.Fatal(err)
		}
	}
	return u.ID
}

// TestClaimRoundRobin measures fairness: alice queues 200 jobs, then bob
// queues one. With first-in-first-out claiming bob's job would be the
// 201st; round-robin claims it among the first jobs a free worker takes.
// Both one worker and two workers are checked, and alice's work alternates
// with carol's when both have many.
func TestClaimRoundRobin(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%d workers", workers), func(t *testing.T) {
				st, _ := storetest.Open(t, dialect)
				ctx := context.Background()
				alice := enqueueFor(t, st, "alice", 200)
				// The workers are busy with alice's jobs when bob arrives.
				var running []store.Job
				for w := 0; w < workers; w++ {
					j, err := st.ClaimJob(ctx, fmt.Sprint("w", w), time.Minute)
					if err != nil || j.UserID != alice {
						t.Fatalf("%+v %v", j, err)
					}
					running = append(running, j)
				}
				time.Sleep(5 * time.Millisecond)
				bob := enqueueFor(t, st, "bob", 1)
				// A worker finishes and claims again, until bob's job runs.
				for claims := 1; ; claims++ {
					done := running[0]
					running = running[1:]
					if err := st.CompleteJob(ctx, done.ID, done.LeaseOwner, "{}"); err != nil {
						t.Fatal(err)
					}
					j, err := st.ClaimJob(ctx, done.LeaseOwner, time.Minute)
					if err != nil {
						t.Fatal(err)
					}
					if j.UserID == bob {
						if claims > 1 {
							t.Fatalf("bob's job was claim %d after he queued it, want the next one", claims)
						}
						t.Logf("%s, %d workers: bob's job is claim %d after he queued it (FIFO: %d)", dialect, workers, claims, 201-workers)
						break
					}
					running = append(running, j)
				}
			})
		}
		t.Run("two busy users alternate", func(t *testing.T) {
			st, _ := storetest.Open(t, dialect)
			ctx := context.Background()
			alice := enqueueFor(t, st, "alice", 20)
			carol := enqueueFor(t, st, "carol", 20)
			var order []int64
			for range 10 {
				j, err := st.ClaimJob(ctx, "w", time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				order = append(order, j.UserID)
				if err := st.CompleteJob(ctx, j.ID, "w", "{}"); err != nil {
					t.Fatal(err)
				}
				time.Sleep(2 * time.Millisecond) // started_at must differ between claims
			}
			for i := 1; i < len(order); i++ {
				if order[i] == order[i-1] {
					t.Fatalf("claims %v do not alternate between alice %d and carol %d", order, alice, carol)
				}
			}
		})
	})
}

// TestDisableCancelsJobs: disabling a user ends the queued jobs and flags
// the running one for its worker.
func TestDisableCancelsJobs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		alice := enqueueFor(t, st, "alice", 3)
		run, err := st.ClaimJob(ctx, "w", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		yes := true
		if _, err := st.UpdateUser(ctx, alice, store.UserUpdate{Disabled: &yes}); err != nil {
			t.Fatal(err)
		}
		if n, _ := st.CountQueuedJobs(ctx, alice); n != 0 {
			t.Fatalf("%d jobs still queued", n)
		}
		if _, err := st.ClaimJob(ctx, "w2", time.Minute); err == nil {
			t.Fatal("a disabled user's job was claimed")
		}
		j, err := st.JobByID(ctx, alice, run.ID)
		if err != nil || !j.CancelRequested || j.State != store.JobRunning {
			t.Fatalf("running job %+v %v", j, err)
		}
	})
}
