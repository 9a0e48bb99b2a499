package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// binPath is the knowspace binary built once for the startup tests; buildErr
// says why there is none.
var (
	binPath  string
	buildErr error
	noGo     bool
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "knowspace-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := exec.LookPath("go"); err != nil {
		noGo = true
	} else {
		binPath = filepath.Join(dir, "knowspace")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func needBinary(t *testing.T) {
	t.Helper()
	if noGo {
		t.Skip("go is not on PATH")
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// childEnv is the test's environment without any KB_ setting, plus extra.
func childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "KB_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// server is a running knowspace process.
type server struct {
	t      *testing.T
	cmd    *exec.Cmd
	addr   string
	mu     sync.Mutex
	stdout []string
	stderr bytes.Buffer
	lines  chan string
	done   chan error
}

func startServer(t *testing.T, dataDir string, extraEnv ...string) *server {
	t.Helper()
	return startServerAt(t, dataDir, freePort(t), extraEnv...)
}

// startServerAt is startServer on a given address, for a config that
// names the server's own address (public_url).
func startServerAt(t *testing.T, dataDir, addr string, extraEnv ...string) *server {
	t.Helper()
	s := &server{t: t, addr: addr, lines: make(chan string, 100), done: make(chan error, 1)}
	s.cmd = exec.Command(binPath)
	s.cmd.Env = childEnv(append([]string{"KB_LISTEN=" + s.addr, "KB_DATA_DIR=" + dataDir}, extraEnv...)...)
	s.cmd.Stderr = &lockedWriter{mu: &s.mu, w: &s.stderr}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			s.mu.Lock()
			s.stdout = append(s.stdout, sc.Text())
			s.mu.Unlock()
			s.lines <- sc.Text()
		}
		close(s.lines)
		s.done <- s.cmd.Wait()
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			s.cmd.Process.Kill()
			<-s.done
		}
	})
	return s
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (s *server) logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return "stdout:\n" + strings.Join(s.stdout, "\n") + "\nstderr:\n" + s.stderr.String()
}

// waitLine returns the first stdout line matching re.
func (s *server) waitLine(re *regexp.Regexp) []string {
	s.t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("server exited before printing %s\n%s", re, s.logs())
			}
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		case <-timeout:
			s.t.Fatalf("no line matching %s within 60s\n%s", re, s.logs())
		}
	}
}

// stop sends SIGTERM and requires a clean exit.
func (s *server) stop() {
	s.t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		s.t.Fatal(err)
	}
	go func() {
		for range s.lines { // drain so the process never blocks on stdout
		}
	}()
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Fatalf("server exited with %v after SIGTERM\n%s", err, s.logs())
		}
	case <-time.After(30 * time.Second):
		s.t.Fatalf("server did not exit within 30s of SIGTERM\n%s", s.logs())
	}
}

