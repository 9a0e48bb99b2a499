package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestClearSearchIndexBesideTheWriter: a rebuild empties the index while
// the index writer's transaction still updates rows, in node order. The
// rebuild must wait for it, not lock rows in the table's physical order
// and deadlock with it (CI saw "deadlock detected" from a reindex).
func TestClearSearchIndexBesideTheWriter(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		if dialect != store.DialectPostgres {
			t.Skip("SQLite has one writer at a time")
		}
		t.Parallel()
		ctx := context.Background()
		st, u, first := aliceWithFile(t, dialect)
		second := store.Node{UserID: u.ID, ParentID: first.ParentID, Name: "b.md", Path: "b.md", Kind: store.KindFile}
		if err := st.CreateNode(ctx, &second); err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{first.ID, second.ID} {
			if err := st.MarkSearchPending(ctx, id, 1); err != nil {
				t.Fatal(err)
			}
		}
		// The first node's row moves behind the second's in the heap, so a
		// sequential scan meets it last.
		if err := st.Exec(ctx, `UPDATE search_docs SET pending = true WHERE node_id = ?`, first.ID); err != nil {
			t.Fatal(err)
		}
		cleared := make(chan error, 1)
		attempts := 0
		err := st.InTx(ctx, func(tx *store.Store) error {
			attempts++
			if err := tx.Exec(ctx, `UPDATE search_docs SET indexed = true WHERE node_id = ?`, first.ID); err != nil {
				return err
			}
			if attempts == 1 {
				go func() { cleared <- st.ClearSearchIndex(ctx) }()
			}
			for deadline := time.Now().Add(10 * time.Second); ; {
				waits, err := tx.BlocksAnother(ctx)
				if err != nil || waits {
					break
				}
				if time.Now().After(deadline) {
					t.Error("the rebuild never waited for the writer")
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			return tx.Exec(ctx, `UPDATE search_docs SET indexed = true WHERE node_id = ?`, second.ID)
		})
		if err != nil || attempts != 1 {
			t.Fatalf("writer: %v after %d attempts", err, attempts)
		}
		if err := <-cleared; err != nil {
			t.Fatalf("clear beside the writer: %v", err)
		}
		docs, err := st.SearchDocs(ctx, []int64{first.ID, second.ID})
		if err != nil || len(docs) != 0 {
			t.Fatalf("after the clear: %v, %v", docs, err)
		}
	})
}

// The index's tables are unlogged on PostgreSQL: a crash empties them
// and search_alive with them (storetest.Cluster shows it for real; here
// the emptying is done by hand, at the two moments that matter).
func TestSearchIndexLostToACrash(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		if dialect != store.DialectPostgres {
			t.Skip("SQLite's index is written with its data")
		}
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		ready := func(want bool) {
			t.Helper()
			if ok, err := st.SearchIndexReady(ctx); err != nil || ok != want {
				t.Fatalf("ready %v (%v), want %v", ok, err, want)
			}
		}
		ready(true)
		// After a rebuild finished: lost, and searches must not use it.
		if err := st.Exec(ctx, `DELETE FROM search_alive`); err != nil {
			t.Fatal(err)
		}
		ready(false)
		if lost, err := st.SearchIndexLost(ctx); err != nil || !lost {
			t.Fatalf("lost %v (%v), want true", lost, err)
		}
		// Two servers notice; one rebuilds.
		if cleared, err := st.ClearLostSearchIndex(ctx); err != nil || !cleared {
			t.Fatalf("first: cleared %v (%v), want true", cleared, err)
		}
		if cleared, err := st.ClearLostSearchIndex(ctx); err != nil || cleared {
			t.Fatalf("second: cleared %v (%v), want false", cleared, err)
		}
		ready(false) // its marks are still to be written
		if lost, err := st.SearchIndexLost(ctx); err != nil || lost {
			t.Fatalf("during the rebuild: lost %v (%v), want false", lost, err)
		}
		// A rebuild that failed to write its marks leaves it lost, to be
		// started again, not "building" for good.
		if err := st.MarkSearchIndexLost(ctx); err != nil {
			t.Fatal(err)
		}
		if lost, err := st.SearchIndexLost(ctx); err != nil || !lost {
			t.Fatalf("after a failed rebuild: lost %v (%v), want true", lost, err)
		}
		if cleared, err := st.ClearLostSearchIndex(ctx); err != nil || !cleared {
			t.Fatalf("again: cleared %v (%v), want true", cleared, err)
		}
		// During a rebuild: it cannot finish on marks the crash took.
		if err := st.Exec(ctx, `DELETE FROM search_alive`); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkSearchIndex(ctx, true); !errors.Is(err, store.ErrIndexLost) {
			t.Fatalf("ready after losing the marks: %v, want ErrIndexLost", err)
		}
		ready(false)
		if err := st.ClearSearchIndex(ctx); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkSearchIndex(ctx, true); err != nil {
			t.Fatal(err)
		}
		ready(true)
	})
}
