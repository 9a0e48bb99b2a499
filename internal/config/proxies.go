package config

import (
	"fmt"
	"net"
	"strings"
)

// TrustedProxyRanges is trusted_proxies parsed; Validate has checked it,
// so an entry that does not parse is never reached.
func (c Config) TrustedProxyRanges() []*net.IPNet {
	out := make([]*net.IPNet, 0, len(c.TrustedProxies))
	for _, s := range c.TrustedProxies {
		if n, err := parseProxy(s); err == nil {
			out = append(out, n)
		}
	}
	return out
}

func (c Config) validateTrustedProxies() error {
	for i, s := range c.TrustedProxies {
		if _, err := parseProxy(s); err != nil {
			return fmt.Errorf("trusted_proxies[%d]: %q is not an IP address or CIDR range (10.0.0.0/8)", i, s)
		}
	}
	return nil
}

// parseProxy reads a CIDR range, or a bare address as a range of one.
func parseProxy(s string) (*net.IPNet, error) {
	s = strings.TrimSpace(s)
	if ip := net.ParseIP(s); ip != nil {
		bits := 8 * net.IPv6len
		if ip4 := ip.To4(); ip4 != nil {
			ip, bits = ip4, 8*net.IPv4len
		}
		return &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}, nil
	}
	_, n, err := net.ParseCIDR(s)
	return n, err
}

// splitList reads a comma-separated environment value.
func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}
