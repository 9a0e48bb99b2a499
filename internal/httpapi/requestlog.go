package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

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
		c.SetRequest(c.Request().WithContext(ctx))
		if err := next(c); err != nil {
			// Answered here, so the status and size below are the ones sent.
			c.Error(err)
		}
		route := c.Path()
		if !routes[route] {
			route = observe.UnmatchedRoute
		}
		status, took := c.Response().Status, time.Since(start)
		observe.HTTPRequest(route, c.Request().Method, status, took)
		level := slog.LevelInfo
		if route == "/healthz" || route == "/readyz" {
			level = slog.LevelDebug // probes every few seconds would drown the rest
		}
		user := currentUser(c).ID
		if user == 0 {
			user = doorUser.Load()
		}
		slog.Log(c.Request().Context(), level, "request", "request_id", id, "user_id", user,
			"client", c.RealIP(), "route", route, "method", c.Request().Method, "status", status,
			"duration_ms", float64(took.Microseconds())/1000, "bytes", c.Response().Size)
		return nil
	}
}

// currentRequestID is the id requestLog gave the request.
func currentRequestID(c echo.Context) string {
	id, _ := c.Get(requestIDKey).(string)
	return id
}
