package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

type server struct {
	base string
	cmd  *exec.Cmd
	dir  string
}

// startServers runs n replicas of the binary with the fake LLM on one
// fresh data directory (their shared volume for file bytes) and one
// database, and waits until each is ready. More than one needs a dsn:
// SQLite is one process's database.
func startServers(bin, dsn, password string, n int) ([]*server, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no server binary at %s (make build): %w", bin, err)
	}
	// It runs in its data directory.
	bin, err := filepath.Abs(bin)
	if err != nil {
		return nil, err
	}
	if n > 1 && dsn == "" {
		return nil, errors.New("-replicas above 1 needs -dsn (a PostgreSQL database they share)")
	}
	dir, err := os.MkdirTemp("", "knowspace-load-")
	if err != nil {
		return nil, err
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	env := append(os.Environ(), "KB_DATA_DIR="+dir, "KB_FAKE_LLM=1",
		"KB_ADMIN_PASSWORD="+password, "KB_JWT_SECRET="+hex.EncodeToString(secret), "KB_LOG_LEVEL=warn")
	if dsn != "" {
		env = append(env, "KB_DATABASE_DSN="+dsn)
	}
	var out []*server
	// One after another: the first migrates the database.
	for i := range n {
		s, err := startOne(bin, dir, fmt.Sprintf("%s/server-%d.log", dir, i+1), env)
		if err != nil {
			stopAll(out)
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func startOne(bin, dir, logPath string, env []string) (*server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(env, "KB_LISTEN="+addr)
	logs, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{base: "http://" + addr, cmd: cmd, dir: dir}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("the server was not ready within 60 s; its log is %s", logPath)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// stopAll stops the replicas, then removes their shared directory.
func stopAll(servers []*server) {
	for _, s := range servers {
		s.stop()
	}
	if len(servers) > 0 {
		os.RemoveAll(servers[0].dir)
	}
}

// rss is the server process's resident memory, or 0 when it is not ours to read.
func (s *server) rss() int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func (s *server) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// signInUsers creates n accounts (load-1 … load-n; existing ones are
// reused) and signs each in on one of the replicas; every new account gets
// the sample workspace, and a folder kb://me/load/ for its uploads.
func signInUsers(ctx context.Context, bases []string, adminPassword string, n int, hc *http.Client) ([]*client, error) {
	admin := &client{base: bases[0], http: hc}
	if err := admin.login(ctx, "admin", adminPassword); err != nil {
		return nil, fmt.Errorf("sign in as admin: %w", err)
	}
	users := make([]*client, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			name, password := fmt.Sprintf("load-%d", i+1), "load-password-0123"
			err := admin.do(ctx, http.MethodPost, "/api/v1/admin/users", map[string]string{"username": name, "password": password, "role": "user"}, nil)
			if err != nil && !strings.Contains(err.Error(), ": 409 ") {
				errs[i] = fmt.Errorf("create %s: %w", name, err)
				return
			}
			// Users spread over the replicas, as a proxy would spread them.
			c := &client{base: bases[i%len(bases)], http: hc}
			if err := c.login(ctx, name, password); err != nil {
				errs[i] = fmt.Errorf("sign in %s: %w", name, err)
				return
			}
			err = c.do(ctx, http.MethodPost, "/api/v1/resources/folders", map[string]string{"uri": "kb://me/load/"}, nil)
			if err != nil && !strings.Contains(err.Error(), ": 409 ") {
				errs[i] = fmt.Errorf("%s: create kb://me/load/: %w", name, err)
				return
			}
			users[i] = c
		}()
	}
	wg.Wait()
	return users, errors.Join(errs...)
}
