package store_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/rank"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestRankDocFollowsItsFile: the word index answers a file by the words of
// its current version only; a write of a version that was replaced
// meanwhile stores nothing, and removing the file's text takes its words.
func TestRankDocFollowsItsFile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, u, n := aliceWithFile(t, dialect)
		ranked := func(question string) int {
			t.Helper()
			q := rank.ParseQuery(question)
			ns, err := st.RankFiles(ctx, store.FindRanked{Root: store.SearchRoot{UserID: u.ID, Dir: true}, FTS5: q.FTS5(), Words: q.Words, Bigrams: q.Bigrams, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(ns) == 1 && (ns[0].ID != n.ID || !(ns[0].Score > 0)) {
				t.Fatalf("%q: %+v", question, ns[0])
			}
			return len(ns)
		}
		write := func(version int64, body string) {
			t.Helper()
			d := store.SearchDoc{NodeID: n.ID, VersionID: version, Pending: true}
			doc := store.RankDoc{Name: store.RankText{Words: "a md"}, Body: store.RankText{Words: body}}
			if _, err := st.WriteSearchText(ctx, d, version, body, &doc); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
			t.Fatal(err)
		}
		write(1, "quokkas sleep in burrows")
		if ranked("where do quokkas sleep") != 1 {
			t.Fatal("version 1 is not ranked by its words")
		}
		if err := st.MarkSearchPending(ctx, n.ID, 3); err != nil {
			t.Fatal(err)
		}
		write(2, "wombats dig tunnels") // read before version 3 replaced it
		if ranked("wombats tunnels") != 0 {
			t.Fatal("a replaced version's words were stored")
		}
		write(3, "numbats eat termites")
		if ranked("numbats termites") != 1 || ranked("quokkas burrows") != 0 {
			t.Fatal("the index does not hold the current version's words alone")
		}
		if err := st.DropSearchText(ctx, n.ID); err != nil {
			t.Fatal(err)
		}
		if ranked("numbats termites") != 0 {
			t.Fatal("a file without text is still ranked")
		}
	})
}

// TestRankPostingsGoWithTheirFile: PostgreSQL's postings, written without
// a foreign key to their file's entry, still go when the file does.
func TestRankPostingsGoWithTheirFile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		if dialect != store.DialectPostgres {
			t.Skip("the word postings are PostgreSQL's")
		}
		t.Parallel()
		ctx := context.Background()
		st, _, n := aliceWithFile(t, dialect)
		if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
			t.Fatal(err)
		}
		doc := store.RankDoc{Name: store.RankText{Words: "a md"}, Body: store.RankText{Words: "quokkas sleep in burrows"}}
		if ok, err := st.WriteSearchText(ctx, store.SearchDoc{NodeID: n.ID, VersionID: 1, Pending: true}, 1, "quokkas sleep in burrows", &doc); err != nil || !ok {
			t.Fatalf("write: %v %v", ok, err)
		}
		if got, err := st.RankTermsOf(ctx, n.ID); err != nil || got != 4 {
			t.Fatalf("postings written: %d, %v; want md, quokka, sleep, burrow", got, err)
		}
		// A new text replaces every old posting; one read before a newer
		// write leaves them as they are.
		rewrite := func(version int64, body string) bool {
			t.Helper()
			doc := store.RankDoc{Name: store.RankText{Words: "a md"}, Body: store.RankText{Words: body}}
			ok, err := st.WriteSearchText(ctx, store.SearchDoc{NodeID: n.ID, VersionID: version, Pending: true}, version, body, &doc)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if err := st.MarkSearchPending(ctx, n.ID, 2); err != nil {
			t.Fatal(err)
		}
		if !rewrite(2, "wombats dig tunnels") {
			t.Fatal("version 2 not written")
		}
		if got, err := st.RankTermsOf(ctx, n.ID); err != nil || got != 4 {
			t.Fatalf("postings after a new text: %d, %v; want md, wombat, dig, tunnel", got, err)
		}
		if err := st.MarkSearchPending(ctx, n.ID, 4); err != nil {
			t.Fatal(err)
		}
		if rewrite(3, "echidnas eat ants and termites") {
			t.Fatal("a stale version was written")
		}
		if got, err := st.RankTermsOf(ctx, n.ID); err != nil || got != 4 {
			t.Fatalf("postings after a stale write: %d, %v; want version 2's 4", got, err)
		}
		if err := st.DeleteNode(ctx, n); err != nil {
			t.Fatal(err)
		}
		if got, err := st.RankTermsOf(ctx, n.ID); err != nil || got != 0 {
			t.Fatalf("postings left after the file went: %d, %v", got, err)
		}
	})
}
