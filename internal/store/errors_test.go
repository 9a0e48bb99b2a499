package store

import (
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/mattn/go-sqlite3"

	"github.com/knowspace/knowspace/internal/apierr"
)

// The database's own words for "full" and "gone" reach every handler's
// apierr.Internal as the one fault they are; other errors stay 500.
func TestTranslatedFaultsAnswerAsThemselves(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"postgres disk_full", &pgconn.PgError{Code: "53100"}, http.StatusInsufficientStorage, "insufficient_storage"},
		{"sqlite full", sqlite3.Error{Code: sqlite3.ErrFull}, http.StatusInsufficientStorage, "insufficient_storage"},
		{"postgres admin_shutdown", &pgconn.PgError{Code: "57P01"}, http.StatusServiceUnavailable, "unavailable"},
		{"postgres cannot_connect_now", &pgconn.PgError{Code: "57P03"}, http.StatusServiceUnavailable, "unavailable"},
		{"postgres too_many_connections", &pgconn.PgError{Code: "53300"}, http.StatusServiceUnavailable, "unavailable"},
		{"postgres connection_failure", &pgconn.PgError{Code: "08006"}, http.StatusServiceUnavailable, "unavailable"},
		{"connection cut", fmt.Errorf("failed to receive message: %w", io.ErrUnexpectedEOF), http.StatusServiceUnavailable, "unavailable"},
		{"postgres syntax error", &pgconn.PgError{Code: "42601"}, http.StatusInternalServerError, "internal"},
		{"sqlite corrupt", sqlite3.Error{Code: sqlite3.ErrCorrupt}, http.StatusInternalServerError, "internal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := apierr.Internal("translate", translate(tc.err))
			if e.Status != tc.status || e.Code.String() != tc.code {
				t.Fatalf("got %d %s, want %d %s", e.Status, e.Code, tc.status, tc.code)
			}
			if unavailable := e.Status == http.StatusServiceUnavailable; unavailable != (e.RetryAfter > 0) {
				t.Fatalf("%d with Retry-After %s", e.Status, e.RetryAfter)
			}
		})
	}
}
