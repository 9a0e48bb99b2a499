package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/observe"
)

// RequestIDHeader carries the request id in and out.
const RequestIDHeader = "X-Request-Id"

// maxRequestID bounds an incoming id: a proxy's UUID or trace id fits,
// a log-stuffing payload does not.
const maxRequestID = 128

const requestIDKey = "request_id"

// requestID is the caller's X-Request-Id when it is sane, else a new one.
func requestID(incoming string) string {
	if incoming != "" && len(incoming) <= maxRequestID {
		sane := true
		for i := 0; i < len(incoming); i++ {
			// Printable ASCII without spaces or quotes: it lands in log
			// lines and headers as it is.
			if c := incoming[i]; c <= ' ' || c > '~' || c == '"' || c == '\\' {
				sane = false
				break
			}
		}
		if sane {
			return incoming
		}
	}
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// requestLog gives each request an id (returned in X-Request-Id), counts
// it in the metrics by route template, and writes one log line: id, user
// id, client address (as the login throttle sees it), route, method,
// status, duration, bytes. Never the raw path (it holds file names), the
// query, a header or a body.
func requestLog(next echo.HandlerFunc) echo.HandlerFunc {
	var (
		once   sync.Once
		routes map[string]bool
	)
	return func(c echo.Context) error {
		once.Do(func() {
			routes = map[string]bool{}
			for _, r := range c.Echo().Routes() {
				routes[r.Path] = true
			}
		})
		start := time.Now()
		id := requestID(c.Request().Header.Get(RequestIDHeader))
		c.Set(requestIDKey, id)
		c.Response().Header().Set(RequestIDHeader, id)
		ctx, doorUser := observe.WithUserSlot(c.Request().Context())
		// A stream whose connection its turn took is logged when it ends,
		// with its whole time and bytes.
		taken := &takenLog{start: start}
		ctx = agent.WithTaken(ctx, taken.take)
		c.SetRequest(c.Request().WithContext(ctx))
		if err := next(c); err != nil {
			// Answered here, so the status and size below are the ones sent.
			c.Error(err)
		}
		line := requestLine(c, routes, id, doorUser.Load())
		if !taken.describe(line) {
			line.log(c.Response().Status, time.Since(start), c.Response().Size)
		}
		return nil
	}
}

// takenLog is the log line of a stream whose connection was taken: it is
// written at the later of the handler's return, which says what the line
// tells of the request, and the stream's end, which says its time and
// bytes. It holds nothing of the request itself while the stream runs.
type takenLog struct {
	start   time.Time
	mu      sync.Mutex
	taken   bool
	ended   bool
	line    *logLine
	took    time.Duration
	written int64
}

func (t *takenLog) take() func(int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.taken = true
	return t.end
}

func (t *takenLog) end(written int64) {
	t.mu.Lock()
	t.ended, t.took, t.written = true, time.Since(t.start), written
	line := t.line
	t.mu.Unlock()
	if line != nil {
		line.log(http.StatusOK, t.took, written)
	}
}

// describe gives the line; false when the connection was not taken and
// the request is logged as usual.
func (t *takenLog) describe(line logLine) bool {
	t.mu.Lock()
	if !t.taken {
		t.mu.Unlock()
		return false
	}
	t.line = &line
	ended := t.ended
	t.mu.Unlock()
	if ended {
		line.log(http.StatusOK, t.took, t.written)
	}
	return true
}

// logLine is what a request's log line says besides its outcome.
type logLine struct {
	ctx                       context.Context
	id, client, route, method string
	user                      int64
}

func requestLine(c echo.Context, routes map[string]bool, id string, doorUser int64) logLine {
	route := c.Path()
	if !routes[route] {
		route = observe.UnmatchedRoute
	}
	user := currentUser(c).ID
	if user == 0 {
		user = doorUser
	}
	return logLine{ctx: context.WithoutCancel(c.Request().Context()), id: id, client: c.RealIP(), route: route, method: c.Request().Method, user: user}
}

func (l logLine) log(status int, took time.Duration, bytes int64) {
	observe.HTTPRequest(l.route, l.method, status, took)
	level := slog.LevelInfo
	if l.route == "/healthz" || l.route == "/readyz" {
		level = slog.LevelDebug // probes every few seconds would drown the rest
	}
	slog.Log(l.ctx, level, "request", "request_id", l.id, "user_id", l.user,
		"client", l.client, "route", l.route, "method", l.method, "status", status,
		"duration_ms", float64(took.Microseconds())/1000, "bytes", bytes)
}

// currentRequestID is the id requestLog gave the request.
func currentRequestID(c echo.Context) string {
	id, _ := c.Get(requestIDKey).(string)
	return id
}
