//go:build linux || darwin || freebsd

// Package connstate tells whether a connection nobody is reading is still
// open, without a goroutine blocked in a read to find out.
package connstate

import (
	"crypto/tls"
	"errors"
	"net"
	"syscall"
)

// Open says c is still open and quiet: the socket has neither its peer's
// close nor unread bytes waiting (a connection between exchanges gets
// none; a TLS one getting close_notify is closing). It peeks without
// reading, so nothing is taken from the stream.
func Open(c net.Conn) bool {
	rc, ok := rawConn(c)
	if !ok {
		return true
	}
	if rc == nil {
		return false
	}
	open := false
	err := rc.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		open = errors.Is(err, syscall.EAGAIN)
		return true
	})
	return err == nil && open
}

// rawConn is c's socket, under TLS too; false when c has none (a pipe),
// nil when it has closed.
func rawConn(c net.Conn) (syscall.RawConn, bool) {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, true
	}
	return rc, true
}
