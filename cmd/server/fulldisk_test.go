//go:build linux

package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tmpfsDir mounts a file system of size the test can fill, unmounted when
// the test ends (after the server it holds has stopped).
func tmpfsDir(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the full-disk scenario mounts a small tmpfs, which needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("the full-disk scenario needs a small tmpfs, and mount refused: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return dir
}

// fill writes a file into dir until at most leave bytes are free, and
// returns its path; removing it frees the space again.
func fill(t *testing.T, dir string, leave int64) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		var st syscall.Statfs_t
		if err := syscall.Statfs(dir, &st); err != nil {
			t.Fatal(err)
		}
		free := int64(st.Bavail) * st.Bsize
		if free <= leave {
			return p
		}
		_, err := f.Write(chunk[:min(int64(len(chunk)), free-leave)])
		if errors.Is(err, syscall.ENOSPC) {
			return p
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func (s *server) davPut(user, key, path string, content []byte) answer {
	s.t.Helper()
	req, _ := http.NewRequest("PUT", "http://"+s.addr+"/dav/"+path, bytes.NewReader(content))
	req.SetBasicAuth(user, key)
	return s.send(req)
}

func zipOf(t *testing.T, name string, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type jobAnswer struct {
	Job struct {
		ID int64 `json:"id"`
	} `json:"job"`
}

// waitJob polls the job until it has ended.
func (s *server) waitJob(token string, id int64) (state, code string) {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		a := s.call("GET", fmt.Sprintf("/api/v1/jobs/%d", id), token, nil)
		var j struct {
			State string `json:"state"`
			Error *struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if a.status != http.StatusOK || json.Unmarshal(a.body, &j) != nil {
			s.t.Fatalf("job %d: %s", id, a)
		}
		switch j.State {
		case "succeeded", "failed", "cancelled":
			if j.Error != nil {
				code = j.Error.Code
			}
			return j.State, code
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("job %d did not end within 60s\n%s", id, s.logs())
	return "", ""
}

// TestFullDiskAnswersInsufficientStorage runs the real binary with its
// data directory on a small tmpfs and fills it: every write answers 507
// insufficient_storage (on PostgreSQL only those that write files: the
// database is elsewhere), the log names the full path and its free bytes,
// /readyz is not ready, and once space is freed everything works again.
func TestFullDiskAnswersInsufficientStorage(t *testing.T) {
	needBinary(t)
	for _, dialect := range davDialects() {
		t.Run(dialect, func(t *testing.T) { fullDisk(t, dialect) })
	}
}

const fullPassword = "full-admin-pw"

// smallDiskServer starts the binary on the dialect with its data
// directory on an 8 MiB tmpfs, and signs the admin in.
func smallDiskServer(t *testing.T, dialect string) (s *server, dir, session string) {
	t.Helper()
	dir = tmpfsDir(t, "8m")
	env := []string{"KB_ADMIN_PASSWORD=" + fullPassword, "KB_MIN_FREE_BYTES=262144", "KB_WORKERS=1"}
	if dialect == "postgres" {
		env = append(env, "KB_DATABASE_DSN="+freshDatabase(t))
	}
	s = startServer(t, dir, env...)
	s.waitLine(signInLine)
	return s, dir, s.mustLogin("admin", fullPassword)
}

func fullDisk(t *testing.T, dialect string) {
	s, dir, session := smallDiskServer(t, dialect)
	var tok struct {
		Token string `json:"token"`
	}
	if a := s.call("POST", "/api/v1/auth/tokens", session, map[string]string{"name": "webdav"}); a.status != http.StatusCreated || json.Unmarshal(a.body, &tok) != nil {
		t.Fatalf("create token: %s", a)
	}
	for _, f := range []string{"kb://me/kept/", "kb://me/doomed/"} {
		if a := s.call("POST", "/api/v1/resources/folders", session, map[string]string{"uri": f}); a.status != http.StatusCreated {
			t.Fatalf("mkdir %s: %s", f, a)
		}
	}
	if a := s.call("GET", "/readyz", "", nil); a.status != http.StatusOK {
		t.Fatalf("readyz before the disk fills: %s", a)
	}

	filler := fill(t, dir, 0)
	full := []struct {
		what string
		db   bool // writes the database only: succeeds on PostgreSQL
		do   func() answer
	}{
		{"upload", false, func() answer {
			return s.multipart("/api/v1/resources/upload?uri="+url.QueryEscape("kb://me/kept/"), session, "a.txt", bytes.Repeat([]byte("a"), 8<<10))
		}},
		{"WebDAV PUT", false, func() answer { return s.davPut("admin", tok.Token, "kept/b.txt", bytes.Repeat([]byte("b"), 8<<10)) }},
		{"import", false, func() answer {
			return s.multipart("/api/v1/resources/import?uri="+url.QueryEscape("kb://me/"), session, "bundle.zip", zipOf(t, "c.txt", []byte("c")))
		}},
		{"mkdir", true, func() answer {
			return s.call("POST", "/api/v1/resources/folders", session, map[string]string{"uri": "kb://me/new/"})
		}},
		{"delete", true, func() answer {
			return s.call("DELETE", "/api/v1/resources?uri="+url.QueryEscape("kb://me/doomed/"), session, nil)
		}},
		{"login", true, func() answer {
			return s.call("POST", "/api/v1/auth/login", "", map[string]string{"username": "admin", "password": fullPassword})
		}},
		{"token creation", true, func() answer {
			return s.call("POST", "/api/v1/auth/tokens", session, map[string]string{"name": "cron"})
		}},
	}
	for _, w := range full {
		a := w.do()
		switch {
		case w.db && dialect == "postgres":
			if a.status >= 300 {
				t.Errorf("%s on a full data directory with the database elsewhere: %s", w.what, a)
			}
		case a.status != http.StatusInsufficientStorage || a.code() != "insufficient_storage":
			t.Errorf("%s on a full disk: want 507 insufficient_storage, got %s", w.what, a)
		}
	}
	// Why it is not ready is the administrator's to hear, not a prober's.
	if a := s.call("GET", "/readyz", "", nil); a.status != http.StatusServiceUnavailable || a.code() != "not_ready" || strings.Contains(string(a.body), "free") {
		t.Errorf("readyz on a full disk, anonymous: want 503 not_ready without the reason, got %s", a)
	}
	if a := s.call("GET", "/readyz", session, nil); a.status != http.StatusServiceUnavailable || !strings.Contains(string(a.body), "free") {
		t.Errorf("readyz on a full disk, to the admin: want 503 naming the free space, got %s", a)
	}
	logs := s.logs()
	if !strings.Contains(logs, "code=insufficient_storage") || !strings.Contains(logs, "free_bytes=") || !strings.Contains(logs, "path="+dir) {
		t.Errorf("the log does not say which disk is full and how much is free:\n%s", logs)
	}
	if t.Failed() {
		t.FailNow()
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	for _, w := range full {
		if w.db && dialect == "postgres" {
			continue // done while the disk was full
		}
		if a := w.do(); a.status >= 300 {
			t.Errorf("%s once space is freed: %s", w.what, a)
		}
	}
	if a := s.call("GET", "/readyz", "", nil); a.status != http.StatusOK {
		t.Errorf("readyz once space is freed: %s", a)
	}
}

// TestImportFailedForSpaceIsRetried imports an archive that fits on the
// disk but whose files do not: each attempt fails for space, the job ends
// failed insufficient_storage with its archive kept, and once space is
// freed a retry completes it.
func TestImportFailedForSpaceIsRetried(t *testing.T) {
	needBinary(t)
	for _, dialect := range davDialects() {
		t.Run(dialect, func(t *testing.T) {
			s, dir, session := smallDiskServer(t, dialect)
			importForSpace(t, s, dir, session)
		})
	}
}

func importForSpace(t *testing.T, s *server, dir, session string) {
	filler := fill(t, dir, 1<<20)
	var big bytes.Buffer
	for i := 0; big.Len() < 3<<20; i++ {
		fmt.Fprintf(&big, "%08d knowspace fills the disk\n", i*7919%100000000)
	}
	a := s.multipart("/api/v1/resources/import?uri="+url.QueryEscape("kb://me/"), session, "big.zip", zipOf(t, "big.txt", big.Bytes()))
	var j jobAnswer
	if a.status != http.StatusAccepted || json.Unmarshal(a.body, &j) != nil {
		t.Fatalf("import with 1 MiB free: %s", a)
	}
	if state, code := s.waitJob(session, j.Job.ID); state != "failed" || code != "insufficient_storage" {
		t.Fatalf("import of 3 MiB with 1 MiB free ended %s %q, want failed insufficient_storage", state, code)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if a := s.call("POST", fmt.Sprintf("/api/v1/jobs/%d/retry", j.Job.ID), session, nil); a.status != http.StatusOK {
		t.Fatalf("retry the import: %s", a)
	}
	if state, code := s.waitJob(session, j.Job.ID); state != "succeeded" {
		t.Fatalf("the import retried once space is freed ended %s %q\n%s", state, code, s.logs())
	}
	a = s.call("GET", "/api/v1/resources/content?uri="+url.QueryEscape("kb://me/big/big.txt"), session, nil)
	if a.status != http.StatusOK || !strings.Contains(string(a.body), "knowspace fills the disk") {
		t.Fatalf("the imported file: %s", a)
	}
}
