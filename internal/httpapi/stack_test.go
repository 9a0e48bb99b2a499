package httpapi

import (
	"context"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// Test stack settings shared by every API test server.
const (
	TestSecret        = "knowspace-test-secret-0123456789abcdef"
	TestUploadLimit   = 1 << 20
	TestSessionTTL    = time.Hour
	TestSessionMaxTTL = 24 * time.Hour
)

// TestStack is the real store, blob directory, tree, index writer and auth
// service an API test server is built from. It is exported for the
// external test package.
type TestStack struct {
	Store *store.Store
	Dir   string
	Tree  *knowledge.Tree
	Index *search.Index
	Auth  *auth.Service
}

// NewTestStack builds a stack on the dialect with fast bcrypt.
func NewTestStack(t testing.TB, dialect string) TestStack {
	t.Helper()
	st, dir := storetest.Open(t, dialect)
	return NewTestStackOn(t, st, dir)
}

// NewTestStackAt builds a stack on the database dsn names (SQLite in dir
// when empty) with dir as the data directory: a test that puts a proxy
// in front of the database, or the data on a small file system.
func NewTestStackAt(t testing.TB, dsn, dir string) TestStack {
	t.Helper()
	st, err := store.Open(context.Background(), dsn, dir)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return NewTestStackOn(t, st, dir)
}

// NewTestStackOn builds a stack on an open store and its data directory.
func NewTestStackOn(t testing.TB, st *store.Store, dir string) TestStack {
	t.Helper()
	blobs, err := blob.Open(dir)
	if err != nil {
		t.Fatalf("open blobs: %v", err)
	}
	tree := knowledge.NewTree(st, blobs, TestUploadLimit)
	// Tests sign in at machine speed; the login budget has its own tests.
	svc, err := auth.New(st, tree, auth.Options{Secret: []byte(TestSecret), TTL: TestSessionTTL, MaxTTL: TestSessionMaxTTL,
		BcryptCost: bcrypt.MinCost, LoginsPerSecond: 10_000})
	if err != nil {
		t.Fatalf("auth service: %v", err)
	}
	return TestStack{Store: st, Dir: dir, Tree: tree, Index: search.NewIndex(st, blobs, tree), Auth: svc}
}

// SignIn creates each user (password "password-<name>") and returns their
// session tokens by name.
func (s TestStack) SignIn(t testing.TB, names ...string) map[string]string {
	t.Helper()
	ctx := context.Background()
	tokens := map[string]string{}
	for _, name := range names {
		if _, err := s.Auth.CreateUser(ctx, name, "password-"+name, store.RoleUser); err != nil {
			t.Fatal(err)
		}
		sess, err := s.Auth.Login(ctx, name, "password-"+name, "test")
		if err != nil {
			t.Fatal(err)
		}
		tokens[name] = sess.Token
	}
	return tokens
}
