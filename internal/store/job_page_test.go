package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestJobListingsPageAfterAKey: pages that each start after the last
// job of the one before hold the whole listing once and in its order,
// jobs changed at the same instant included, for a user and for all.
func TestJobListingsPageAfterAKey(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		uid, jobs := jobFixture(t, st, 6)
		var ids []int64
		for _, j := range jobs {
			got, _, err := st.EnqueueJob(ctx, &j)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, got.ID)
		}
		tie := time.Now().UTC().Truncate(time.Millisecond).Add(time.Hour)
		for _, id := range ids[1:4] {
			if err := st.SetJobUpdatedAt(ctx, id, tie); err != nil {
				t.Fatal(err)
			}
		}
		lists := map[string]func(limit int, after *store.JobKey) ([]store.Job, error){
			"user": func(limit int, after *store.JobKey) ([]store.Job, error) {
				return st.ListJobs(ctx, uid, store.JobFilter{Limit: limit, After: after})
			},
			"all": func(limit int, after *store.JobKey) ([]store.Job, error) {
				return st.ListAllJobs(ctx, store.AllJobsFilter{Limit: limit, After: after})
			},
		}
		for name, list := range lists {
			whole, err := list(0, nil)
			if err != nil || len(whole) != len(ids) {
				t.Fatalf("%s: the whole listing %d jobs, %v", name, len(whole), err)
			}
			for _, size := range []int{1, 2, 4} {
				var walked []int64
				var after *store.JobKey
				for range len(ids) + 1 {
					page, err := list(size, after)
					if err != nil {
						t.Fatal(err)
					}
					if len(page) == 0 {
						break
					}
					for _, j := range page {
						walked = append(walked, j.ID)
					}
					k := page[len(page)-1].Key()
					after = &k
				}
				var want []int64
				for _, j := range whole {
					want = append(want, j.ID)
				}
				if !slices.Equal(walked, want) {
					t.Fatalf("%s by %d: walked %v, the whole listing is %v", name, size, walked, want)
				}
			}
		}
	})
}
