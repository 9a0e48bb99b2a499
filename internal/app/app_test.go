package app_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestMain doubles as the extraction child the app starts to warm the PDF
// engine.
func TestMain(m *testing.M) {
	if extract.IsChild() {
		os.Exit(extract.ChildMain())
	}
	slog.SetDefault(slog.New(slog.DiscardHandler))
	os.Exit(m.Run())
}

// testConfig is the config the binary would load from these settings, on
// a fresh database of the dialect.
func testConfig(t *testing.T, dialect string, settings map[string]string) config.Config {
	t.Helper()
	dsn, dir := storetest.Empty(t, dialect)
	env := map[string]string{"KB_DATA_DIR": dir, "KB_DATABASE_DSN": dsn, "KB_LISTEN": "127.0.0.1:0"}
	for k, v := range settings {
		env[k] = v
	}
	cfg, err := config.Load("", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestAppServesAndStops builds the app from a config, serves the API on
// the configured address with the configured admin, and stops when its
// context ends.
func TestAppServesAndStops(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		cfg := testConfig(t, dialect, map[string]string{"KB_ADMIN_PASSWORD": "app-admin-password", "KB_WORKERS": "1"})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		a, err := app.New(ctx, cfg, app.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if a.GeneratedPassword() != "" {
			t.Errorf("a configured admin password was generated anew")
		}
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
		api := apptest.Client{URL: "http://" + a.Addr()}
		if r := api.Do(t, http.MethodGet, "/healthz", "", nil); r.Status != http.StatusOK {
			t.Fatalf("healthz: %s", r)
		}
		sess, err := a.Auth.Login(ctx, "admin", "app-admin-password", "test")
		if err != nil {
			t.Fatal(err)
		}
		if r := api.Do(t, http.MethodGet, "/api/v1/resources?uri=kb://me/", sess.Token, nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), "Welcome.md") {
			t.Fatalf("the admin's sample tree: %s", r)
		}
		cancel()
		if err := a.Wait(ctx); err != nil {
			t.Fatalf("stop: %v", err)
		}
	})
}

// TestAppHandlerWithoutListening: the handler serves before Start, a
// first admin without a configured password gets a generated one, and the
// fake LLM's models come first when asked for.
func TestAppHandlerWithoutListening(t *testing.T) {
	cfg := testConfig(t, "sqlite", nil)
	a, err := app.New(context.Background(), cfg, app.Options{FakeLLM: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if a.GeneratedPassword() == "" {
		t.Errorf("no admin password was configured, and none was generated")
	}
	opts := a.Models().Options()
	if len(opts) < 2 || opts[0].ID != "fake" || opts[1].ID != "fake-text" {
		t.Fatalf("models with the fake: %+v", opts)
	}
	rec := httptest.NewRecorder()
	a.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("healthz through the handler: %d %s", rec.Code, rec.Body)
	}
}
