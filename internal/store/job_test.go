package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// jobFixture makes a user with n files and returns a job template per file.
func jobFixture(t *testing.T, st *store.Store, n int) (int64, []store.Job) {
	t.Helper()
	ctx := context.Background()
	u := store.User{Username: "alice", PasswordHash: "x", Role: store.RoleUser}
	if err := st.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	root, err := st.EnsureRoot(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	cfg := `{"executor":"llm"}`
	var out []store.Job
	for i := range n {
		node := store.Node{UserID: u.ID, ParentID: &root.ID, Name: fmt.Sprintf("f%03d.md", i), Kind: store.KindFile}
		node.Path = node.Name
		if err := st.CreateNode(ctx, &node); err != nil {
			t.Fatal(err)
		}
		id := node.ID
		out = append(out, store.Job{UserID: u.ID, Kind: "wiki_compile", NodeID: &id, Path: node.Path,
			OutputPath: "wiki", MaxAttempts: 2, ConfigurationJSON: &cfg, ConfigHash: "h"})
	}
	return u.ID, out
}

func TestJobEnqueueReturnsActiveJob(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		_, jobs := jobFixture(t, st, 1)
		first, created, err := st.EnqueueJob(ctx, &jobs[0])
		if err != nil || !created || first.State != store.JobQueued || first.ConfigurationJSON == nil {
			t.Fatalf("%+v %v %v", first, created, err)
		}
		again := jobs[0]
		got, created, err := st.EnqueueJob(ctx, &again)
		if err != nil || created || got.ID != first.ID {
			t.Fatalf("second enqueue: %+v %v %v", got, created, err)
		}
		// Concurrent identical requests create exactly one job.
		_, more := jobFixture2(t, st, jobs[0].UserID)
		var wg sync.WaitGroup
		ids := make(chan int64, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				j := more
				got, _, err := st.EnqueueJob(ctx, &j)
				if err != nil {
					t.Error(err)
					return
				}
				ids <- got.ID
			}()
		}
		wg.Wait()
		close(ids)
		seen := map[int64]bool{}
		for id := range ids {
			seen[id] = true
		}
		if len(seen) != 1 {
			t.Fatalf("concurrent enqueues made %d jobs", len(seen))
		}
	})
}

func jobFixture2(t *testing.T, st *store.Store, userID int64) (int64, store.Job) {
	t.Helper()
	ctx := context.Background()
	root, _ := st.EnsureRoot(ctx, userID)
	node := store.Node{UserID: userID, ParentID: &root.ID, Name: "other.md", Path: "other.md", Kind: store.KindFile}
	if err := st.CreateNode(ctx, &node); err != nil {
		t.Fatal(err)
	}
	id := node.ID
	return id, store.Job{UserID: userID, Kind: "wiki_compile", NodeID: &id, Path: node.Path, MaxAttempts: 1}
}

func TestJobConcurrentClaimsNeverOverlap(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		_, jobs := jobFixture(t, st, 200)
		for i := range jobs {
			if _, _, err := st.EnqueueJob(ctx, &jobs[i]); err != nil {
				t.Fatal(err)
			}
		}
		var mu sync.Mutex
		claimed := map[int64]string{}
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprintf("w%d", w)
				for {
					j, err := st.ClaimJob(ctx, owner, time.Minute)
					if errors.Is(err, store.ErrNotFound) {
						return
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					if prev, dup := claimed[j.ID]; dup {
						t.Errorf("job %d claimed by %s and %s", j.ID, prev, owner)
					}
					claimed[j.ID] = owner
					mu.Unlock()
					if j.State != store.JobRunning || j.LeaseOwner != owner || j.Attempts != 1 {
						t.Errorf("claimed row %+v", j)
					}
					if err := st.CompleteJob(ctx, j.ID, owner, `{}`); err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		if len(claimed) != 200 {
			t.Fatalf("claimed %d of 200", len(claimed))
		}
	})
}

