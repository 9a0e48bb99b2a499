package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestReopenKeepsDataAndSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	u := store.User{Username: "alice", PasswordHash: "h", Role: store.RoleUser}
	if err := st.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// A second start applies nothing new and sees the same rows.
	st, err = store.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	got, err := st.UserByUsername(ctx, "alice")
	if err != nil || got.ID != u.ID {
		t.Fatalf("after reopen: %+v %v", got, err)
	}
}

func TestOpenRefusesUnknownDSN(t *testing.T) {
	t.Parallel()
	if _, err := store.Open(context.Background(), "mysql://x", t.TempDir()); err == nil {
		t.Fatal("mysql DSN accepted")
	}
}

func TestUsersAndTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		u := store.User{Username: "alice", PasswordHash: "h1", Role: store.RoleUser}
		if err := st.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		dup := store.User{Username: "alice", PasswordHash: "h", Role: store.RoleUser}
		if err := st.CreateUser(ctx, &dup); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("duplicate user: %v", err)
		}
		h2 := "h2"
		upd, err := st.UpdateUser(ctx, u.ID, store.UserUpdate{PasswordHash: &h2})
		if err != nil || upd.TokenVersion != u.TokenVersion+1 || upd.PasswordHash != "h2" {
			t.Fatalf("password update: %+v %v", upd, err)
		}
		role := store.RoleAdmin
		upd, _ = st.UpdateUser(ctx, u.ID, store.UserUpdate{Role: &role})
		if upd.TokenVersion != u.TokenVersion+1 || upd.Role != store.RoleAdmin {
			t.Fatalf("a role change must not end sessions: %+v", upd)
		}
		if _, err := st.UpdateUser(ctx, 9999, store.UserUpdate{Role: &role}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("missing user: %v", err)
		}

		tok := store.APIToken{UserID: u.ID, Name: "ci", Prefix: "ks_abc", TokenHash: "hash1"}
		if err := st.CreateToken(ctx, &tok); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteToken(ctx, u.ID+1, tok.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("another user's token deleted: %v", err)
		}
		if got, err := st.TokenByHash(ctx, "hash1"); err != nil || got.ID != tok.ID {
			t.Fatalf("token by hash: %v", err)
		}
		if err := st.DeleteToken(ctx, u.ID, tok.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := st.TokenByHash(ctx, "hash1"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("revoked token still found: %v", err)
		}
	})
}

func TestBlobsInUse(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _, n := aliceWithFile(t, dialect)
		if err := st.AddVersion(ctx, &store.FileVersion{NodeID: n.ID, Body: store.BodyRaw, BlobHash: "h1", IsText: true}); err != nil {
			t.Fatal(err)
		}
		used, err := st.BlobsInUse(ctx, []string{"h1", "h2"})
		if err != nil || !used["h1"] || used["h2"] {
			t.Fatalf("in use %v, err %v", used, err)
		}
	})
}

func TestSQLiteFilesArePrivate(t *testing.T) {
	_, dir := storetest.Open(t, store.DialectSQLite)
	for _, f := range []string{"knowspace.db", "knowspace.db-wal"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Fatalf("%s is %v, want no group or other access", f, st.Mode().Perm())
		}
	}
}

// aliceWithFile opens a store of the dialect holding the user alice and
// her file a.md, with no content yet.
func aliceWithFile(t *testing.T, dialect string) (*store.Store, store.User, store.Node) {
	t.Helper()
	ctx := context.Background()
	st, _ := storetest.Open(t, dialect)
	u := store.User{Username: "alice", PasswordHash: "h", Role: store.RoleUser}
	if err := st.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	root, err := st.EnsureRoot(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	n := store.Node{UserID: u.ID, ParentID: &root.ID, Name: "a.md", Path: "a.md", Kind: store.KindFile}
	if err := st.CreateNode(ctx, &n); err != nil {
		t.Fatal(err)
	}
	return st, u, n
}
