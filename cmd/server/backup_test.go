package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// upload sends one file to folder and reports the status.
func (s *server) upload(token, folder, name string, content []byte) int {
	s.t.Helper()
	return s.multipart("/api/v1/resources/upload?uri="+url.QueryEscape(folder), token, name, content).status
}

// A backup taken while a writer uploads holds a consistent state: restored
// into an empty data dir, fsck is clean, the server starts on it, and every
// file there reads back with exactly the bytes it was uploaded with — all
// files acknowledged before the backup began among them.
// On PostgreSQL (KB_TEST_POSTGRES_DSN) the same runs through pg_dump and
// psql into a second, empty database.
func TestBackupUnderWriteLoadRestores(t *testing.T) {
	needBinary(t)
	t.Run("sqlite", func(t *testing.T) { backupUnderLoad(t, nil, nil) })
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		return
	}
	if _, err := exec.LookPath("pg_dump"); err != nil {
		t.Skip("pg_dump not installed (apt-get install -y postgresql-client)")
	}
	t.Run("postgres", func(t *testing.T) {
		backupUnderLoad(t, []string{"KB_DATABASE_DSN=" + freshDatabase(t)}, []string{"KB_DATABASE_DSN=" + freshDatabase(t)})
	})
}

// freshDatabase creates an empty PostgreSQL database for the test and
// returns its DSN.
func freshDatabase(t *testing.T) string {
	t.Helper()
	base := os.Getenv("KB_TEST_POSTGRES_DSN")
	name := fmt.Sprintf("kb_backup_%d", time.Now().UnixNano())
	if out, err := exec.Command("psql", base, "-c", "CREATE DATABASE "+name).CombinedOutput(); err != nil {
		t.Fatalf("create database: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("psql", base, "-c", "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)").Run() })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func backupUnderLoad(t *testing.T, srcEnv, dstEnv []string) {
	const password = "backup-admin-pw"
	dataDir := t.TempDir()
	s := startServer(t, dataDir, append([]string{"KB_ADMIN_PASSWORD=" + password}, srcEnv...)...)
	s.waitLine(signInLine)
	tok := s.mustLogin("admin", password)
	if status, body := s.request("POST", "/api/v1/resources/folders", tok, map[string]string{"uri": "kb://me/load/"}); status != http.StatusCreated {
		t.Fatalf("mkdir: %d %s", status, body)
	}

	var mu sync.Mutex
	sent := map[string][]byte{} // acknowledged uploads
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			name := fmt.Sprintf("f%04d.txt", i)
			content := []byte(strings.Repeat(fmt.Sprintf("file %d line\n", i), 1+i%50))
			if s.upload(tok, "kb://me/load/", name, content) == http.StatusCreated {
				mu.Lock()
				sent[name] = content
				mu.Unlock()
			}
		}
	}()
	for {
		mu.Lock()
		n := len(sent)
		mu.Unlock()
		if n >= 20 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	before := map[string]bool{}
	for name := range sent {
		before[name] = true
	}
	mu.Unlock()
	archive := filepath.Join(t.TempDir(), "backup.tar.gz")
	if out, err := runCLI(t, dataDir, srcEnv, "backup", "--out", archive); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	close(stop)
	<-done
	s.stop()

	restored := t.TempDir()
	if out, err := runCLI(t, restored, dstEnv, "restore", "--from", archive); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	out, err := runCLI(t, restored, dstEnv, "fsck")
	if err != nil || !strings.Contains(out, " 0 missing, 0 corrupt, 0 orphaned") {
		t.Fatalf("fsck of the restored dir: %v\n%s", err, out)
	}
	// The restored database carries its index; a rebuild reads every file.
	out, err = runCLI(t, restored, dstEnv, "reindex")
	if err != nil || !regexp.MustCompile(`search index: ready" files=[1-9]`).MatchString(out) {
		t.Fatalf("reindex of the restored dir: %v\n%s", err, out)
	}

	r := startServer(t, restored, dstEnv...)
	r.waitLine(runningLine)
	tok = r.mustLogin("admin", password)
	status, body := r.request("GET", "/api/v1/resources?uri="+url.QueryEscape("kb://me/load/")+"&limit=1000", tok, nil)
	if status != http.StatusOK {
		t.Fatalf("list restored folder: %d %s", status, body)
	}
	var list struct {
		Items []struct {
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, it := range list.Items {
		status, got := r.request("GET", "/api/v1/resources/raw?uri="+url.QueryEscape(it.URI), tok, nil)
		if status != http.StatusOK || !bytes.Equal(got, sent[it.Name]) {
			t.Fatalf("%s after restore: %d, %d bytes, want %d", it.Name, status, len(got), len(sent[it.Name]))
		}
		found[it.Name] = true
	}
	for name := range before {
		if !found[name] {
			t.Fatalf("%s was acknowledged before the backup began but is not in it (%d of %d restored)", name, len(found), len(sent))
		}
	}
	t.Logf("%d files restored: %d acknowledged before the backup, %d uploaded in all", len(found), len(before), len(sent))
	r.stop()
}
