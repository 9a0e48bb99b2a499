package observe

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// UnmatchedRoute is the one route label of every request no route matched,
// so scanners probing random paths cannot mint series.
const UnmatchedRoute = "unmatched"

// methods are the label values a method may take; others are "OTHER".
var methods = map[string]bool{http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
	"PROPFIND": true, "PROPPATCH": true, "MKCOL": true, "COPY": true, "MOVE": true, "LOCK": true, "UNLOCK": true}

// HTTPRequest records one answered request; route must be a route
// template (or UnmatchedRoute), never a raw path.
func HTTPRequest(route, method string, status int, d time.Duration) {
	if !methods[method] {
		method = "OTHER"
	}
	if status < 100 || status > 599 {
		status = 0
	}
	httpRequests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	httpDuration.WithLabelValues(route, method).Observe(d.Seconds())
}

// Handler serves the registry in the Prometheus text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(registry, promhttp.HandlerOpts{ErrorLog: slogPrinter{}})
}

type slogPrinter struct{}

func (slogPrinter) Println(v ...any) { slog.Warn("metrics: " + fmt.Sprint(v...)) }

// MetricsServer is the separate listener of GET /metrics.
type MetricsServer struct {
	ln  net.Listener
	srv *http.Server
}

// Route is one more handler on the metrics listener, for what only the
// operator should see (the full readiness answer).
type Route struct {
	Pattern string // as http.ServeMux reads it: "GET /readyz"
	Handler http.Handler
}

// Listen serves /metrics, and the extra routes, on addr (host:port). An
// empty addr serves nothing and returns nil: metrics are off unless asked
// for, so they are never public by accident.
func Listen(addr string, extra ...Route) (*MetricsServer, error) {
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("metrics_listen %s: %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", Handler())
	for _, r := range extra {
		mux.Handle(r.Pattern, r.Handler)
	}
	m := &MetricsServer{ln: ln, srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute}}
	go func() {
		if err := m.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("metrics listener stopped", "err", err)
		}
	}()
	return m, nil
}

// Addr is the address the listener is bound to (the port chosen for ":0").
func (m *MetricsServer) Addr() string { return m.ln.Addr().String() }

// Close stops the listener, letting a scrape in progress finish.
func (m *MetricsServer) Close(ctx context.Context) error { return m.srv.Shutdown(ctx) }
