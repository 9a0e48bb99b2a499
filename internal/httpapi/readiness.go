package httpapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// readyTimeout bounds the database checks of one probe.
const readyTimeout = 3 * time.Second

// readyBody is what an administrator (or the metrics listener) hears;
// anyone else hears only the status, since the database kind, schema
// version and OCR engine's version tell an attacker what to aim at.
type readyBody struct {
	Status     string `json:"status"`
	Database   string `json:"database"`
	Migrations int64  `json:"migrations"`
	Workers    int    `json:"workers"`
	// OCR says whether scanned pages and images can be read, and with
	// which languages; its absence is not unreadiness.
	OCR extract.OCRStatus `json:"ocr"`
}

type readyStatus struct {
	Status string `json:"status"`
}

func notReady(format string, args ...any) *apierr.Error {
	return apierr.New(http.StatusServiceUnavailable, apierr.CodeNotReady, format, args...)
}

// ready answers 200 only when this replica can do its work: the database
// answers, its schema is at the version this binary embeds, its disks have
// min_free_bytes free, and the workers it is configured to run are running. /healthz stays liveness.
// Why it is not ready, and what it runs, only an administrator hears; the
// reason is logged either way.
func (h *handlers) ready(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
	defer cancel()
	body, err := h.readiness(ctx)
	details := h.seesReadyDetails(ctx, c)
	switch {
	case err != nil && details:
		return err
	case err != nil:
		return notReady("this replica is not ready").WithCause(err)
	case details:
		return c.JSON(http.StatusOK, body)
	}
	return c.JSON(http.StatusOK, readyStatus{Status: body.Status})
}

func (h *handlers) readiness(ctx context.Context) (readyBody, error) {
	if err := h.Store.Ping(ctx); err != nil {
		return readyBody{}, notReady("database: %s is not reachable", h.Store.Dialect()).WithCause(err)
	}
	current, latest, err := h.Store.MigrationVersions(ctx)
	if err != nil {
		return readyBody{}, notReady("migrations: the schema version cannot be read").WithCause(err)
	}
	if current < latest {
		return readyBody{}, notReady("migrations: the database is at version %d, this server needs %d", current, latest)
	}
	if err := h.Space.check(); err != nil {
		return readyBody{}, err
	}
	running := 0
	if h.Compile != nil {
		running = h.Compile.WorkersRunning()
	}
	if running < h.Workers {
		return readyBody{}, notReady("workers: %d of %d compile workers are running", running, h.Workers)
	}
	return readyBody{Status: "ready", Database: h.Store.Dialect(), Migrations: current, Workers: running,
		OCR: h.OCR.Status()}, nil
}

type readyDetailsKey struct{}

// ReadyDetails serves next (the API) with /readyz answering in full, for
// the metrics listener: what reaches that port is the operator's.
func ReadyDetails(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), readyDetailsKey{}, true)))
	})
}

// seesReadyDetails: the metrics listener, or an administrator's unscoped
// bearer credential. A missing or wrong one is no error here: the
// proxy's health check sends none.
func (h *handlers) seesReadyDetails(ctx context.Context, c echo.Context) bool {
	if full, _ := ctx.Value(readyDetailsKey{}).(bool); full {
		return true
	}
	scheme, token, ok := strings.Cut(c.Request().Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	p, err := h.Auth.AuthenticatePrincipal(ctx, strings.TrimSpace(token))
	return err == nil && p.User.Role == store.RoleAdmin && !p.Scoped()
}

// Space is where this replica writes files, which /readyz watches: a
// replica whose disk is nearly full takes no more traffic before every
// write answers 507.
type Space struct {
	DataDir string // the database (SQLite), blobs and staged uploads
	TempDir string // extraction and page drawing
	// MinFree is the floor: under this many free bytes in either
	// directory the replica is not ready. Zero checks nothing.
	MinFree int64
}

func (s Space) check() error {
	if s.MinFree <= 0 {
		return nil
	}
	for _, d := range []struct{ name, path string }{{"data", s.DataDir}, {"temp", s.TempDir}} {
		if d.path == "" {
			continue
		}
		if free, ok := observe.FreeBytes(d.path); ok && free < s.MinFree {
			// The path is the operator's to know, not an anonymous prober's.
			return notReady("disk: the %s directory has %d bytes free, under the floor of %d (min_free_bytes)", d.name, free, s.MinFree)
		}
	}
	return nil
}
