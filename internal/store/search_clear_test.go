package store_test

import (
	"context"
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
