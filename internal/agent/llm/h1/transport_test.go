package h1

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// streamServer answers /stream with n chunks and then holds the response
// open until release closes; other paths answer "ok". It counts the
// connections it accepted.
func streamServer(t *testing.T, tlsOn bool, idle ...time.Duration) (*httptest.Server, *atomic.Int32, chan struct{}) {
	t.Helper()
	var conns atomic.Int32
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/stream" {
			fmt.Fprintf(w, "ok %s %s", r.Method, body)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: one\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
		fmt.Fprint(w, "data: two\n\n")
	})
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	if len(idle) > 0 {
		srv.Config.IdleTimeout = idle[0]
	}
	if tlsOn {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
		srv.Close()
	})
	return srv, &conns, release
}

func get(t *testing.T, c *http.Client, u string) string {
	t.Helper()
	resp, err := c.Post(u, "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReusesAConnectionReadToItsEnd(t *testing.T) {
	srv, conns, _ := streamServer(t, false)
	c := &http.Client{Transport: &Transport{}}
	for i := 0; i < 5; i++ {
		if got := get(t, c, srv.URL+"/x"); got != "ok POST hello" {
			t.Fatalf("answer %d: %q", i, got)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("5 requests in a row opened %d connections, want 1", n)
	}
}

func TestAConnectionTheServerClosedIsNotReused(t *testing.T) {
	srv, conns, _ := streamServer(t, false, 30*time.Millisecond)
	c := &http.Client{Transport: &Transport{}}
	get(t, c, srv.URL+"/x")
	time.Sleep(200 * time.Millisecond) // the server closes the idle one
	if got := get(t, c, srv.URL+"/x"); got != "ok POST hello" {
		t.Fatalf("after the server closed the idle connection: %q", got)
	}
	if n := conns.Load(); n != 2 {
		t.Fatalf("connections: %d, want 2", n)
	}
}

func TestCancelEndsAStreamAtOnce(t *testing.T) {
	srv, _, _ := streamServer(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/stream", nil)
	resp, err := (&Transport{}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	if line, _ := br.ReadString('\n'); line != "data: one\n" {
		t.Fatalf("first line %q", line)
	}
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = io.ReadAll(br)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("read after cancel: %v, want context.Canceled", err)
	}
}

func TestTLSNeedsTheServersRoots(t *testing.T) {
	srv, _, release := streamServer(t, true)
	close(release)
	roots := x509.NewCertPool()
	roots.AddCert(srv.Certificate())
	c := &http.Client{Transport: &Transport{TLS: &tls.Config{RootCAs: roots}}}
	if got := get(t, c, srv.URL+"/stream"); got != "data: one\n\ndata: two\n\n" {
		t.Fatalf("over TLS: %q", got)
	}
	_, err := (&http.Client{Transport: &Transport{}}).Get(srv.URL + "/x")
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Fatalf("without the server's root: %v, want an unknown authority", err)
	}
}

// An open stream costs this client no goroutine: while n streams are open
// only the server's own (two per connection: its handler and its read of
// the connection) are added. net/http's Transport adds two more.
func TestAnOpenStreamHoldsNoGoroutine(t *testing.T) {
	srv, _, _ := streamServer(t, false)
	tr := &Transport{}
	const n = 20
	before := runtime.NumGoroutine()
	var bodies []io.ReadCloser
	for i := 0; i < n; i++ {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/stream", nil)
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		if line, _ := bufio.NewReader(resp.Body).ReadString('\n'); line != "data: one\n" {
			t.Fatalf("stream %d: %q", i, line)
		}
		bodies = append(bodies, resp.Body)
	}
	time.Sleep(50 * time.Millisecond)
	added := runtime.NumGoroutine() - before
	for _, b := range bodies {
		b.Close()
	}
	if added > 2*n+2 {
		t.Fatalf("%d open streams added %d goroutines, want at most the server's %d", n, added, 2*n)
	}
}

// proxy is an HTTP proxy: CONNECT tunnels, and absolute-form requests
// forwarded. It records the Proxy-Authorization it saw.
func proxy(t *testing.T) (*url.URL, *sync.Map) {
	t.Helper()
	seen := &sync.Map{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.Method+" "+r.Host, r.Header.Get("Proxy-Authorization"))
		if r.Method != http.MethodConnect {
			r.RequestURI = ""
			r.Header.Del("Proxy-Authorization")
			resp, err := http.DefaultTransport.RoundTrip(r)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			w.WriteHeader(resp.StatusCode)
			_, _ = io.Copy(w, resp.Body)
			return
		}
		up, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		down, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			up.Close()
			return
		}
		_, _ = io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() { _, _ = io.Copy(up, down); up.Close() }()
		_, _ = io.Copy(down, up)
		down.Close()
	}))
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	u.User = url.UserPassword("ann", "secret")
	return u, seen
}

func TestThroughAProxy(t *testing.T) {
	p, seen := proxy(t)
	plain, _, _ := streamServer(t, false)
	secure, _, release := streamServer(t, true)
	close(release)
	roots := x509.NewCertPool()
	roots.AddCert(secure.Certificate())
	tr := &Transport{TLS: &tls.Config{RootCAs: roots}, Proxy: http.ProxyURL(p)}
	t.Cleanup(tr.CloseIdleConnections) // the proxy's tunnel ends with it
	c := &http.Client{Transport: tr}
	if got := get(t, c, plain.URL+"/x"); got != "ok POST hello" {
		t.Fatalf("http through the proxy: %q", got)
	}
	if got := get(t, c, secure.URL+"/stream"); got != "data: one\n\ndata: two\n\n" {
		t.Fatalf("https through the proxy's tunnel: %q", got)
	}
	want := "Basic YW5uOnNlY3JldA=="
	for _, k := range []string{"POST " + strings.TrimPrefix(plain.URL, "http://"), "CONNECT " + strings.TrimPrefix(secure.URL, "https://")} {
		if got, _ := seen.Load(k); got != want {
			t.Errorf("%s: the proxy saw Proxy-Authorization %q, want %q", k, got, want)
		}
	}
}
