package store_test

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestIndexWrittenAfterTheWrite: a body marked pending is a candidate for
// every query (searches read it in full) until the index writer stores
// it; then only queries it holds find it, a literal across a chunk
// boundary too. A write that marks it again meanwhile wins over the
// writer, and deleting the file takes its chunks with it.
func TestIndexWrittenAfterTheWrite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, u, n := aliceWithFile(t, dialect)
		r := store.SearchRoot{UserID: u.ID, Dir: true}
		found := func(lit string) bool {
			t.Helper()
			ns, err := st.SearchCandidates(ctx, store.FindCandidates{Root: r, Literals: []string{lit}, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return len(ns) == 1
		}
		if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
			t.Fatal(err)
		}
		if !found("anything at all") {
			t.Fatal("a pending body is not a candidate")
		}
		// Two chunks and more; the literal straddles the first boundary.
		// A chunk ends at its MaxChunkGrams-th distinct trigram: in random
		// Chinese text nearly every trigram is new.
		lit := "straddling literal"
		prng := rand.New(rand.NewSource(1))
		runes := make([]rune, 3*store.MaxChunkGrams)
		for i := range runes {
			runes[i] = rune(0x4E00 + prng.Intn(20000))
		}
		at := store.MaxChunkGrams - 8
		text := string(runes[:at]) + lit + string(runes[at+len(lit):])
		ends := store.IndexChunkEnds(text)
		if len(ends) < 3 || !strings.Contains(text[:ends[0]], "straddling") || strings.Contains(text[:ends[0]], lit) {
			t.Fatalf("the literal does not straddle the first of chunk ends %v", ends)
		}
		docs, err := st.PendingSearchDocs(ctx, 10)
		if err != nil || len(docs) != 1 || docs[0].NodeID != n.ID || docs[0].VersionID != 1 {
			t.Fatalf("pending %+v, %v", docs, err)
		}
		if ok, err := st.WriteSearchText(ctx, docs[0], 1, text, nil); !ok || err != nil {
			t.Fatalf("write: %v %v", ok, err)
		}
		if !found(lit) || found("absent words") {
			t.Fatal("the written index does not answer as its text")
		}
		if docs, _ := st.PendingSearchDocs(ctx, 10); len(docs) != 0 {
			t.Fatalf("still pending: %+v", docs)
		}
		if dialect == store.DialectSQLite {
			if rows, err := st.IndexChunkRows(ctx, n.ID); err != nil || rows != int64(len(ends)) {
				t.Fatalf("%d chunk rows for %d bytes, %v", rows, len(text), err)
			}
		}

		// A newer version marked while the writer works on the old one.
		if err := st.MarkSearchPending(ctx, n.ID, 2); err != nil {
			t.Fatal(err)
		}
		docs, _ = st.PendingSearchDocs(ctx, 10)
		if err := st.MarkSearchPending(ctx, n.ID, 3); err != nil {
			t.Fatal(err)
		}
		if ok, err := st.WriteSearchText(ctx, docs[0], 2, "version two", nil); ok || err != nil {
			t.Fatalf("a stale write was stored: %v %v", ok, err)
		}
		if !found("anything at all") {
			t.Fatal("the newer version is no longer read in full")
		}
		docs, _ = st.PendingSearchDocs(ctx, 10)
		if ok, err := st.WriteSearchText(ctx, docs[0], 3, "version three", nil); !ok || err != nil {
			t.Fatalf("write: %v %v", ok, err)
		}
		if !found("version three") || found(lit) {
			t.Fatal("the old chunks answer after a new version")
		}
		if err := st.DeleteNode(ctx, n); err != nil {
			t.Fatal(err)
		}
		if dialect == store.DialectSQLite {
			if rows, err := st.IndexChunkRows(ctx, n.ID); err != nil || rows != 0 {
				t.Fatalf("%d chunk rows after the delete, %v", rows, err)
			}
		}
	})
}
