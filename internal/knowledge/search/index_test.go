package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestIndexFollowsParsedText: a document is searchable by the text a parse
// extracted, and no longer once a new upload makes that text stale.
func TestIndexFollowsParsedText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		uri := e.put(e.alice, "kb://me/d/", "paper.pdf", []byte("%PDF-1.7 binary"))
		if r := e.searchFor(e.alice, "kb://me/d/", "photosynthesis"); r.Mode != "index" || len(r.Hits) != 0 || r.SkippedNoText != 1 || !r.Complete {
			t.Fatalf("before the parse: %+v", r)
		}
		_, n, _ := e.tree.Resolve(ctx, e.alice, uri)
		raw, err := e.st.LatestVersion(ctx, n.ID, store.BodyRaw)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.tree.SaveL2(ctx, n, extract.Result{Text: "Notes on PHOTOSYNTHESIS in algae", Format: "pdf", Extractor: "test"}, raw); err != nil {
			t.Fatal(err)
		}
		if r := e.searchFor(e.alice, "kb://me/d/", "photosynthesis"); r.Mode != "index" || len(r.Hits) != 1 || r.Hits[0].Offset != 9 || r.SkippedNoText != 0 {
			t.Fatalf("after the parse: %+v", r)
		}
		e.put(e.alice, "kb://me/d/", "paper.pdf", []byte("%PDF-1.7 another upload"))
		if r := e.searchFor(e.alice, "kb://me/d/", "photosynthesis"); len(r.Hits) != 0 || r.SkippedNoText != 1 {
			t.Fatalf("after a new upload, the old parse is still found: %+v", r)
		}
	})
}

// TestIndexRebuild: while the index is rebuilt searches scan; a rebuild at
// start makes an index that answers as the live one did; a body too large
// to index is read by every search instead of being missed.
func TestIndexRebuild(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/d/", "a.md", []byte("alpha bravo charlie"))
		e.put(e.alice, "kb://me/d/", "b.md", []byte("delta echo"))
		e.put(e.bob, "kb://me/", "c.md", []byte("alpha of bob"))
		before := e.searchFor(e.alice, "kb://me/", "alpha")
		if before.Mode != "index" || len(before.Hits) != 1 {
			t.Fatalf("live index: %+v", before)
		}
		// An upgrade from a database without the index: nothing indexed yet.
		if err := e.st.ClearSearchIndex(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.st.MarkSearchIndex(ctx, false); err != nil {
			t.Fatal(err)
		}
		if r := e.searchFor(e.alice, "kb://me/", "alpha"); r.Mode != "scan" || len(r.Hits) != 1 {
			t.Fatalf("during a rebuild: %+v", r)
		}
		if err := e.index.Ensure(ctx); err != nil {
			t.Fatal(err)
		}
		after := e.searchFor(e.alice, "kb://me/", "alpha")
		if after.Mode != "index" || len(after.Hits) != 1 || after.Hits[0] != before.Hits[0] {
			t.Fatalf("rebuilt index: %+v, before %+v", after, before)
		}

		// A ranked answer reads each candidate to its end, past many chunks.
		long := strings.Repeat("filler text, ", 3*index.ChunkBytes/13) + "the quetzal at the end"
		e.put(e.alice, "kb://me/d/", "long.md", []byte(long))
		if r := e.searchFor(e.alice, "kb://me/", "quetzal"); r.Mode != "index" || len(r.Hits) != 1 || r.Hits[0].Offset != int64(len(long)-len("quetzal at the end")) {
			t.Fatalf("match in the last chunk of a candidate: %+v", r)
		}

		e.tree.SetMaxIndexedBytes(10)
		e.put(e.alice, "kb://me/d/", "big.md", []byte("a body longer than ten bytes mentions zephyr"))
		if r := e.searchFor(e.alice, "kb://me/", "zephyr"); r.Mode != "index" || len(r.Hits) != 1 {
			t.Fatalf("unindexed large body: %+v", r)
		}
	})
}

// TestSearchReadsWhatTheIndexHasNotTaken: while the index writer has not
// taken a file (it runs after the write commits), searches read the file
// in full rather than miss it; once taken, the index proposes it.
func TestSearchReadsWhatTheIndexHasNotTaken(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/d/", "old.md", []byte("nothing to see"))
		release, err := e.index.Hold(ctx)
		if err != nil {
			t.Fatal(err)
		}
		e.put(e.alice, "kb://me/d/", "new.md", []byte("the pangolin arrived"))
		r := e.searchFor(e.alice, "kb://me/d/", "pangolin")
		if r.Mode != "index" || len(r.Hits) != 1 || r.Scanned != 1 {
			t.Fatalf("before the index writer: %+v", r)
		}
		release()
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		docs, err := e.st.PendingSearchDocs(ctx, 10)
		if err != nil || len(docs) != 0 {
			t.Fatalf("pending after the writer: %+v %v", docs, err)
		}
		if r := e.searchFor(e.alice, "kb://me/d/", "pangolin"); len(r.Hits) != 1 || r.Scanned != 1 {
			t.Fatalf("after the index writer: %+v", r)
		}
		if r := e.searchFor(e.alice, "kb://me/d/", "armadillo"); len(r.Hits) != 0 || r.Scanned != 0 {
			t.Fatalf("the index proposes a file without the word: %+v", r)
		}
	})
}

// TestReindexDecidesEveryFileAgain: a rebuild marks every file with text
// for the index writer (and says how many), and a body past the largest
// the index holds stays out of it, read by every search instead.
func TestReindexDecidesEveryFileAgain(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/d/", "a.md", []byte("the first"))
		e.put(e.alice, "kb://me/d/", "b.md", []byte("the second"))
		e.tree.SetMaxIndexedBytes(20)
		e.put(e.alice, "kb://me/d/", "big.md", []byte("a body longer than twenty bytes mentions zephyr"))
		e.settle()
		n, err := e.index.Reindex(ctx)
		if err != nil || n != 2 {
			t.Fatalf("reindex marked %d files (%v), want 2", n, err)
		}
		e.settle()
		if r := e.searchFor(e.alice, "kb://me/", "zephyr"); r.Mode != "index" || len(r.Hits) != 1 || !r.Complete {
			t.Fatalf("the large body after the rebuild: %+v", r)
		}
		unranked, err := e.st.CountUnranked(ctx, store.SearchRoot{UserID: e.alice.ID, Dir: true})
		if err != nil || unranked != 1 {
			t.Fatalf("files the word index does not hold: %d (%v), want the large one", unranked, err)
		}
	})
}
