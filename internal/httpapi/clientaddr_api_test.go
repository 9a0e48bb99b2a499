package httpapi

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

func cidrs(t *testing.T, list ...string) []*net.IPNet {
	var out []*net.IPNet
	for _, s := range list {
		_, n, err := net.ParseCIDR(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// TestClientAddressFromTrustedProxiesOnly: X-Forwarded-For names the
// client only when the socket peer (here 127.0.0.1) is a trusted proxy,
// read from the right past the trusted hops. Five failures for bob from
// one client, then bob's right password from a second: the second gets in
// only when the two are told apart. The request log carries the address.
func TestClientAddressFromTrustedProxiesOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		for _, tc := range []struct {
			name    string
			trusted []*net.IPNet
			// guesser and owner are the X-Forwarded-For each sends.
			guesser, owner string
			apart          bool
			logged         string // the client address of the guesses
		}{
			{"no proxy trusted", nil, "198.51.100.1", "198.51.100.2", false, "127.0.0.1"},
			{"the peer is not a trusted proxy", cidrs(t, "10.0.0.0/8"), "198.51.100.1", "198.51.100.2", false, "127.0.0.1"},
			{"the peer is trusted", cidrs(t, "127.0.0.1/32"), "198.51.100.1", "198.51.100.2", true, "198.51.100.1"},
			{"trusted hops are skipped", cidrs(t, "127.0.0.0/8", "10.0.0.0/8"), "198.51.100.1, 10.1.2.3, 127.0.0.5", "198.51.100.2, 10.1.2.3", true, "198.51.100.1"},
			// The client wrote the first address, the proxy appended the second.
			{"a client cannot prepend another address", cidrs(t, "127.0.0.1/32"), "203.0.113.7, 198.51.100.1", "203.0.113.8, 198.51.100.1", false, "198.51.100.1"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				logs := captureJSONLogs(t)
				env := stSetup(t, dialect, func(d *Deps) { d.TrustedProxies = tc.trusted })
				c := CheckedClient(t)
				for i := 1; i <= 5; i++ {
					if status, code := postLogin(t, c, env.srv.URL, "bob", "wrong-password", "X-Forwarded-For", tc.guesser); status != 401 {
						t.Fatalf("guess %d: %d %s", i, status, code)
					}
				}
				status, got := postLogin(t, c, env.srv.URL, "bob", "password-bob", "X-Forwarded-For", tc.owner)
				if tc.apart && (status != 200 || !strings.HasPrefix(got, "ey")) || !tc.apart && (status != 429 || got != "too_many_attempts") {
					t.Fatalf("bob's right password from %q after five failures from %q: %d %s", tc.owner, tc.guesser, status, got)
				}
				failures := 0
				for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
					var rec map[string]any
					if err := json.Unmarshal([]byte(line), &rec); err != nil {
						t.Fatalf("log line %q: %v", line, err)
					}
					if rec["msg"] == "request" && rec["status"] == float64(401) {
						failures++
						if rec["client"] != tc.logged {
							t.Fatalf("a guess is logged from %v, want %s: %s", rec["client"], tc.logged, line)
						}
					}
				}
				if failures != 5 {
					t.Fatalf("%d failed logins logged, want 5", failures)
				}
			})
		}
	})
}
