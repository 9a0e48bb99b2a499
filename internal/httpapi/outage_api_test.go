package httpapi_test

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// tcpProxy stands between the server and PostgreSQL so a test can take
// the database away without touching the shared server: Close refuses
// new connections and cuts the open ones, Open listens again on the same
// address, Cut ends the open connections and keeps listening.
type tcpProxy struct {
	t      *testing.T
	addr   string
	target string

	mu    sync.Mutex
	ln    net.Listener
	conns map[net.Conn]bool
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	p := &tcpProxy{t: t, target: target, conns: map[net.Conn]bool{}}
	p.listen("127.0.0.1:0")
	t.Cleanup(p.Close)
	return p
}

func (p *tcpProxy) listen(addr string) {
	p.t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatalf("proxy listen: %v", err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go p.accept(ln)
}

func (p *tcpProxy) accept(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		if p.ln != ln { // closed meanwhile
			p.mu.Unlock()
			c.Close()
			up.Close()
			return
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

func (p *tcpProxy) pipe(dst, src net.Conn) {
	_, _ = io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// Cut ends every open connection; new ones are still accepted.
func (p *tcpProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Close takes the database away: nothing answers at the address.
func (p *tcpProxy) Close() {
	p.mu.Lock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	p.mu.Unlock()
	p.Cut()
}

// Open brings the database back at the same address.
func (p *tcpProxy) Open() { p.listen(p.addr) }

// proxiedEnv is the API on a fresh PostgreSQL schema reached through a
// proxy the test controls.
func proxiedEnv(t *testing.T) (*env, *tcpProxy) {
	t.Helper()
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		t.Skip("KB_TEST_POSTGRES_DSN is not set: the outage scenarios need PostgreSQL")
	}
	dsn, dir := storetest.Empty(t, store.DialectPostgres)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	p := newTCPProxy(t, u.Host)
	u.Host = p.addr
	return newEnvOn(t, apptest.NewStackAt(t, u.String(), dir), httpapi.Deps{}), p
}

// wantUnavailable checks a 503 unavailable answer that says when to try again.
func wantUnavailable(t *testing.T, what string, r resp) {
	t.Helper()
	code, msg, _ := r.APIError()
	secs, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.Status != http.StatusServiceUnavailable || code != "unavailable" || err != nil || secs < 1 {
		t.Fatalf("%s with the database down: want 503 unavailable with Retry-After, got %s (Retry-After %q)", what, r, r.Header.Get("Retry-After"))
	}
	if msg == "" {
		t.Fatalf("%s: unavailable without a message", what)
	}
}

func TestDatabaseOutageAnswersUnavailableThenRecovers(t *testing.T) {
	e, p := proxiedEnv(t)
	e.mustOK(e.do(http.MethodPost, "/api/v1/resources/folders", e.Admin, map[string]string{"uri": "kb://me/before/"}), http.StatusCreated, nil)

	p.Close()
	login := map[string]string{"username": "admin", "password": adminPassword}
	wantUnavailable(t, "list", e.do(http.MethodGet, q("/api/v1/resources", "kb://me/"), e.Admin, nil))
	wantUnavailable(t, "mkdir", e.do(http.MethodPost, "/api/v1/resources/folders", e.Admin, map[string]string{"uri": "kb://me/during/"}))
	wantUnavailable(t, "login", e.do(http.MethodPost, "/api/v1/auth/login", "", login))
	wantUnavailable(t, "create token", e.do(http.MethodPost, "/api/v1/auth/tokens", e.Admin, map[string]any{"name": "cron"}))

	p.Open()
	e.mustOK(e.do(http.MethodPost, "/api/v1/resources/folders", e.Admin, map[string]string{"uri": "kb://me/after/"}), http.StatusCreated, nil)
	names := e.names(e.Admin, "kb://me/")
	if !slices.Contains(names, "before") || !slices.Contains(names, "after") || slices.Contains(names, "during") {
		t.Fatalf("after the outage the root holds %v; want before and after, not during", names)
	}
	e.login("admin", adminPassword)
}
func TestDeadPooledConnectionIsRetriedForReads(t *testing.T) {
	e, p := proxiedEnv(t)
	e.mustOK(e.do(http.MethodPost, "/api/v1/resources/folders", e.Admin, map[string]string{"uri": "kb://me/kept/"}), http.StatusCreated, nil)

	// The pool's idle connections die under it, as when PostgreSQL restarts.
	p.Cut()
	var l listingJSON
	e.mustOK(e.do(http.MethodGet, q("/api/v1/resources", "kb://me/"), e.Admin, nil), http.StatusOK, &l)
	found := false
	for _, it := range l.Items {
		found = found || it.Name == "kept"
	}
	if !found {
		t.Fatalf("the listing after the cut lacks kept: %+v", l.Items)
	}
	e.mustOK(e.do(http.MethodPost, "/api/v1/resources/folders", e.Admin, map[string]string{"uri": "kb://me/later/"}), http.StatusCreated, nil)
}
