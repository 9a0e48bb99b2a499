package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// schemaOf describes tables, columns and indexes in a comparable form.
func schemaOf(t *testing.T, db *sql.DB, dialect string) string {
	t.Helper()
	q := `SELECT type || ' ' || name || ' ' || COALESCE(sql, '') FROM sqlite_master
	      WHERE name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version' ORDER BY type, name`
	if dialect == store.DialectPostgres {
		q = `SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '')
		     FROM information_schema.columns WHERE table_schema = current_schema() AND table_name <> 'goose_db_version'
		     UNION ALL
		     SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename <> 'goose_db_version'
		     ORDER BY 1`
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return strings.Join(out, "\n")
}

func rawDB(t *testing.T, dialect, dsn, dir string) *sql.DB {
	t.Helper()
	driver, src := "sqlite3", store.SQLiteDSN(filepath.Join(dir, "knowspace.db"))
	if dialect == store.DialectPostgres {
		driver, src = "pgx", dsn
	}
	db, err := sql.Open(driver, src)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestUpgradeMatchesFreshInstall applies the first migration, writes data,
// then lets the store finish the upgrade: the schema must equal a fresh
// install's and the data must survive.
func TestUpgradeMatchesFreshInstall(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		freshDSN, freshDir := storetest.Empty(t, dialect)
		fresh, err := store.Open(ctx, freshDSN, freshDir)
		if err != nil {
			t.Fatal(err)
		}
		defer fresh.Close()

		oldDSN, oldDir := storetest.Empty(t, dialect)
		old := rawDB(t, dialect, oldDSN, oldDir)
		if err := store.MigrateTo(ctx, old, dialect, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := old.Exec(`INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('early', 'h', 'user', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`); err != nil {
			t.Fatal(err)
		}
		upgraded, err := store.Open(ctx, oldDSN, oldDir)
		if err != nil {
			t.Fatal(err)
		}
		defer upgraded.Close()
		if _, err := upgraded.UserByUsername(ctx, "early"); err != nil {
			t.Fatalf("data lost in the upgrade: %v", err)
		}
		a := schemaOf(t, rawDB(t, dialect, freshDSN, freshDir), dialect)
		b := schemaOf(t, old, dialect)
		if dialect == store.DialectPostgres {
			a, b = stripSchema(a), stripSchema(b)
		}
		if !strings.Contains(a, "jobs") || !strings.Contains(a, "nodes") {
			t.Fatalf("schema query saw no tables:\n%s", a)
		}
		if a != b {
			t.Fatalf("upgraded schema differs from a fresh install:\nfresh:\n%s\n\nupgraded:\n%s", a, b)
		}
	})
}

// stripSchema removes the throw-away schema names from index definitions.
func stripSchema(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, " ON kstest_"); i >= 0 {
			j := strings.IndexByte(line[i+4:], '.')
			line = line[:i+4] + line[i+4+j+1:]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// TestPageStartsLeaveTheExtraction: the upgrade moves a parsed PDF's page
// starts out of its extraction JSON into their own column, in order, and
// keeps the rest of the extraction.
func TestPageStartsLeaveTheExtraction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		dsn, dir := storetest.Empty(t, dialect)
		old := rawDB(t, dialect, dsn, dir)
		if err := store.MigrateTo(ctx, old, dialect, 16); err != nil {
			t.Fatal(err)
		}
		how := `{"format":"pdf","extractor":"pdfium","pages":12,"page_starts":[{"page":1,"offset":0},{"page":3,"offset":120},{"page":12,"offset":98765}]}`
		for _, q := range []string{
			`INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('early', 'h', 'user', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
			`INSERT INTO nodes (user_id, name, path, kind, created_at, updated_at) SELECT id, 'book.pdf', 'book.pdf', 'file', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM users`,
			`INSERT INTO file_versions (node_id, body, version, blob_hash, size, is_text, created_at) SELECT id, 'raw', 1, 'h1', 9, FALSE, CURRENT_TIMESTAMP FROM nodes`,
			`INSERT INTO file_versions (node_id, body, version, blob_hash, size, is_text, created_at, extraction_json) SELECT id, 'l2', 1, 'h2', 9, TRUE, CURRENT_TIMESTAMP, '` + how + `' FROM nodes`,
			`INSERT INTO file_versions (node_id, body, version, blob_hash, size, is_text, created_at, extraction_json) SELECT id, 'l2', 2, 'h3', 9, TRUE, CURRENT_TIMESTAMP, '{"format":"docx"}' FROM nodes`,
		} {
			if _, err := old.Exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		st, err := store.Open(ctx, dsn, dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var starts, how2 [2]string
		rows, err := old.Query(`SELECT page_starts, extraction_json FROM file_versions WHERE body = 'l2' ORDER BY version`)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; rows.Next() && i < 2; i++ {
			if err := rows.Scan(&starts[i], &how2[i]); err != nil {
				t.Fatal(err)
			}
		}
		rows.Close()
		if starts != [2]string{"1:0,3:120,12:98765", ""} {
			t.Fatalf("page starts %q", starts)
		}
		for _, want := range []string{`"format":`, `"pdf"`, `"pages":`, `12`, `"extractor":`} {
			if !strings.Contains(how2[0], want) || strings.Contains(how2[0], "page_starts") {
				t.Fatalf("extraction after the upgrade: %s", how2[0])
			}
		}
		if how2[1] != `{"format":"docx"}` {
			t.Fatalf("an extraction without page starts was rewritten: %s", how2[1])
		}
	})
}

// TestTrigramIndexOfBeforeIsDropped: the upgrade to the index of distinct
// trigrams (00036) leaves no row of the old trigram table to answer: no
// body counts as indexed, and the index is not ready, so searches read the
// files until the server's rebuild at start has written them again.
func TestTrigramIndexOfBeforeIsDropped(t *testing.T) {
	ctx := context.Background()
	dsn, dir := storetest.Empty(t, store.DialectSQLite)
	old := rawDB(t, store.DialectSQLite, dsn, dir)
	if err := store.MigrateTo(ctx, old, store.DialectSQLite, 35); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO users (username, password_hash, role, created_at, updated_at) VALUES ('early', 'h', 'user', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
		`INSERT INTO nodes (user_id, name, path, kind, created_at, updated_at) SELECT id, 'a.md', 'a.md', 'file', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM users`,
		`INSERT INTO search_docs (node_id, version_id, indexed, pending) SELECT id, 1, true, false FROM nodes`,
		`INSERT INTO search_chunks (id, node_id) SELECT 7, id FROM nodes`,
		`INSERT INTO search_fts (rowid, body) VALUES (7, 'the quokka text')`,
		`INSERT INTO search_meta (k, v) VALUES ('index_version', 'fts5-trigram-folded-chunks-2+rank-porter-bigram-1'), ('index_state', 'ready')`,
	} {
		if _, err := old.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	st, err := store.Open(ctx, dsn, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var chunks, indexed, rows int
	if err := old.QueryRow(`SELECT (SELECT COUNT(*) FROM search_chunks), (SELECT COUNT(*) FROM search_docs WHERE indexed), (SELECT COUNT(*) FROM search_fts)`).Scan(&chunks, &indexed, &rows); err != nil {
		t.Fatal(err)
	}
	if chunks != 0 || indexed != 0 || rows != 0 {
		t.Fatalf("after the upgrade: %d chunks, %d bodies indexed, %d rows of the trigram table", chunks, indexed, rows)
	}
	if ready, err := st.SearchIndexReady(ctx); err != nil || ready {
		t.Fatalf("the old index counts as ready: %v %v", ready, err)
	}
	// The new table takes the words the writer gives it, whole.
	if _, err := old.Exec(`INSERT INTO search_fts (rowid, body) VALUES (8, '717561 756f6b')`); err != nil {
		t.Fatal(err)
	}
	if err := old.QueryRow(`SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH '"717561" AND "756f6b"'`).Scan(&rows); err != nil || rows != 1 {
		t.Fatalf("the new table answers %d rows, %v", rows, err)
	}
}
