package connstate

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"
)

func pair(t *testing.T) (client, server net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// eventually waits for the peer's bytes or close to reach the socket.
func eventually(t *testing.T, c net.Conn, want bool) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for Open(c) != want {
		if time.Now().After(deadline) {
			t.Fatalf("Open = %v, want %v", !want, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestOpenSeesThePeersClose(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		t.Skip("no peek on this system")
	}
	c, s := pair(t)
	if !Open(c) {
		t.Fatal("a quiet open connection reads as closed")
	}
	s.Close()
	eventually(t, c, false)
}

func TestOpenTakesNothingFromTheStream(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		t.Skip("no peek on this system")
	}
	c, s := pair(t)
	if _, err := s.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	eventually(t, c, false) // bytes waiting: not a quiet connection
	b := make([]byte, 1)
	if n, err := c.Read(b); n != 1 || b[0] != 'x' || err != nil {
		t.Fatalf("after the peek the stream read %q %v", b[:n], err)
	}
	if !Open(c) {
		t.Fatal("quiet again after the read, yet reads as closed")
	}
}

func TestOpenLooksUnderTLS(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "freebsd" {
		t.Skip("no peek on this system")
	}
	srv := httptest.NewTLSServer(nil)
	defer srv.Close()
	c, err := tls.Dial("tcp", srv.Listener.Addr().String(), &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A whole exchange first: the session tickets that follow the
	// handshake are read with the response, as a pooled connection's are.
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !Open(c) {
		t.Fatal("a quiet TLS connection after its exchange reads as closed")
	}
	srv.CloseClientConnections()
	eventually(t, c, false)
}
