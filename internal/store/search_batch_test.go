package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/rank"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestSearchEntriesWrittenTogether: small files written in one batch are
// each found by the trigram index and ranked by their words, are no
// longer pending, and one re-marked since it was read is left pending
// with nothing of its stale text stored.
func TestSearchEntriesWrittenTogether(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, u, first := aliceWithFile(t, dialect)
		nodes := []store.Node{first}
		for i := 1; i < 5; i++ {
			n := store.Node{UserID: u.ID, ParentID: first.ParentID, Name: fmt.Sprintf("n%d.md", i), Path: fmt.Sprintf("n%d.md", i), Kind: store.KindFile}
			if err := st.CreateNode(ctx, &n); err != nil {
				t.Fatal(err)
			}
			nodes = append(nodes, n)
		}
		for _, n := range nodes {
			if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
				t.Fatal(err)
			}
		}
		docs, err := st.PendingSearchDocs(ctx, 10)
		if err != nil || len(docs) != len(nodes) {
			t.Fatalf("pending %+v, %v", docs, err)
		}
		// The last file gets a newer version after the writer read it.
		if err := st.MarkSearchPending(ctx, nodes[4].ID, 2); err != nil {
			t.Fatal(err)
		}
		var es []store.SearchEntry
		for i, d := range docs {
			body := fmt.Sprintf("creature%d lives in burrow%d", i, i)
			es = append(es, store.SearchEntry{Doc: d, VersionID: 1, Text: body,
				Rank: store.RankDoc{Body: store.RankText{Words: body}}})
		}
		n, err := st.WriteSearchEntries(ctx, es)
		if err != nil || n != 4 {
			t.Fatalf("written %d, %v; want 4", n, err)
		}
		root := store.SearchRoot{UserID: u.ID, Dir: true}
		for i := range es {
			cands, err := st.SearchCandidates(ctx, store.FindCandidates{Root: root, Literals: []string{fmt.Sprintf("burrow%d", i)}, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			q := rank.ParseQuery(fmt.Sprintf("creature%d", i))
			ranked, err := st.RankFiles(ctx, store.FindRanked{Root: root, FTS5: q.FTS5(), Words: q.Words, Bigrams: q.Bigrams, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			// A pending file is every query's candidate: each literal
			// finds its own file and the stale one, and the stale one is
			// not ranked by the words it no longer has.
			got := map[int64]bool{}
			for _, c := range cands {
				got[c.ID] = true
			}
			stale := i == 4
			if !got[nodes[i].ID] || !got[nodes[4].ID] || len(got) > 2 || stale != (len(ranked) == 0) {
				t.Fatalf("file %d: candidates %v, ranked %d", i, got, len(ranked))
			}
		}
		left, err := st.PendingSearchDocs(ctx, 10)
		if err != nil || len(left) != 1 || left[0].NodeID != nodes[4].ID || left[0].VersionID != 2 {
			t.Fatalf("pending after the batch: %+v, %v", left, err)
		}
	})
}

// TestSearchBatchStatementsOnPostgres: on PostgreSQL a batch of small
// files costs the same few statements however many files it holds; a
// statement per file was most of a 10,000-file library's round trips.
func TestSearchBatchStatementsOnPostgres(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		if dialect != store.DialectPostgres {
			t.Skip("SQLite writes a batch file by file (writeSearchEntriesSQLite)")
		}
		t.Parallel()
		ctx := context.Background()
		st, u, first := aliceWithFile(t, dialect)
		counter, err := st.CountStatements()
		if err != nil {
			t.Fatal(err)
		}
		batch := func(n int) int64 {
			var es []store.SearchEntry
			for i := range n {
				node := store.Node{UserID: u.ID, ParentID: first.ParentID, Name: fmt.Sprintf("b%d-%d.md", n, i), Path: fmt.Sprintf("b%d-%d.md", n, i), Kind: store.KindFile}
				if err := st.CreateNode(ctx, &node); err != nil {
					t.Fatal(err)
				}
				if err := st.MarkSearchPending(ctx, node.ID, 1); err != nil {
					t.Fatal(err)
				}
				body := fmt.Sprintf("otter%d swims by weir%d", i, i)
				es = append(es, store.SearchEntry{Doc: store.SearchDoc{NodeID: node.ID, VersionID: 1}, VersionID: 1, Text: body,
					Rank: store.RankDoc{Body: store.RankText{Words: body}}})
			}
			before := counter.Count()
			written, err := st.WriteSearchEntries(ctx, es)
			if err != nil || written != n {
				t.Fatalf("batch of %d: written %d, %v", n, written, err)
			}
			return counter.Count() - before
		}
		small, large := batch(2), batch(40)
		if small != large {
			t.Fatalf("a batch of 2 files took %d statements, one of 40 took %d: want the same", small, large)
		}
	})
}

// TestSearchBatchLocksInNodeOrder: on PostgreSQL the index writer takes a
// batch's search_docs rows in node order, as a mark of many files does,
// whatever order its batch came in: a writer holding a later file's row
// while it waits for an earlier one deadlocks with a mark holding the
// earlier one and waiting for the later.
func TestSearchBatchLocksInNodeOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		if dialect != store.DialectPostgres {
			t.Skip("SQLite has one writer at a time")
		}
		t.Parallel()
		ctx := context.Background()
		st, u, low := aliceWithFile(t, dialect)
		high := store.Node{UserID: u.ID, ParentID: low.ParentID, Name: "z.md", Path: "z.md", Kind: store.KindFile}
		if err := st.CreateNode(ctx, &high); err != nil {
			t.Fatal(err)
		}
		var es []store.SearchEntry
		for _, n := range []store.Node{high, low} { // the batch in reverse
			if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
				t.Fatal(err)
			}
			es = append(es, store.SearchEntry{Doc: store.SearchDoc{NodeID: n.ID, VersionID: 1}, VersionID: 1, Text: "heron",
				Rank: store.RankDoc{Body: store.RankText{Words: "heron"}}})
		}
		written := make(chan error, 1)
		waited := errors.New("the mark waited for the later file's row, which the index writer held while it waited for the earlier one")
		err := st.InTx(ctx, func(tx *store.Store) error {
			// A mark of both files, taking the earlier one's row first; it
			// gives up on the later one's before a deadlock would be found
			// (deadlock_timeout, 1 s).
			if err := tx.Exec(ctx, `UPDATE search_docs SET pending = true WHERE node_id = ?`, low.ID); err != nil {
				return err
			}
			go func() {
				_, err := st.WriteSearchEntries(ctx, es)
				written <- err
			}()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				if b, err := tx.BlocksAnother(ctx); err != nil || b {
					if err != nil {
						return err
					}
					break
				}
				if time.Now().After(deadline) {
					return errors.New("the index writer never waited for the mark's row")
				}
			}
			if err := tx.Exec(ctx, `SET LOCAL lock_timeout = '500ms'`); err != nil {
				return err
			}
			if err := tx.Exec(ctx, `UPDATE search_docs SET pending = true WHERE node_id = ?`, high.ID); err != nil {
				return fmt.Errorf("%w: %v", waited, err) // not ErrBusy: no retry
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := <-written; err != nil {
			t.Fatal(err)
		}
	})
}
