package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMetricsListenAndJSONLogs runs the binary with metrics_listen and
// log_format json: /metrics answers on its own port only, a turn moves
// its counters, every stderr line is JSON (a refused sign-in's audit event
// among them), `knowspace probe` reads
// /readyz (in full on the metrics port), and KB_TRUSTED_PROXIES makes the proxy's X-Forwarded-For the
// client address of the request lines.
func TestMetricsListenAndJSONLogs(t *testing.T) {
	needBinary(t)
	dataDir := t.TempDir()
	metricsAddr := freePort(t)
	env := []string{"KB_ADMIN_PASSWORD=observe-admin-pw", "KB_FAKE_LLM=1", "KB_WORKERS=1",
		"KB_METRICS_LISTEN=" + metricsAddr, "KB_LOG_FORMAT=json", "KB_TRUSTED_PROXIES=127.0.0.1"}
	s := startServer(t, dataDir, env...)
	m := s.waitLine(regexp.MustCompile(`^Metrics: http://(\S+)/metrics$`))
	if m[1] != metricsAddr {
		t.Fatalf("metrics announced on %s, configured %s", m[1], metricsAddr)
	}
	s.waitLine(signInLine)
	token := s.mustLogin("admin", "observe-admin-pw")
	status, body := s.request("POST", "/api/v1/knowledge-agent/stream", token,
		map[string]any{"uri": "kb://me/", "model_id": "fake", "message": "hello there"})
	if status != 200 || !strings.Contains(string(body), "event: done") {
		t.Fatalf("turn: %d %.500s", status, body)
	}

	req, _ := http.NewRequest("POST", "http://"+s.addr+"/api/v1/auth/login", strings.NewReader(`{"username":"admin","password":"wrong-password"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", "203.0.113.5")
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 401 {
		t.Fatalf("a wrong password through the trusted proxy: %v %v", res, err)
	} else {
		res.Body.Close()
	}

	scrape := func(addr string) (int, string) {
		res, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + addr + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, text := scrape(metricsAddr)
	if code != 200 {
		t.Fatalf("metrics: %d", code)
	}
	for _, want := range []string{
		`knowspace_turns_total{outcome="complete",reason="stop"} 1`,
		`knowspace_model_calls_total{model="fake",outcome="ok"} 1`,
		`knowspace_http_requests_total{method="POST",route="/api/v1/knowledge-agent/stream",status="200"} 1`,
		`knowspace_streams_active 0`,
		`knowspace_compile_jobs{state="queued"} 0`,
		"knowspace_blob_bytes ",
		"go_goroutines ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if code, text := scrape(s.addr); code == 200 && strings.Contains(text, "knowspace_") {
		t.Error("the API listener serves the metrics too")
	}

	// /readyz says what runs on the metrics port only, or to an admin.
	readyz := func(addr, token string) string {
		req, _ := http.NewRequest("GET", "http://"+addr+"/readyz", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return fmt.Sprintf("%d %s", res.StatusCode, strings.TrimSpace(string(b)))
	}
	if got := readyz(s.addr, ""); got != `200 {"status":"ready"}` {
		t.Errorf("anonymous /readyz on the API port: %s", got)
	}
	for _, got := range []string{readyz(metricsAddr, ""), readyz(s.addr, token)} {
		if !strings.HasPrefix(got, `200 {"status":"ready","database":"sqlite","migrations":`) || !strings.Contains(got, `"ocr":`) {
			t.Errorf("/readyz on the metrics port or as the admin: %s", got)
		}
	}

	out, err := runCLI(t, dataDir, []string{"KB_LISTEN=" + s.addr}, "probe")
	if err != nil {
		t.Fatalf("probe /readyz on a ready server: %v %s", err, out)
	}
	if out, err := runCLI(t, dataDir, []string{"KB_LISTEN=" + freePort(t)}, "probe", "/healthz"); err == nil {
		t.Fatalf("probe of a port nothing listens on passed: %s", out)
	}
	s.stop()
	s.mu.Lock()
	stderr := s.stderr.String()
	s.mu.Unlock()
	refused := 0
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["msg"] == nil {
			t.Errorf("stderr line is not a JSON log record: %q", line)
		}
		if rec["msg"] == "audit" && rec["action"] == "signin_failed" && rec["username"] == "admin" &&
			rec["client_addr"] == "203.0.113.5" && rec["code"] == "invalid_credentials" {
			refused++
		}
	}
	if refused != 1 || strings.Contains(stderr, "wrong-password") {
		t.Errorf("the refused sign-in is in %d audit lines (want 1), or its password is logged:\n%s", refused, stderr)
	}
	if !strings.Contains(stderr, `"client":"203.0.113.5","route":"/api/v1/auth/login"`) {
		t.Errorf("no request line from the forwarded client address:\n%s", stderr)
	}
	if !strings.Contains(stderr, `"msg":"turn"`) {
		t.Errorf("no turn line in the log:\n%s", stderr)
	}
}

// TestNoMetricsWithoutMetricsListen: the default serves no metrics at all.
func TestNoMetricsWithoutMetricsListen(t *testing.T) {
	needBinary(t)
	s := startServer(t, t.TempDir(), "KB_ADMIN_PASSWORD=observe-admin-pw", "KB_WORKERS=0")
	s.waitLine(signInLine)
	s.stop()
	if strings.Contains(s.logs(), "Metrics:") {
		t.Fatalf("metrics announced without metrics_listen:\n%s", s.logs())
	}
}

// TestTakenMetricsPortStopsTheStart: a metrics address that cannot be
// bound is an error at start, not a silent lack of metrics.
func TestTakenMetricsPortStopsTheStart(t *testing.T) {
	needBinary(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	cmd := exec.Command(binPath)
	cmd.Env = childEnv("KB_DATA_DIR="+t.TempDir(), "KB_LISTEN="+freePort(t), "KB_METRICS_LISTEN="+taken.Addr().String(),
		"KB_ADMIN_PASSWORD=observe-admin-pw")
	out, err := cmd.CombinedOutput()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || !strings.Contains(string(out), "metrics_listen "+taken.Addr().String()) {
		t.Fatalf("exit %v, output %s", err, out)
	}
}
