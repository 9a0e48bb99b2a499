package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
)

// `secrets rotate` reseals the admin's model keys with KB_NEW_SECRETS_KEY:
// restarted with the new secrets key the server still chats with the
// model; without a new key, or with the wrong current one, it refuses and
// changes nothing.
func TestSecretsRotate(t *testing.T) {
	needBinary(t)
	fake := apptest.StartFake(t, fakellm.Options{})
	const (
		password = "rotate-admin-pw"
		key      = "sk-rotate-model-key-99f0e1"
	)
	oldKey, newKey := "KB_SECRETS_KEY="+strings.Repeat("o", 32), strings.Repeat("n", 32)
	dataDir := t.TempDir()
	s := startServer(t, dataDir, "KB_ADMIN_PASSWORD="+password, oldKey)
	s.waitLine(signInLine)
	tok := s.mustLogin("admin", password)
	if a := s.call("POST", "/api/v1/admin/models", tok, map[string]any{"id": "rotated", "profile": "openai-compatible",
		"base_url": fake.URL + "/v1", "context_window": 16384, "output_reserve": 1024, "api_key": key}); a.status != http.StatusCreated {
		t.Fatalf("add a model: %s", a)
	}
	s.stop()

	// A backup holds the key sealed only: no member of the archive, the
	// database dump included, carries it.
	archive := filepath.Join(t.TempDir(), "backup.tar.gz")
	if out, err := runCLI(t, dataDir, []string{oldKey}, "backup", "--out", archive); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	scanArchive(t, archive, key, fake.URL+"/v1")

	if out, err := runCLI(t, dataDir, []string{oldKey}, "secrets", "rotate"); err == nil || !strings.Contains(out, "KB_NEW_SECRETS_KEY") {
		t.Fatalf("rotate without a new key: %v\n%s", err, out)
	}
	if out, err := runCLI(t, dataDir, []string{"KB_SECRETS_KEY=" + strings.Repeat("w", 32), "KB_NEW_SECRETS_KEY=" + newKey}, "secrets", "rotate"); err == nil || !strings.Contains(out, "another secrets key") {
		t.Fatalf("rotate with a wrong current key: %v\n%s", err, out)
	}
	out, err := runCLI(t, dataDir, []string{oldKey, "KB_NEW_SECRETS_KEY=" + newKey}, "secrets", "rotate")
	if err != nil || !strings.Contains(out, "1 key(s) now sealed") || strings.Contains(out, key) {
		t.Fatalf("rotate: %v\n%s", err, out)
	}

	s = startServer(t, dataDir, "KB_ADMIN_PASSWORD="+password, "KB_SECRETS_KEY="+newKey)
	s.waitLine(signInLine)
	tok = s.mustLogin("admin", password)
	if a := s.call("POST", "/api/v1/knowledge-agent/stream", tok, map[string]any{"uri": "kb://me/", "model_id": "rotated",
		"message": "hi", "temporary": true}); a.status != http.StatusOK || !strings.Contains(string(a.body), "event: done") {
		t.Fatalf("chat after the rotation: %s\n%s", a, s.logs())
	}
	if last := fake.Requests()[len(fake.Requests())-1]; last.Header.Get("Authorization") != "Bearer "+key {
		t.Fatal("the provider did not get the key after the rotation")
	}
}

// scanArchive fails when any member of the .tar.gz holds secret, or none
// holds shown (a value stored beside it: the scan did read the row).
func scanArchive(t *testing.T, path, secret, shown string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	seen := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		seen = seen || bytes.Contains(body, []byte(shown))
		if bytes.Contains(body, []byte(secret)) {
			t.Fatalf("the backup's %s holds the key", h.Name)
		}
	}
	if !seen {
		t.Fatalf("no member of the backup holds %q: the scan proves nothing", shown)
	}
}
