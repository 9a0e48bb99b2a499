package httpapi

import (
	"net"

	"github.com/labstack/echo/v4"
)

// clientAddrExtractor decides the address c.RealIP answers, which the login
// throttle counts failures by and the request log records. A direct peer
// is the client; only a peer in trusted (the reverse proxy) is believed
// about who connected to it, and its X-Forwarded-For is read from the
// right, past further trusted hops, so addresses a client wrote on the
// left of the header never count.
func clientAddrExtractor(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	// Echo trusts loopback and private ranges unless told otherwise; here
	// only the configured ranges are proxies.
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
