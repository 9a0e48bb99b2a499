package knowledge

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// newTestTree builds a tree on a real store with a user named name.
func newTestTree(t testing.TB, dialect string, names ...string) (*Tree, []kb.Caller, string) {
	t.Helper()
	st, dir := storetest.Open(t, dialect)
	blobs, err := blob.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tree := NewTree(st, blobs, 1<<20)
	var callers []kb.Caller
	for _, n := range names {
		u := store.User{Username: n, PasswordHash: "x", Role: store.RoleUser}
		if err := st.CreateUser(context.Background(), &u); err != nil {
			t.Fatal(err)
		}
		callers = append(callers, kb.Caller{ID: u.ID, Username: n})
	}
	return tree, callers, dir
}

func mustUpload(t testing.TB, tree *Tree, c kb.Caller, folder, name, body string) Item {
	t.Helper()
	s, err := tree.Stage(name, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	items, err := tree.CommitUpload(context.Background(), c, folder, []Staged{s}, ConflictReplace)
	if err != nil {
		t.Fatal(err)
	}
	return items[0]
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok || e.Code.String() != code {
		t.Fatalf("want error %s, got %v", code, err)
	}
}
