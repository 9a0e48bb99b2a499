package httpapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

type readyJSON struct {
	Status     string `json:"status"`
	Database   string `json:"database"`
	Migrations int64  `json:"migrations"`
	Workers    int    `json:"workers"`
}

// readyz answers /readyz: its status and the error's code and message.
func (e *obsEnv) readyz() (int, readyJSON, string, string) {
	e.t.Helper()
	res := e.do("GET", "/readyz", "", nil)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var ok readyJSON
	var bad struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if res.StatusCode == 200 {
		if err := json.Unmarshal(b, &ok); err != nil {
			e.t.Fatalf("readyz body %s: %v", b, err)
		}
	} else if err := json.Unmarshal(b, &bad); err != nil || bad.Error.Code == "" {
		e.t.Fatalf("readyz %d body is not the error shape: %s", res.StatusCode, b)
	}
	return res.StatusCode, ok, bad.Error.Code, bad.Error.Message
}

func TestReadyzChecksDatabaseMigrationsAndWorkers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := obsSetup(t, dialect, 2)
		_, latest, err := e.stack.Store.MigrationVersions(context.Background())
		if err != nil {
			t.Fatal(err)
		}

		// Configured for two workers, none started: alive, not ready.
		status, _, code, msg := e.readyz()
		if status != 503 || code != "not_ready" || !strings.Contains(msg, "workers") || !strings.Contains(msg, "0 of 2") {
			t.Fatalf("before the workers: %d %s %q", status, code, msg)
		}
		e.call("GET", "/healthz", "", nil, 200)

		pool := e.comp.Start(2)
		status, body, _, msg := e.readyz()
		if status != 200 {
			t.Fatalf("with workers: %d %q", status, msg)
		}
		want := readyJSON{Status: "ready", Database: dialect, Migrations: latest, Workers: 2}
		if body != want || latest < 11 {
			t.Fatalf("ready body %+v, want %+v", body, want)
		}
		if err := pool.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
		if status, _, _, msg := e.readyz(); status != 503 || !strings.Contains(msg, "workers") {
			t.Fatalf("after the workers stopped: %d %q", status, msg)
		}

		// A closed database: not ready, and the message says so.
		e.stack.Store.Close()
		status, _, code, msg = e.readyz()
		if status != 503 || code != "not_ready" || !strings.Contains(msg, "database") {
			t.Fatalf("closed database: %d %s %q", status, code, msg)
		}
	})
}

// TestReadyzWaitsForMigrations: a schema one version behind the binary is
// not ready (SQLite, whose file the test can reach; the store test covers
// the version check on PostgreSQL).
func TestReadyzWaitsForMigrations(t *testing.T) {
	e := obsSetup(t, store.DialectSQLite, 0)
	if status, body, _, msg := e.readyz(); status != 200 || body.Workers != 0 || body.Database != "sqlite" {
		t.Fatalf("API-only replica: %d %+v %q", status, body, msg)
	}
	raw, err := sql.Open("sqlite3", "file:"+filepath.Join(e.stack.Dir, "knowspace.db")+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`DELETE FROM goose_db_version WHERE version_id = (SELECT MAX(version_id) FROM goose_db_version)`); err != nil {
		t.Fatal(err)
	}
	status, _, code, msg := e.readyz()
	if status != 503 || code != "not_ready" || !strings.Contains(msg, "migrations") || !strings.Contains(msg, "needs") {
		t.Fatalf("schema behind: %d %s %q", status, code, msg)
	}
}
