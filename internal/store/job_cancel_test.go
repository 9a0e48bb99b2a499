package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestRunningJobOfADeletedFileEndsCancelledWithTheReason: whichever way its
// worker ends a running job whose file was deleted — a failure the missing
// file caused, a cancel noticed, a lease left to expire — the job ends
// cancelled with the deletion as its reason; a user's cancel keeps its own.
func TestRunningJobOfADeletedFileEndsCancelledWithTheReason(t *testing.T) {
	ends := []struct {
		name string
		end  func(ctx context.Context, st *store.Store, id int64) error
	}{
		{"failure", func(ctx context.Context, st *store.Store, id int64) error {
			state, err := st.FailJob(ctx, id, "w", "internal", "internal error while running the job", true, 0)
			if err == nil && state != store.JobCancelled {
				t.Errorf("FailJob answered state %s, want cancelled", state)
			}
			return err
		}},
		{"cancel noticed", func(ctx context.Context, st *store.Store, id int64) error {
			return st.FinishCancelled(ctx, id, "w")
		}},
		{"lease expired", func(ctx context.Context, st *store.Store, id int64) error {
			_, err := st.RequeueExpired(ctx)
			return err
		}},
	}
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		uid, jobs := jobFixture(t, st, 2*len(ends))
		for i, tc := range ends {
			for k, deleted := range []bool{true, false} {
				// One job at a time in the queue, so the claim takes it.
				if _, _, err := st.EnqueueJob(ctx, &jobs[2*i+k]); err != nil {
					t.Fatal(err)
				}
				// A lease already over: only RequeueExpired looks at it.
				run, err := st.ClaimJob(ctx, "w", -time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				want := store.CancelledByUser
				if deleted {
					want = store.CancelledDeleted
					n, err := st.NodeByID(ctx, uid, *run.NodeID)
					if err != nil {
						t.Fatal(err)
					}
					if err := st.CancelJobsOf(ctx, []int64{n.ID}); err != nil {
						t.Fatal(err)
					}
					if err := st.DeleteNode(ctx, n); err != nil {
						t.Fatal(err)
					}
				} else if _, err := st.CancelJob(ctx, uid, run.ID); err != nil {
					t.Fatal(err)
				}
				if err := tc.end(ctx, st, run.ID); err != nil {
					t.Fatalf("%s: %v", tc.name, err)
				}
				got, err := st.JobByID(ctx, uid, run.ID)
				if err != nil {
					t.Fatal(err)
				}
				if got.State != store.JobCancelled || got.ErrorCode != "cancelled" || got.ErrorMessage != want {
					t.Errorf("%s, deleted %v: job ended %s %s %q, want cancelled %q", tc.name, deleted, got.State, got.ErrorCode, got.ErrorMessage, want)
				}
			}
		}
	})
}

// TestEnqueueForADeletedFileIsGone: a job for a file deleted after it was
// looked up is refused as ErrGone, which a request turns into a rejection.
func TestEnqueueForADeletedFileIsGone(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		uid, jobs := jobFixture(t, st, 1)
		n, err := st.NodeByID(ctx, uid, *jobs[0].NodeID)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteNode(ctx, n); err != nil {
			t.Fatal(err)
		}
		if _, _, err := st.EnqueueJob(ctx, &jobs[0]); !errors.Is(err, store.ErrGone) {
			t.Fatalf("enqueue for a deleted file: %v, want ErrGone", err)
		}
	})
}
