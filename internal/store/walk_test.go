package store_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// walkFixture builds a user's tree from paths; a trailing "/" makes a folder.
func walkFixture(t *testing.T, st *store.Store, username string, paths []string) (store.User, map[string]store.Node) {
	t.Helper()
	ctx := context.Background()
	u := store.User{Username: username, PasswordHash: "x", Role: store.RoleUser}
	if err := st.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	root, err := st.EnsureRoot(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string]store.Node{"": root}
	for _, p := range paths {
		kind, path := store.KindFile, p
		if p[len(p)-1] == '/' {
			kind, path = store.KindDir, p[:len(p)-1]
		}
		parentPath, name := "", path
		for i := len(path) - 1; i >= 0; i-- {
			if path[i] == '/' {
				parentPath, name = path[:i], path[i+1:]
				break
			}
		}
		parent := nodes[parentPath]
		n := store.Node{UserID: u.ID, ParentID: &parent.ID, Name: name, Path: path, Kind: kind}
		if err := st.CreateNode(ctx, &n); err != nil {
			t.Fatalf("create %s: %v", p, err)
		}
		nodes[path] = n
	}
	return u, nodes
}

func walkPaths(ns []store.Node) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Path
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestWalkFiles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		u, _ := walkFixture(t, st, "alice", []string{
			"notes/", "notes/b.md", "notes/a.md", "notes/sub/", "notes/sub/z.txt",
			"notes-x/", "notes-x/n.md", "notes.x", "notes0", "notesz.md", "top.md", "notes/会议.md",
		})
		other, _ := walkFixture(t, st, "bob", []string{"notes/", "notes/a.md"})
		_ = other

		cases := []struct {
			name      string
			dir       string
			after     string
			inclusive bool
			limit     int
			want      []string
		}{
			{"folder only its descendants", "notes", "", false, 100, []string{"notes/a.md", "notes/b.md", "notes/sub/z.txt", "notes/会议.md"}},
			{"root walks every file of the user", "", "", false, 100, []string{"notes-x/n.md", "notes.x", "notes/a.md", "notes/b.md", "notes/sub/z.txt", "notes/会议.md", "notes0", "notesz.md", "top.md"}},
			{"limit", "notes", "", false, 2, []string{"notes/a.md", "notes/b.md"}},
			{"keyset after", "notes", "notes/b.md", false, 2, []string{"notes/sub/z.txt", "notes/会议.md"}},
			{"keyset inclusive", "notes", "notes/b.md", true, 1, []string{"notes/b.md"}},
			{"after the end", "notes", "notes/会议.md", false, 10, nil},
			{"sub folder", "notes/sub", "", false, 10, []string{"notes/sub/z.txt"}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				got, err := st.WalkFiles(ctx, store.FindFiles{UserID: u.ID, Dir: tc.dir, After: tc.after, Inclusive: tc.inclusive, Limit: tc.limit})
				if err != nil {
					t.Fatal(err)
				}
				if !equalStrings(walkPaths(got), tc.want) {
					t.Fatalf("got %q, want %q", walkPaths(got), tc.want)
				}
			})
		}
	})
}

func TestWalkFilesNewFileBetweenPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		u, nodes := walkFixture(t, st, "alice", []string{"d/", "d/b", "d/d", "d/f"})
		page1, err := st.WalkFiles(ctx, store.FindFiles{UserID: u.ID, Dir: "d", Limit: 2})
		if err != nil {
			t.Fatal(err)
		}
		d := nodes["d"]
		for _, name := range []string{"a", "c", "e"} {
			n := store.Node{UserID: u.ID, ParentID: &d.ID, Name: name, Path: "d/" + name, Kind: store.KindFile}
			if err := st.CreateNode(ctx, &n); err != nil {
				t.Fatal(err)
			}
		}
		page2, err := st.WalkFiles(ctx, store.FindFiles{UserID: u.ID, Dir: "d", After: page1[len(page1)-1].Path, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got := append(walkPaths(page1), walkPaths(page2)...)
		// a is before the cursor and is not visited; c sorts after it; e after.
		want := []string{"d/b", "d/d", "d/e", "d/f"}
		if !equalStrings(got, want) {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}

func TestLatestBodies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		st, _ := storetest.Open(t, dialect)
		ctx := context.Background()
		_, nodes := walkFixture(t, st, "alice", []string{"a", "b", "c"})
		add := func(path, body, hash string) {
			v := store.FileVersion{NodeID: nodes[path].ID, Body: body, BlobHash: hash, IsText: true}
			if err := st.AddVersion(ctx, &v); err != nil {
				t.Fatal(err)
			}
		}
		add("a", store.BodyRaw, "a1")
		add("a", store.BodyRaw, "a2")
		add("a", store.BodyL2, "a-l2")
		add("b", store.BodyRaw, "b1")
		got, err := st.LatestBodies(ctx, []int64{nodes["a"].ID, nodes["b"].ID, nodes["c"].ID})
		if err != nil {
			t.Fatal(err)
		}
		if h := got[nodes["a"].ID][store.BodyRaw].BlobHash; h != "a2" {
			t.Errorf("a raw = %q, want a2", h)
		}
		if h := got[nodes["a"].ID][store.BodyL2].BlobHash; h != "a-l2" {
			t.Errorf("a l2 = %q", h)
		}
		if h := got[nodes["b"].ID][store.BodyRaw].BlobHash; h != "b1" {
			t.Errorf("b raw = %q", h)
		}
		if _, ok := got[nodes["c"].ID]; ok {
			t.Errorf("c has no versions but got %v", got[nodes["c"].ID])
		}
		if empty, err := st.LatestBodies(ctx, nil); err != nil || len(empty) != 0 {
			t.Errorf("nil ids: %v %v", empty, err)
		}
	})
}
