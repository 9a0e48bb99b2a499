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
	"strings"
	"sync"
	"time"
)

type server struct {
	base string
	cmd  *exec.Cmd
	dir  string
}

// startServer runs the binary on a fresh data directory with the fake LLM
// and waits until it is ready.
func startServer(bin, dsn, password string) (*server, error) {
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("no server binary at %s (make build): %w", bin, err)
	}
	dir, err := os.MkdirTemp("", "knowspace-load-")
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := l.Addr().String()
	l.Close()
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "KB_LISTEN="+addr, "KB_DATA_DIR="+dir, "KB_FAKE_LLM=1",
		"KB_ADMIN_PASSWORD="+password, "KB_JWT_SECRET="+hex.EncodeToString(secret), "KB_LOG_LEVEL=warn")
	if dsn != "" {
		cmd.Env = append(cmd.Env, "KB_DATABASE_DSN="+dsn)
	}
	logs, err := os.Create(dir + "/server.log")
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
			return nil, fmt.Errorf("the server was not ready within 60 s; its log is %s/server.log", dir)
		}
		time.Sleep(200 * time.Millisecond)
	}
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
	os.RemoveAll(s.dir)
}

// signInUsers creates n accounts (load-1 … load-n; existing ones are
// reused) and signs each in; every new account gets the sample workspace.
func signInUsers(ctx context.Context, base, adminPassword string, n int, hc *http.Client) ([]*client, error) {
	admin := &client{base: base, http: hc}
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
			c := &client{base: base, http: hc}
			if err := c.login(ctx, name, password); err != nil {
				errs[i] = fmt.Errorf("sign in %s: %w", name, err)
				return
			}
			users[i] = c
		}()
	}
	wg.Wait()
	return users, errors.Join(errs...)
}
