//go:build !(linux || darwin || freebsd)

package connstate

import "net"

// Open cannot peek at the socket here: a closed connection is found at
// its next write instead.
func Open(net.Conn) bool { return true }
