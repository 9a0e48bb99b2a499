package store_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestNodesWithinWalksParents: a node is within a folder by its parents,
// at any depth; a sibling whose name begins like the folder's, the folder's
// own parent and another user's nodes are not.
func TestNodesWithinWalksParents(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		st, _ := storetest.Open(t, dialect)
		_, n := walkFixture(t, st, "alice", []string{"q3/", "q3/a/", "q3/a/b/", "q3/a/b/c.md", "q3-private/", "q3-private/x.md"})
		_, other := walkFixture(t, st, "bob", []string{"q3/"})
		ids := []int64{n[""].ID, n["q3"].ID, n["q3/a"].ID, n["q3/a/b"].ID, n["q3/a/b/c.md"].ID,
			n["q3-private"].ID, n["q3-private/x.md"].ID, other["q3"].ID}
		got, err := st.NodesWithin(context.Background(), n[""].UserID, n["q3"].ID, ids)
		if err != nil {
			t.Fatal(err)
		}
		want := []int64{n["q3"].ID, n["q3/a"].ID, n["q3/a/b"].ID, n["q3/a/b/c.md"].ID}
		if have := slices.Sorted(maps.Keys(got)); !slices.Equal(have, want) {
			t.Fatalf("within q3: %v, want %v", have, want)
		}
		if got, _ := st.NodesWithin(context.Background(), n[""].UserID, n["q3"].ID, nil); len(got) != 0 {
			t.Fatalf("no ids: %v", got)
		}
	})
}
