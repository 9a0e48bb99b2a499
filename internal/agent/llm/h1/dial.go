package h1

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/knowspace/knowspace/internal/connstate"
)

// dial opens a connection to u's host, through proxy when one is given
// (a tunnel for https), with TLS for https.
func (t *Transport) dial(ctx context.Context, u *url.URL, proxy *url.URL, key string) (*conn, error) {
	d := t.Dialer
	if d == nil {
		d = &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	}
	addr := hostPort(u)
	target := addr
	if proxy != nil {
		target = hostPort(proxy)
	}
	raw, err := d.DialContext(ctx, "tcp", target)
	if err != nil {
		return nil, err
	}
	c := &conn{Conn: raw, key: key}
	c.br = bufio.NewReaderSize(c, t.bufSize())
	if u.Scheme != "https" {
		return c, nil
	}
	if proxy != nil {
		if err := tunnel(ctx, c, addr, proxy); err != nil {
			_ = raw.Close()
			return nil, err
		}
	}
	cfg := &tls.Config{}
	if t.TLS != nil {
		cfg = t.TLS.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName = u.Hostname()
	}
	cfg.NextProtos = []string{"http/1.1"}
	tc := tls.Client(raw, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		_ = raw.Close()
		return nil, err
	}
	c.Conn = tc
	c.br.Reset(c)
	return c, nil
}

// tunnel asks an HTTP proxy on c to connect it to addr (CONNECT).
func tunnel(ctx context.Context, c *conn, addr string, proxy *url.URL) error {
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: addr}, Host: addr, Header: http.Header{}}
	if auth := proxyAuth(proxy); auth != "" {
		req.Header.Set("Proxy-Authorization", auth)
	}
	if err := req.Write(c); err != nil {
		return ctxOr(ctx, err)
	}
	resp, err := http.ReadResponse(c.br, req)
	if err != nil {
		return ctxOr(ctx, err)
	}
	// A tunnel's 200 has no body to read: what follows is the tunnel.
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("h1: proxy refused the tunnel to %s: %s", addr, resp.Status)
	}
	if c.br.Buffered() > 0 {
		return fmt.Errorf("h1: proxy sent data before the tunnel was used")
	}
	return nil
}

// withProxyAuth is req with the proxy's credentials, when its URL has any.
func withProxyAuth(req *http.Request, proxy *url.URL) *http.Request {
	auth := proxyAuth(proxy)
	if auth == "" {
		return req
	}
	r := *req
	r.Header = req.Header.Clone()
	r.Header.Set("Proxy-Authorization", auth)
	return &r
}

func proxyAuth(proxy *url.URL) string {
	if proxy.User == nil {
		return ""
	}
	pass, _ := proxy.User.Password()
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(proxy.User.Username()+":"+pass))
}

func ctxOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// take is a pooled connection for key that is still open, or nil.
func (t *Transport) take(key string) *conn {
	t.mu.Lock()
	defer t.mu.Unlock()
	list := t.idle[key]
	for len(list) > 0 {
		c := list[len(list)-1]
		list = list[:len(list)-1]
		t.idle[key] = list
		if time.Since(c.idleAt) < t.idleTimeout() && c.br.Buffered() == 0 && connstate.Open(c.Conn) {
			return c
		}
		_ = c.Close()
	}
	return nil
}

// put pools c, dropping the oldest of its host's when the pool is full
// and any that waited too long.
func (t *Transport) put(c *conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idle == nil {
		t.idle = map[string][]*conn{}
	}
	now := time.Now()
	c.idleAt = now
	list := t.idle[c.key]
	keep := list[:0]
	for _, old := range list {
		if now.Sub(old.idleAt) < t.idleTimeout() {
			keep = append(keep, old)
		} else {
			_ = old.Close()
		}
	}
	if max := t.idlePerHost(); len(keep) >= max {
		for _, old := range keep[:len(keep)-max+1] {
			_ = old.Close()
		}
		keep = append(keep[:0], keep[len(keep)-max+1:]...)
	}
	t.idle[c.key] = append(keep, c)
}

// CloseIdleConnections closes every pooled connection.
func (t *Transport) CloseIdleConnections() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key, list := range t.idle {
		for _, c := range list {
			_ = c.Close()
		}
		delete(t.idle, key)
	}
}

func (t *Transport) idleTimeout() time.Duration {
	if t.IdleTimeout > 0 {
		return t.IdleTimeout
	}
	return defaultIdleTimeout
}

func (t *Transport) idlePerHost() int {
	if t.IdlePerHost > 0 {
		return t.IdlePerHost
	}
	return defaultIdlePerHost
}
