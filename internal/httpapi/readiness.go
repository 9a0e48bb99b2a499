package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/observe"
)

// readyTimeout bounds the database checks of one probe.
const readyTimeout = 3 * time.Second

type readyBody struct {
	Status     string `json:"status"`
	Database   string `json:"database"`
	Migrations int64  `json:"migrations"`
	Workers    int    `json:"workers"`
	// OCR says whether scanned pages and images can be read, and with
	// which languages; its absence is not unreadiness.
	OCR extract.OCRStatus `json:"ocr"`
}

func notReady(format string, args ...any) *apierr.Error {
	return apierr.New(http.StatusServiceUnavailable, "not_ready", format, args...)
}

// ready answers 200 only when this replica can do its work: the database
// answers, its schema is at the version this binary embeds, and the
// workers it is configured to run are running. /healthz stays liveness.
func (h *handlers) ready(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
	defer cancel()
	if err := h.Store.Ping(ctx); err != nil {
		return notReady("database: %s is not reachable", h.Store.Dialect()).WithCause(err)
	}
	current, latest, err := h.Store.MigrationVersions(ctx)
	if err != nil {
		return notReady("migrations: the schema version cannot be read").WithCause(err)
	}
	if current < latest {
		return notReady("migrations: the database is at version %d, this server needs %d", current, latest)
	}
	if err := h.Space.check(); err != nil {
		return err
	}
	running := 0
	if h.Compile != nil {
		running = h.Compile.WorkersRunning()
	}
	if running < h.Workers {
		return notReady("workers: %d of %d compile workers are running", running, h.Workers)
	}
	return c.JSON(http.StatusOK, readyBody{Status: "ready", Database: h.Store.Dialect(), Migrations: current, Workers: running,
		OCR: h.OCR.Status()})
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
