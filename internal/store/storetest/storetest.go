// Package storetest builds real stores for tests: SQLite on a temporary
// directory always, and PostgreSQL in a throw-away schema when
// KB_TEST_POSTGRES_DSN is set.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for schema set-up

	"github.com/knowspace/knowspace/internal/store"
)

// Dialects lists the dialects tests should cover on this machine.
func Dialects() []string {
	if os.Getenv("KB_TEST_POSTGRES_DSN") != "" {
		return []string{store.DialectSQLite, store.DialectPostgres}
	}
	return []string{store.DialectSQLite}
}

// Each runs fn once per available dialect as a subtest.
func Each(t *testing.T, fn func(t *testing.T, dialect string)) {
	for _, d := range Dialects() {
		t.Run(d, func(t *testing.T) { fn(t, d) })
	}
}

// Open returns a migrated store of the dialect, closed when the test ends,
// plus the data directory it uses.
func Open(t testing.TB, dialect string) (*store.Store, string) {
	t.Helper()
	dsn, dir := Empty(t, dialect)
	st, err := store.Open(context.Background(), dsn, dir)
	if err != nil {
		t.Fatalf("open %s store: %v", dialect, err)
	}
	t.Cleanup(func() { st.Close() })
	return st, dir
}

// Empty returns the DSN and data directory of an empty database of the
// dialect (the DSN is "" for SQLite, whose file lives in the directory).
func Empty(t testing.TB, dialect string) (dsn, dir string) {
	t.Helper()
	if dialect == store.DialectPostgres {
		return freshSchema(t), t.TempDir()
	}
	return "", t.TempDir()
}

var (
	trgmOnce   sync.Once
	vectorOnce sync.Once
	trgmErr    error
)

// freshSchema creates an empty schema and returns a DSN whose search_path
// points at it, so parallel tests never see each other's rows.
func freshSchema(t testing.TB) string {
	t.Helper()
	base := os.Getenv("KB_TEST_POSTGRES_DSN")
	b := make([]byte, 6)
	rand.Read(b)
	schema := "kstest_" + hex.EncodeToString(b)
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	// Parallel migrations would race to install the extension they share.
	trgmOnce.Do(func() { _, trgmErr = db.Exec("CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public") })
	if trgmErr != nil {
		db.Close()
		t.Fatalf("install pg_trgm: %v", trgmErr)
	}
	// pgvector too where the server has it (meaning search's tests say so
	// when it lacks it): installed once, as tests would race to.
	vectorOnce.Do(func() { db.Exec("CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public") })
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		db.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		db.Exec("DROP SCHEMA " + schema + " CASCADE")
		db.Close()
	})
	sep := "?"
	if strings.Contains(base, "?") {
		sep = "&"
	}
	return base + sep + "search_path=" + schema
}

// NeedVector skips a PostgreSQL test when the server lacks pgvector
// (meaning search's vectors); SQLite always has sqlite-vec.
func NeedVector(t testing.TB, dialect string) {
	t.Helper()
	if dialect != store.DialectPostgres {
		return
	}
	db, err := sql.Open("pgx", os.Getenv("KB_TEST_POSTGRES_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Skip("this PostgreSQL server lacks pgvector (../shared/tools/install-pgvector builds it)")
	}
}
