// Package apptest is the test stack every package beyond a unit builds on:
// a real store (SQLite on a temporary directory, or PostgreSQL in a
// throw-away schema when KB_TEST_POSTGRES_DSN is set, see storetest), the
// blobs, the tree, the search index writer and the auth service; users
// signed in on it; the fake LLM served as a provider is reached; and the
// scenario tables API tests are written as.
//
// It imports no door and no job package, so that their own tests, internal
// ones included, can build on it.
package apptest

import (
	"context"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/sample"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// Settings every stack shares unless an Option says otherwise.
const (
	Secret        = "knowspace-test-secret-0123456789abcdef"
	UploadLimit   = 1 << 20
	SessionTTL    = time.Hour
	SessionMaxTTL = 24 * time.Hour
	// loginsPerSecond lets tests sign in at machine speed; the login
	// budget has its own tests.
	loginsPerSecond = 10_000
)

// Stack is the real store, blob store, tree, index writer and auth service
// a test builds its server or service on.
type Stack struct {
	Store *store.Store
	Dir   string // the data directory
	Blobs *blob.Store
	Tree  *knowledge.Tree
	Index *search.Index
	// Embedder is set when the stack has an embedding model (Meaning).
	Embedder *search.Embedder
	Auth     *auth.Service
}

type options struct {
	maxUpload       int64
	loginsPerSecond int
	meaning         knowledge.Meaning
}

// Meaning gives the stack an embedding model: meaning and hybrid search,
// and an embedder that writes the vectors after the index.
func Meaning(m knowledge.Meaning) Option { return func(o *options) { o.meaning = m } }

// Option changes one setting of a stack.
type Option func(*options)

// MaxUpload sets the tree's per-file upload limit (UploadLimit otherwise).
func MaxUpload(n int64) Option { return func(o *options) { o.maxUpload = n } }

// LoginsPerSecond sets the auth service's password-check budget.
func LoginsPerSecond(n int) Option { return func(o *options) { o.loginsPerSecond = n } }

// NewStack builds a stack on a fresh, migrated store of the dialect, closed
// when the test ends.
func NewStack(t testing.TB, dialect string, opts ...Option) *Stack {
	t.Helper()
	st, dir := storetest.Open(t, dialect)
	return NewStackOn(t, st, dir, opts...)
}

// NewStackAt builds a stack on the database dsn names (SQLite in dir when
// empty), with dir as the data directory: for a test that puts a proxy in
// front of the database.
func NewStackAt(t testing.TB, dsn, dir string, opts ...Option) *Stack {
	t.Helper()
	st, err := store.Open(context.Background(), dsn, dir)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return NewStackOn(t, st, dir, opts...)
}

// NewStackOn builds a stack on an open store and its data directory.
func NewStackOn(t testing.TB, st *store.Store, dir string, opts ...Option) *Stack {
	t.Helper()
	o := options{maxUpload: UploadLimit, loginsPerSecond: loginsPerSecond}
	for _, f := range opts {
		f(&o)
	}
	blobs, err := blob.Open(dir)
	if err != nil {
		t.Fatalf("open blobs: %v", err)
	}
	tree := knowledge.NewTree(st, blobs, o.maxUpload)
	svc, err := auth.New(st, sample.Seeder{Tree: tree}, auth.Options{Secret: []byte(Secret), TTL: SessionTTL, MaxTTL: SessionMaxTTL,
		BcryptCost: bcrypt.MinCost, LoginsPerSecond: o.loginsPerSecond})
	if err != nil {
		t.Fatalf("auth service: %v", err)
	}
	s := &Stack{Store: st, Dir: dir, Blobs: blobs, Tree: tree, Index: search.NewIndex(st, blobs, tree), Auth: svc}
	if o.meaning != nil {
		s.Embedder = search.NewEmbedder(s.Index, o.meaning)
	}
	return s
}
