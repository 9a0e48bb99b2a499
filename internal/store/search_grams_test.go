package store_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestIndexFindsEveryScript: the index proposes a file for a literal of
// any script its text holds — two-, three- and four-byte characters, runs
// mixing them, a literal at the text's very start and end, a NUL or
// invalid bytes (stored cleaned) — through both the large-file and the
// batch path, and not for the same characters in another order.
func TestIndexFindsEveryScript(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		text := "ünïcödé 全文检索 mixed漢字and🦀crab🦀 tab\there nul\x00byte bad\xffbyte ∑∫≈"
		for _, batch := range []bool{false, true} {
			st, u, n := aliceWithFile(t, dialect)
			if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
				t.Fatal(err)
			}
			docs, err := st.PendingSearchDocs(ctx, 10)
			if err != nil || len(docs) != 1 {
				t.Fatalf("pending %+v, %v", docs, err)
			}
			if batch {
				_, err = st.WriteSearchEntries(ctx, []store.SearchEntry{{Doc: docs[0], VersionID: 1, Text: text}})
			} else {
				_, err = st.WriteSearchText(ctx, docs[0], 1, text, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			r := store.SearchRoot{UserID: u.ID, Dir: true}
			for lit, want := range map[string]bool{
				"ünïcödé": true, "全文检索": true, "d漢字a": true, "🦀crab🦀": true, "b🦀 ": true,
				"tab\there": true, "nul\x00byte": true, "bad\xffbyte": true, "∑∫≈": true,
				"检文全": false, "🦀bar": false, "≈∫∑": false, "écödé": false,
			} {
				ns, err := st.SearchCandidates(ctx, store.FindCandidates{Root: r, Literals: []string{lit}, Limit: 10})
				if err != nil {
					t.Fatal(err)
				}
				if got := len(ns) == 1; got != want {
					t.Errorf("batch %v: %q proposed %v, want %v", batch, lit, got, want)
				}
			}
		}
	})
}
