// Package h1 is an HTTP/1.1 client that does each exchange on its
// caller's goroutine. net/http's Transport keeps a reader and a writer
// goroutine for every open connection; a model's answer stream may sit
// idle for minutes, and with a thousand of them open those goroutines are
// a large part of what the server holds. Here the request is written and
// the response read by whoever calls RoundTrip and reads the body, and an
// idle connection waits in a pool with no goroutine at all.
package h1

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// Defaults of a zero Transport.
const (
	defaultIdleTimeout = 90 * time.Second
	defaultIdlePerHost = 16
	defaultBufSize     = 4 << 10
)

// Transport is an http.RoundTripper for HTTP/1.1 over TCP or TLS, direct
// or through an HTTP proxy. Requests it cannot carry (another scheme, a
// proxy it does not speak) go to Fallback.
type Transport struct {
	// TLS is the base client configuration; nil uses the system roots.
	TLS *tls.Config
	// Proxy picks the proxy of a request; nil is http.ProxyFromEnvironment.
	Proxy func(*http.Request) (*url.URL, error)
	// Dialer opens connections; nil dials with a 30 s timeout.
	Dialer *net.Dialer
	// BufSize is each connection's read and write buffer.
	BufSize int
	// IdleTimeout drops a pooled connection unused this long.
	IdleTimeout time.Duration
	// IdlePerHost bounds the pooled connections of one host.
	IdlePerHost int
	// Fallback carries what this transport does not: a SOCKS proxy, say.
	// Nil refuses such requests.
	Fallback http.RoundTripper

	mu   sync.Mutex
	idle map[string][]*conn
}

// conn is one connection and what is kept with it between requests.
type conn struct {
	net.Conn
	br      *bufio.Reader
	key     string
	idleAt  time.Time
	written int64 // bytes written by the exchange under way
}

func (c *conn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written += int64(n)
	return n, err
}

// RoundTrip sends req and returns its response; the body holds the
// connection until it is read to its end (then the connection is pooled)
// or closed. Cancelling req's context closes the connection at once.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	u := req.URL
	if u == nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return t.fallback(req, fmt.Errorf("h1: unsupported URL %q", u))
	}
	proxy, err := t.proxyOf(req)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	if proxy != nil && proxy.Scheme != "http" {
		return t.fallback(req, fmt.Errorf("h1: unsupported proxy scheme %q", proxy.Scheme))
	}
	key := u.Scheme + "|" + hostPort(u)
	if proxy != nil {
		key += "|" + proxy.String()
	}
	ctx := req.Context()
	for {
		c, reused := t.take(key), true
		if c == nil {
			if c, err = t.dial(ctx, u, proxy, key); err != nil {
				closeBody(req)
				return nil, err
			}
			reused = false
		}
		resp, err := t.exchange(ctx, c, req, proxy)
		if err == nil {
			return resp, nil
		}
		// A pooled connection the server closed as this request was sent:
		// nothing reached it, so the request goes again on a new one.
		if reused && c.written == 0 && ctx.Err() == nil {
			if again, rerr := rewound(req); rerr == nil {
				req = again
				continue
			}
		}
		closeBody(req)
		return nil, err
	}
}

// exchange writes req on c and reads its response head.
func (t *Transport) exchange(ctx context.Context, c *conn, req *http.Request, proxy *url.URL) (*http.Response, error) {
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	fail := func(err error) (*http.Response, error) {
		stop()
		_ = c.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	c.written = 0
	bw := bufio.NewWriterSize(c, t.bufSize())
	out := req
	if proxy != nil && req.URL.Scheme == "http" {
		out = withProxyAuth(req, proxy)
		if err := out.WriteProxy(bw); err != nil {
			return fail(err)
		}
	} else if err := req.Write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	var resp *http.Response
	for {
		var err error
		if resp, err = http.ReadResponse(c.br, req); err != nil {
			return fail(err)
		}
		// 1xx answers other than a protocol switch precede the real one.
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	b := &body{rc: resp.Body, c: c, t: t, ctx: ctx, stop: stop, keep: !resp.Close && !req.Close}
	resp.Body = b
	if req.Method == http.MethodHead || resp.ContentLength == 0 && len(resp.TransferEncoding) == 0 {
		b.finish(true)
	}
	return resp, nil
}

func (t *Transport) fallback(req *http.Request, err error) (*http.Response, error) {
	if t.Fallback != nil {
		return t.Fallback.RoundTrip(req)
	}
	closeBody(req)
	return nil, err
}

func (t *Transport) proxyOf(req *http.Request) (*url.URL, error) {
	if t.Proxy != nil {
		return t.Proxy(req)
	}
	return http.ProxyFromEnvironment(req)
}

func (t *Transport) bufSize() int {
	if t.BufSize > 0 {
		return t.BufSize
	}
	return defaultBufSize
}

// body is a response body that gives its connection back to the pool when
// read to its end, and closes it otherwise.
type body struct {
	rc   io.ReadCloser
	c    *conn
	t    *Transport
	ctx  context.Context
	stop func() bool
	keep bool
	once sync.Once
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	switch {
	case err == io.EOF:
		b.finish(true)
	case err != nil:
		b.finish(false)
		if b.ctx.Err() != nil {
			err = b.ctx.Err()
		}
	}
	return n, err
}

func (b *body) Close() error {
	b.finish(false)
	return nil
}

// finish ends the exchange once: the connection goes back to the pool
// when its response ended cleanly and nothing cancelled it, else it is
// closed.
func (b *body) finish(clean bool) {
	b.once.Do(func() {
		if b.stop() && clean && b.keep {
			b.t.put(b.c)
			return
		}
		_ = b.c.Close()
	})
}

// rewound is req with its body ready to be sent again, if it can be.
func rewound(req *http.Request) (*http.Request, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return req, nil
	}
	if req.GetBody == nil {
		return nil, errors.New("h1: request body cannot be sent again")
	}
	b, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	r := *req
	r.Body = b
	return &r, nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
}

// hostPort is u's host with its port, the scheme's when none is given.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
