//go:build linux || darwin || freebsd

package h1

import (
	"crypto/tls"
	"errors"
	"net"
	"syscall"
)

// alive says a pooled connection is still open: the socket has neither
// its peer's close nor unread bytes waiting (an idle HTTP connection gets
// none; a TLS one getting close_notify is closing). It peeks without
// reading, so nothing is taken from the stream.
func alive(c net.Conn) bool {
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	open := false
	err = rc.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		open = errors.Is(err, syscall.EAGAIN)
		return true
	})
	return err == nil && open
}
