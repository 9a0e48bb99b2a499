package httpapi

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
)

// TestStalledDownloadIsCut: a client that stops reading a download once
// held its connection and handler for as long as it liked (50 such clients
// held ~96 descriptors for 7+ minutes). Every body write now has a
// deadline: the connection is closed soon after the writes stop moving.
func TestStalledDownloadIsCut(t *testing.T) {
	t.Parallel()
	stack := apptest.NewStack(t, "sqlite", apptest.MaxUpload(64<<20))
	closed := make(chan struct{}, 8)
	srv := httptest.NewUnstartedServer(New(Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree,
		Timeouts: Timeouts{Write: 300 * time.Millisecond}}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed <- struct{}{}
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	e := &apiEnv{t: t, stack: stack, srv: srv, tokens: stack.SignIn(t, "alice")}
	e.upload("alice", "kb://me/big/", map[string]string{"big.txt": strings.Repeat("a stalled reader\n", 32<<20/17)})

	for _, path := range []string{"/api/v1/resources/raw?uri=kb://me/big/big.txt"} {
		// A reader with a tiny receive window, so the server's writes block
		// soon after the headers instead of filling megabytes of buffers.
		d := net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
			return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		}}
		conn, err := d.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n\r\n", path, e.tokens["alice"])
		status, err := bufio.NewReader(conn).ReadString('\n')
		if err != nil || !strings.Contains(status, "200") {
			t.Fatalf("%s: %q %v", path, status, err)
		}
		// Now the client reads nothing more.
		select {
		case <-closed:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the server still holds the stalled download after 20 s", path)
		}
	}
}
