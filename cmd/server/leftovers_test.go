package main

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestKilledUploadLeavesNothingAtNextStart: a server killed with -9 while
// it staged an upload and a backup killed midway leave their files in the
// data directory; once kept for an hour (723 MiB after 9 killed uploads),
// they are now removed by the next start, which logs their size.
func TestKilledUploadLeavesNothingAtNextStart(t *testing.T) {
	needBinary(t)
	dir := t.TempDir()
	const password = "leftover-admin-pw"
	s := startServer(t, dir, "KB_ADMIN_PASSWORD="+password)
	s.waitLine(signInLine)
	tok := s.mustLogin("admin", password)

	// An upload that sends 4 MiB and then waits.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	req, _ := http.NewRequest("POST", "http://"+s.addr+"/api/v1/resources/upload?uri=kb://me/", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	go func() {
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}()
	w, _ := mw.CreateFormFile("file", "big.txt")
	if _, err := w.Write([]byte(strings.Repeat("a line of a slow upload\n", 4<<20/24))); err != nil {
		t.Fatal(err)
	}
	staged := waitStaged(t, filepath.Join(dir, "tmp"), 3<<20)
	// A backup's work directory a killed backup run left behind.
	backupDir := filepath.Join(dir, "backup-killed")
	if err := os.Mkdir(backupDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(backupDir, ".owner"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(backupDir, "db"), make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}

	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-s.done
	pw.CloseWithError(fmt.Errorf("the server died"))

	s2 := startServer(t, dir, "KB_ADMIN_PASSWORD="+password)
	s2.waitLine(signInLine)
	for _, p := range []string{staged, backupDir} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived the restart: %v", p, err)
		}
	}
	logs := s2.logs()
	for _, want := range []string{filepath.Dir(staged), backupDir} {
		if !strings.Contains(logs, `removed a crashed process's leftovers" path=`+want+" bytes=") {
			t.Errorf("the start did not log removing %s:\n%s", want, logs)
		}
	}
}

// waitStaged waits for a staged upload file of at least size bytes below
// tmp and returns its path.
func waitStaged(t *testing.T, tmp string, size int64) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var found string
		filepath.Walk(tmp, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasPrefix(info.Name(), "upload-") && info.Size() >= size {
				found = p
			}
			return nil
		})
		if found != "" {
			return found
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no staged upload of %d bytes appeared under %s", size, tmp)
	return ""
}
