package storetest

import (
	"context"
	"io"
	"net"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
)

// Link is a TCP proxy between a store and its PostgreSQL server that a
// test can cut and restore: a real connection loss at an exact moment,
// without stopping a server other tests share.
type Link struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

// OpenLinked returns a migrated PostgreSQL store that reaches its database
// through a Link, and the Link. It skips the test without
// KB_TEST_POSTGRES_DSN: SQLite has no connection to cut.
func OpenLinked(t testing.TB) (*store.Store, string, *Link) {
	t.Helper()
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		t.Skip("KB_TEST_POSTGRES_DSN is not set: a connection cut needs PostgreSQL")
	}
	dsn, dir := Empty(t, store.DialectPostgres)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("parse dsn: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := &Link{ln: ln, target: u.Host, conns: map[net.Conn]struct{}{}}
	l.wg.Add(1)
	go l.accept()
	u.Host = ln.Addr().String()
	st, err := store.Open(context.Background(), u.String(), dir)
	if err != nil {
		l.close()
		t.Fatalf("open store through the link: %v", err)
	}
	// Cleanups run last-in first-out: the store closes before the link.
	t.Cleanup(l.close)
	t.Cleanup(func() { st.Close() })
	return st, dir, l
}

// Cut closes every open connection and refuses new ones until Restore.
func (l *Link) Cut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cut = true
	for c := range l.conns {
		c.Close()
	}
}

// Restore lets connections through again.
func (l *Link) Restore() {
	l.mu.Lock()
	l.cut = false
	l.mu.Unlock()
}

func (l *Link) close() {
	l.ln.Close()
	l.Cut()
	l.wg.Wait()
}

func (l *Link) accept() {
	defer l.wg.Done()
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		l.wg.Add(1)
		go l.pipe(c)
	}
}

// pipe joins a client connection to a new server connection until either
// side closes or the link is cut.
func (l *Link) pipe(client net.Conn) {
	defer l.wg.Done()
	server, err := net.Dial("tcp", l.target)
	if err != nil {
		client.Close()
		return
	}
	l.mu.Lock()
	if l.cut {
		l.mu.Unlock()
		client.Close()
		server.Close()
		return
	}
	l.conns[client], l.conns[server] = struct{}{}, struct{}{}
	l.mu.Unlock()
	var both sync.WaitGroup
	both.Add(2)
	copyThenClose := func(dst, src net.Conn) {
		defer both.Done()
		_, _ = io.Copy(dst, src)
		dst.Close()
		src.Close()
	}
	go copyThenClose(server, client)
	go copyThenClose(client, server)
	both.Wait()
	l.mu.Lock()
	delete(l.conns, client)
	delete(l.conns, server)
	l.mu.Unlock()
}