func TestJobLeaseExpiryRequeuesAndBoundsAttempts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		uid, jobs := jobFixture(t, st, 1)
		j, _, _ := st.EnqueueJob(ctx, &jobs[0])
		if _, err := st.ClaimJob(ctx, "dead", 50*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if _, err := st.ClaimJob(ctx, "other", time.Minute); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("a leased job was claimed twice: %v", err)
		}
		time.Sleep(80 * time.Millisecond)
		if n, err := st.RequeueExpired(ctx); err != nil || n != 1 {
			t.Fatalf("requeue: %d %v", n, err)
		}
		// The crashed worker's late writes are refused.
		if err := st.CompleteJob(ctx, j.ID, "dead", `{}`); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("late complete: %v", err)
		}
		if _, err := st.RenewLease(ctx, j.ID, "dead", time.Minute); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("late renew: %v", err)
		}
		got, _ := st.JobByID(ctx, uid, j.ID)
		if got.State != store.JobQueued || got.ErrorCode != "lease_expired" {
			t.Fatalf("after requeue %+v", got)
		}
		// Second and last attempt also dies: the job fails, never loops.
		if _, err := st.ClaimJob(ctx, "dead2", 10*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
		if _, err := st.RequeueExpired(ctx); err != nil {
			t.Fatal(err)
		}
		got, _ = st.JobByID(ctx, uid, j.ID)
		if got.State != store.JobFailed || got.Attempts != 2 {
			t.Fatalf("after last attempt %+v", got)
		}
	})
}

func TestJobFailRetryCancel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		uid, jobs := jobFixture(t, st, 3)
		for i := range jobs {
			st.EnqueueJob(ctx, &jobs[i])
		}
		// Transient failure with attempts left goes back after backoff.
		j, _ := st.ClaimJob(ctx, "w", time.Minute)
		state, err := st.FailJob(ctx, j.ID, "w", "llm_rate_limited", "429", true, time.Hour)
		if err != nil || state != store.JobQueued {
			t.Fatalf("transient: %s %v", state, err)
		}
		// Not due yet: the next claim takes another job.
		k, _ := st.ClaimJob(ctx, "w", time.Minute)
		if k.ID == j.ID {
			t.Fatal("claimed a job before its backoff ended")
		}
		state, _ = st.FailJob(ctx, k.ID, "w", "unsupported_format", "nope", false, 0)
		if state != store.JobFailed {
			t.Fatalf("permanent: %s", state)
		}
		failed, _ := st.JobByID(ctx, uid, k.ID)
		if failed.FinishedAt == nil || failed.ErrorMessage != "nope" {
			t.Fatalf("%+v", failed)
		}
		// Retry resets attempts and keeps the snapshot.
		r, err := st.RetryJob(ctx, uid, k.ID)
		if err != nil || r.State != store.JobQueued || r.Attempts != 0 || r.ErrorCode != "" || *r.ConfigurationJSON != `{"executor":"llm"}` {
			t.Fatalf("retry %+v %v", r, err)
		}
		if _, err := st.RetryJob(ctx, uid, k.ID); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("retry of a queued job: %v", err)
		}
		// Cancel: queued at once; running by request; finished refused.
		c, err := st.CancelJob(ctx, uid, k.ID)
		if err != nil || c.State != store.JobCancelled {
			t.Fatalf("cancel queued %+v %v", c, err)
		}
		run, _ := st.ClaimJob(ctx, "w", time.Minute)
		c, _ = st.CancelJob(ctx, uid, run.ID)
		if c.State != store.JobRunning || !c.CancelRequested {
			t.Fatalf("cancel running %+v", c)
		}
		if cancel, err := st.RenewLease(ctx, run.ID, "w", time.Minute); err != nil || !cancel {
			t.Fatalf("renew did not report the cancel: %v %v", cancel, err)
		}
		if err := st.FinishCancelled(ctx, run.ID, "w"); err != nil {
			t.Fatal(err)
		}
		if _, err := st.CancelJob(ctx, uid, run.ID); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("cancel of a finished job: %v", err)
		}
		// Another user's job does not exist for them.
		if _, err := st.JobByID(ctx, uid+1000, run.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("%v", err)
		}
		// Release on shutdown does not burn the attempt.
		st.RetryJob(ctx, uid, run.ID)
		rel, _ := st.ClaimJob(ctx, "w", time.Minute)
		if err := st.ReleaseJob(ctx, rel.ID, "w"); err != nil {
			t.Fatal(err)
		}
		back, _ := st.JobByID(ctx, uid, rel.ID)
		if back.State != store.JobQueued || back.Attempts != rel.Attempts-1 {
			t.Fatalf("released %+v", back)
		}
		// Filters.
		list, err := st.ListJobs(ctx, uid, store.JobFilter{State: store.JobQueued})
		if err != nil || len(list) == 0 {
			t.Fatalf("list %v %v", list, err)
		}
		for _, l := range list {
			if l.State != store.JobQueued {
				t.Fatalf("filter leaked %+v", l)
			}
		}
		one, _ := st.ListJobs(ctx, uid, store.JobFilter{Path: jobs[0].Path})
		if len(one) != 1 || one[0].Path != jobs[0].Path {
			t.Fatalf("path filter %+v", one)
		}
	})
}
