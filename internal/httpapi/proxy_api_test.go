package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

// startCaddy runs the deployment's own Caddyfile (deploy/Caddyfile) in
// front of upstream and returns the proxy's base URL. The test is skipped
// with the package to install when Caddy is not on this machine.
func startCaddy(t *testing.T, upstream string) string {
	t.Helper()
	bin, err := exec.LookPath("caddy")
	if err != nil {
		t.Skip("caddy is not installed (apt-get install -y caddy): the proxy configuration is not checked")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	home := t.TempDir()
	cmd := exec.Command(bin, "run", "--config", filepath.Join("..", "..", "deploy", "Caddyfile"), "--adapter", "caddyfile")
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_DATA_HOME="+home, "XDG_CONFIG_HOME="+home,
		"KNOWSPACE_SITE=http://"+addr, "KNOWSPACE_UPSTREAMS="+upstream)
	var logs strings.Builder
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start caddy: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	base := "http://" + addr
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("caddy did not proxy /healthz within 15 s (last: %v)\n%s", err, logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Through the deployed proxy configuration an agent stream arrives event
// by event, not in one piece when the turn ends: the deltas of a slow
// answer are read while the fake LLM is still writing the later ones.
func TestProxyPassesStreamEventByEvent(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	base := startCaddy(t, strings.TrimPrefix(env.srv.URL, "http://"))

	const pieces, gap = 4, 400 * time.Millisecond
	var steps []fakellm.Step
	for i := range pieces {
		steps = append(steps, fakellm.Data(fakellm.TextChunk(fmt.Sprintf("part%d ", i))), fakellm.Sleep(gap))
	}
	steps = append(steps, fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done())
	env.fake.Push(fakellm.Stream(steps...))

	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/api/v1/knowledge-agent/stream",
		strings.NewReader(`{"uri":"kb://me/","model_id":"fake","message":"hi","temporary":true}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("through the proxy: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var arrived []time.Time
	var text strings.Builder
	evs := stReadEvents(t, resp.Body, func(e stEvent) bool {
		if e.name == "delta" {
			arrived = append(arrived, time.Now())
			text.WriteString(e.data["text"].(string))
		}
		return true
	})
	if got := stNames(evs); got != "start,context,delta,done" {
		t.Fatalf("events through the proxy: %s", got)
	}
	if text.String() != "part0 part1 part2 part3 " || len(arrived) != pieces {
		t.Fatalf("deltas through the proxy: %d, %q", len(arrived), text.String())
	}
	// Buffered, every delta would arrive within a few milliseconds of the
	// last; flushed, they are spread over the fake's pauses.
	if spread := arrived[pieces-1].Sub(arrived[0]); spread < (pieces-1)*gap/2 {
		t.Fatalf("the deltas arrived within %v of each other: the proxy held them back", spread)
	}
}

// clientFrom is a client whose connections leave from the loopback address
// ip, so a proxy on 127.0.0.1 sees it as its own client.
func clientFrom(t *testing.T, ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: 30 * time.Second, Transport: CheckingTransport{T: t, Base: &http.Transport{DialContext: d.DialContext}}}
}

// postLogin signs in through base with c, with extra headers in pairs;
// it answers the status and the error code or the session token.
func postLogin(t *testing.T, c *http.Client, base, user, password string, header ...string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/auth/login",
		strings.NewReader(fmt.Sprintf(`{"username":%q,"password":%q}`, user, password)))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Token string                `json:"token"`
		Error struct{ Code string } `json:"error"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("login answer %d: %v", res.StatusCode, err)
	}
	if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("Retry-After") == "" {
		t.Fatalf("429 without Retry-After")
	}
	if out.Token != "" {
		return res.StatusCode, out.Token
	}
	return res.StatusCode, out.Error.Code
}

// Behind the deployed proxy, with the proxy trusted, the throttle counts
// each client by its own address: failures for bob from one client lock
// that client only, never bob's correct password from another, and a
// client naming another address in X-Forwarded-For is still itself.
func TestProxyThrottlesEachClientByItsAddress(t *testing.T) {
	_, proxy, _ := net.ParseCIDR("127.0.0.1/32")
	env := stSetup(t, store.DialectSQLite, func(d *Deps) { d.TrustedProxies = []*net.IPNet{proxy} })
	base := startCaddy(t, strings.TrimPrefix(env.srv.URL, "http://"))
	guesser, owner := clientFrom(t, "127.0.0.2"), clientFrom(t, "127.0.0.3")

	for i := 1; i <= 5; i++ {
		if status, code := postLogin(t, guesser, base, "bob", "wrong-password"); status != 401 || code != "invalid_credentials" {
			t.Fatalf("guess %d: %d %s", i, status, code)
		}
	}
	if status, code := postLogin(t, guesser, base, "bob", "password-bob"); status != 429 || code != "too_many_attempts" {
		t.Fatalf("the guessing client after five failures: %d %s", status, code)
	}
	if status, code := postLogin(t, guesser, base, "bob", "password-bob", "X-Forwarded-For", "127.0.0.9"); status != 429 {
		t.Fatalf("the guessing client naming another address: %d %s", status, code)
	}
	status, tok := postLogin(t, owner, base, "bob", "password-bob")
	if status != 200 || !strings.HasPrefix(tok, "ey") {
		t.Fatalf("bob from another client, right password: %d %s", status, tok)
	}
}