// runCLI runs a knowspace subcommand on the data directory.
func runCLI(t *testing.T, dataDir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = childEnv(append([]string{"KB_DATA_DIR=" + dataDir}, env...)...)
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var (
	firstLoginLine = regexp.MustCompile(`First login: admin / (\S+)`)
	runningLine    = regexp.MustCompile(`Knowspace is running at (http://\S+)`)
	signInLine     = regexp.MustCompile(`Sign in as admin`)
)

// TestStartupAndRestart boots the real binary on an empty data directory,
// signs in with the printed password, reads the sample tree, stops it with
// SIGTERM, then starts it again on the same data and checks nothing is
// re-created. Operator user commands run against the live data directory.
func TestStartupAndRestart(t *testing.T) {
	needBinary(t)
	dataDir := t.TempDir()

	// First start: a generated admin password is printed once.
	s := startServer(t, dataDir)
	url := s.waitLine(runningLine)[1]
	password := s.waitLine(firstLoginLine)[1]
	if url != "http://"+s.addr {
		t.Errorf("announced %s, listening on %s", url, s.addr)
	}
	if status, body := s.request("GET", "/healthz", "", nil); status != 200 || !strings.Contains(string(body), `"ok"`) {
		t.Fatalf("healthz %d %s", status, body)
	}
	token := s.mustLogin("admin", password)
	status, body := s.request("GET", "/api/v1/resources?uri=kb://me/", token, nil)
	if status != 200 {
		t.Fatalf("list root: %d %s", status, body)
	}
	var l struct {
		URI   string `json:"uri"`
		Items []struct {
			Name string `json:"name"`
			Kind string `json:"kind"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &l); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, it := range l.Items {
		got[it.Name] = it.Kind
	}
	if l.URI != "kb://users/admin/" || got["Welcome.md"] != "file" || got["notes"] != "dir" || got["data"] != "dir" {
		t.Fatalf("sample root %s", body)
	}
	if status, body := s.request("GET", "/api/v1/resources/content?uri=kb://me/Welcome.md", token, nil); status != 200 || !strings.Contains(string(body), "Knowspace") {
		t.Fatalf("read Welcome.md: %d %s", status, body)
	}
	if _, err := os.Stat(filepath.Join(dataDir, "knowspace.db")); err != nil {
		t.Errorf("no SQLite file in the data dir: %v", err)
	}
	s.stop()

	// Second start on the same data: no new password, the old one works,
	// and the session issued before the restart is still valid.
	s = startServer(t, dataDir)
	s.waitLine(signInLine)
	s.mu.Lock()
	for _, line := range s.stdout {
		if firstLoginLine.MatchString(line) {
			t.Errorf("second start printed a new password: %s", line)
		}
	}
	s.mu.Unlock()
	if status, body := s.request("GET", "/api/v1/auth/me", token, nil); status != 200 {
		t.Errorf("session from before the restart: %d %s", status, body)
	}
	token = s.mustLogin("admin", password)
	if status, body := s.request("GET", "/api/v1/resources?uri=kb://me/", token, nil); status != 200 || strings.Count(string(body), `"Welcome.md"`) != 1 {
		t.Fatalf("sample seeded twice or lost: %d %s", status, body)
	}

	// Operator commands, while the server runs on the same database.
	out, err := runCLI(t, dataDir, []string{"KB_NEW_PASSWORD=bob-password-1"}, "user", "add", "bob")
	if err != nil || !strings.Contains(out, "created bob (user)") {
		t.Fatalf("user add bob: %v\n%s", err, out)
	}
	out, err = runCLI(t, dataDir, nil, "user", "list")
	if err != nil || !regexp.MustCompile(`(?m)^\d+\s+bob\s+user\s+false`).MatchString(out) || !regexp.MustCompile(`(?m)^\d+\s+admin\s+admin\s+false`).MatchString(out) {
		t.Fatalf("user list: %v\n%s", err, out)
	}
	bobTok := s.mustLogin("bob", "bob-password-1")
	if status, body := s.request("GET", "/api/v1/resources?uri=kb://me/", bobTok, nil); status != 200 || !strings.Contains(string(body), "Welcome.md") {
		t.Fatalf("bob's sample tree: %d %s", status, body)
	}
	out, err = runCLI(t, dataDir, []string{"KB_NEW_PASSWORD=bob-password-2"}, "user", "passwd", "bob")
	if err != nil || !strings.Contains(out, "password of bob changed") {
		t.Fatalf("user passwd bob: %v\n%s", err, out)
	}
	if _, status := s.login("bob", "bob-password-1"); status != http.StatusUnauthorized {
		t.Errorf("old password after passwd: status %d", status)
	}
	if status, _ := s.request("GET", "/api/v1/auth/me", bobTok, nil); status != http.StatusUnauthorized {
		t.Errorf("session from before passwd: status %d, want 401", status)
	}
	s.mustLogin("bob", "bob-password-2")
	// The operator's changes are in the audit log, marked as made at the
	// command line.
	status, body = s.request("GET", "/api/v1/admin/audit?action=user_create,user_update", token, nil)
	var audit struct {
		Items []struct{ Action, Target, Source, Username string }
	}
	if err := json.Unmarshal(body, &audit); status != 200 || err != nil || len(audit.Items) != 2 ||
		audit.Items[0].Action != "user_update" || audit.Items[1].Action != "user_create" || audit.Items[0].Target != audit.Items[1].Target ||
		audit.Items[0].Source != "cli" || audit.Items[1].Source != "cli" || audit.Items[0].Username != "" {
		t.Errorf("the operator's changes in the audit log: %d %s", status, body)
	}

	// Refusals exit non-zero and change nothing.
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{[]string{"KB_NEW_PASSWORD=bob-password-3"}, []string{"user", "add", "bob"}},        // taken
		{[]string{"KB_NEW_PASSWORD=short"}, []string{"user", "add", "carol"}},               // weak
		{[]string{"KB_NEW_PASSWORD=carol-password"}, []string{"user", "add", "Carol!"}},     // bad name
		{nil, []string{"user", "add", "dave"}},                                              // no password on stdin
		{[]string{"KB_NEW_PASSWORD=nobody-password"}, []string{"user", "passwd", "nobody"}}, // unknown
		{nil, []string{"user", "frobnicate"}},
		{nil, []string{"user"}},
	} {
		out, err := runCLI(t, dataDir, c.env, c.args...)
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() == 0 {
			t.Errorf("%v: want a non-zero exit, got %v\n%s", c.args, err, out)
		}
	}
	out, _ = runCLI(t, dataDir, nil, "user", "list")
	if strings.Contains(out, "carol") || strings.Contains(out, "dave") || strings.Contains(strings.ToLower(out), "nobody") {
		t.Errorf("refused commands created accounts:\n%s", out)
	}
	s.stop()
}

// TestStartupWithAdminPassword: KB_ADMIN_PASSWORD sets the first admin's
// password and nothing is printed.
func TestStartupWithAdminPassword(t *testing.T) {
	needBinary(t)
	dataDir := t.TempDir()
	s := startServer(t, dataDir, "KB_ADMIN_PASSWORD=configured-admin-pw")
	s.waitLine(signInLine)
	s.mustLogin("admin", "configured-admin-pw")
	s.stop()
}

// TestStartupRefusesBadConfig: a bad listen address or DSN fails fast with a
// non-zero exit and a message naming the setting.
func TestStartupRefusesBadConfig(t *testing.T) {
	needBinary(t)
	for _, c := range []struct{ env, want string }{
		{"KB_LISTEN=not-an-address", "listen"},
		{"KB_DATABASE_DSN=mysql://x", "database_dsn"},
		{"KB_JWT_SECRET=short", "jwt_secret"},
		{"KB_LOG_FORMAT=xml", "log_format"},
		{"KB_LOG_LEVEL=loud", "log_level"},
		{"KB_METRICS_LISTEN=nope", "metrics_listen"},
	} {
		cmd := exec.Command(binPath)
		cmd.Env = childEnv("KB_DATA_DIR="+t.TempDir(), c.env)
		out, err := cmd.CombinedOutput()
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() == 0 || !strings.Contains(string(out), c.want) {
			t.Errorf("%s: exit %v, output %s", c.env, err, out)
		}
	}
}
