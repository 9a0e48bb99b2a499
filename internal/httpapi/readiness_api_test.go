package httpapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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

// signInAdmin adds an administrator "root" to e.tokens.
func (e *apiEnv) signInAdmin() string {
	e.t.Helper()
	e.tokens["root"] = e.stack.NewUser(e.t, "root", store.RoleAdmin).Token
	return "root"
}

// readyz answers /readyz as user: its status and the error's code and
// message.
func (e *apiEnv) readyz(user string) (int, readyJSON, string, string) {
	e.t.Helper()
	res := e.open("GET", "/readyz", user, nil)
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
		admin := e.signInAdmin()
		_, latest, err := e.stack.Store.MigrationVersions(context.Background())
		if err != nil {
			t.Fatal(err)
		}

		// Configured for two workers, none started: alive, not ready.
		status, _, code, msg := e.readyz(admin)
		if status != 503 || code != "not_ready" || !strings.Contains(msg, "workers") || !strings.Contains(msg, "0 of 2") {
			t.Fatalf("before the workers: %d %s %q", status, code, msg)
		}
		e.expect("GET", "/healthz", "", nil, 200)

		pool := e.svc.Start(2)
		status, body, _, msg := e.readyz(admin)
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
		if status, _, _, msg := e.readyz(admin); status != 503 || !strings.Contains(msg, "workers") {
			t.Fatalf("after the workers stopped: %d %q", status, msg)
		}

		// A closed database: not ready. No token can be checked without
		// it, so only the metrics listener's door says why.
		e.stack.Store.Close()
		status, _, code, msg = e.readyz(admin)
		if status != 503 || code != "not_ready" || msg != "this replica is not ready" {
			t.Fatalf("closed database, as the admin: %d %s %q", status, code, msg)
		}
		metrics := httptest.NewServer(ReadyDetails(e.echo))
		defer metrics.Close()
		e.srv.URL = metrics.URL
		status, _, code, msg = e.readyz("")
		if status != 503 || code != "not_ready" || !strings.Contains(msg, "database") {
			t.Fatalf("closed database, on the metrics listener: %d %s %q", status, code, msg)
		}
	})
}

// TestReadyzWaitsForMigrations: a schema one version behind the binary is
// not ready (SQLite, whose file the test can reach; the store test covers
// the version check on PostgreSQL).
func TestReadyzWaitsForMigrations(t *testing.T) {
	e := obsSetup(t, store.DialectSQLite, 0)
	admin := e.signInAdmin()
	if status, body, _, msg := e.readyz(admin); status != 200 || body.Workers != 0 || body.Database != "sqlite" {
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
	status, _, code, msg := e.readyz(admin)
	if status != 503 || code != "not_ready" || !strings.Contains(msg, "migrations") || !strings.Contains(msg, "needs") {
		t.Fatalf("schema behind: %d %s %q", status, code, msg)
	}
}

// TestReadyzDetailsOnlyForAdmins: /readyz tells anyone whether the replica
// is ready, and only an administrator's token also what it runs (the
// database kind, the schema version, the workers, the OCR engine's
// version) or why it is not ready.
func TestReadyzDetailsOnlyForAdmins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := obsSetup(t, dialect, 1)
		admin := e.signInAdmin()
		raw := func(user string) (int, string) {
			req, _ := http.NewRequest("GET", e.srv.URL+"/readyz", nil)
			if tok, ok := e.tokens[user]; ok {
				req.Header.Set("Authorization", "Bearer "+tok)
			} else if user != "" {
				req.Header.Set("Authorization", "Bearer "+user)
			}
			res, err := CheckedClient(t).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, strings.TrimSpace(string(b))
		}
		outsiders := []string{"", "alice", "not-a-token"}

		// The worker is not running: not ready, and only the admin hears why.
		for _, user := range outsiders {
			status, body := raw(user)
			if status != 503 || body != `{"error":{"code":"not_ready","message":"this replica is not ready"}}` {
				t.Fatalf("not ready, as %q: %d %s", user, status, body)
			}
		}
		if status, _, code, msg := e.readyz(admin); status != 503 || code != "not_ready" || msg != "workers: 0 of 1 compile workers are running" {
			t.Fatalf("not ready, as the admin: %d %s %q", status, code, msg)
		}

		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		for _, user := range outsiders {
			if status, body := raw(user); status != 200 || body != `{"status":"ready"}` {
				t.Fatalf("ready, as %q: %d %s", user, status, body)
			}
		}
		status, body := raw(admin)
		var details map[string]any
		if err := json.Unmarshal([]byte(body), &details); err != nil || status != 200 {
			t.Fatalf("ready, as the admin: %d %s", status, body)
		}
		ocr, _ := details["ocr"].(map[string]any)
		if details["status"] != "ready" || details["database"] != dialect || details["migrations"] == nil || details["workers"] != float64(1) || ocr["available"] == nil {
			t.Fatalf("ready, as the admin: %s", body)
		}
	})
}

// TestReadyzDetailsOnTheMetricsListener: what cmd/server mounts on the
// metrics port answers in full without a token.
func TestReadyzDetailsOnTheMetricsListener(t *testing.T) {
	e := obsSetup(t, store.DialectSQLite, 0)
	metrics := httptest.NewServer(ReadyDetails(e.echo))
	defer metrics.Close()
	e.srv.URL = metrics.URL
	if status, body, _, msg := e.readyz(""); status != 200 || body.Database != "sqlite" || body.Migrations < 11 {
		t.Fatalf("on the metrics listener: %d %+v %q", status, body, msg)
	}
}
