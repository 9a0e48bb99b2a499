//go:build !linux

package connstate

import "net"

// Watch calls gone once c's peer has closed it, found by a shared poll of
// every watched connection (Open); stop ends the watch, before c is closed.
func Watch(c net.Conn, gone func()) (stop func()) { return polled.add(c, gone) }
