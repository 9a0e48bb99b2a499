package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// One statement renews a worker's jobs; a job it no longer holds keeps its
// lease, and a cancel request comes back with the renewal.
func TestRenewLeasesInOneStatement(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		counter, err := st.CountStatements()
		if err != nil {
			t.Fatal(err)
		}
		uid, jobs := jobFixture(t, st, 4)
		var ids []int64
		for i := range jobs {
			j, _, err := st.EnqueueJob(ctx, &jobs[i])
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, j.ID)
		}
		owners := []string{"w-0", "w-1", "w-2", "other"}
		for _, o := range owners {
			if _, err := st.ClaimJob(ctx, o, time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		lease := func(id int64) store.Job {
			j, err := st.JobByID(ctx, uid, id)
			if err != nil {
				t.Fatal(err)
			}
			return j
		}
		byOwner := map[string]store.Job{}
		for _, id := range ids {
			j := lease(id)
			byOwner[j.LeaseOwner] = j
		}
		if _, err := st.CancelJob(ctx, uid, byOwner["w-1"].ID); err != nil {
			t.Fatal(err)
		}
		// w-2's job was reassigned: "w-2" asks for a job "other" holds.
		held := []store.HeldLease{{ID: byOwner["w-0"].ID, Owner: "w-0"}, {ID: byOwner["w-1"].ID, Owner: "w-1"},
			{ID: byOwner["other"].ID, Owner: "w-2"}}
		n0 := counter.Count()
		renewed, err := st.RenewLeases(ctx, held, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if n := counter.Count() - n0; n != 1 {
			t.Fatalf("renewal took %d statements", n)
		}
		if len(renewed) != 2 || renewed[byOwner["w-0"].ID] || !renewed[byOwner["w-1"].ID] {
			t.Fatalf("renewed %v", renewed)
		}
		for _, o := range []string{"w-0", "w-1"} {
			if got := lease(byOwner[o].ID); !got.LeaseExpiresAt.After(byOwner[o].LeaseExpiresAt.Add(30 * time.Minute)) {
				t.Fatalf("%s's lease did not move: %v then %v", o, byOwner[o].LeaseExpiresAt, got.LeaseExpiresAt)
			}
		}
		for _, o := range []string{"w-2", "other"} {
			if got := lease(byOwner[o].ID); !got.LeaseExpiresAt.Equal(*byOwner[o].LeaseExpiresAt) || got.LeaseOwner != o {
				t.Fatalf("%s's job was touched: %v then %v (%s)", o, byOwner[o].LeaseExpiresAt, got.LeaseExpiresAt, got.LeaseOwner)
			}
		}
	})
}
