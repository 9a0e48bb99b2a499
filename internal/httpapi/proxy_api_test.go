package httpapi

import (
	"context"
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
