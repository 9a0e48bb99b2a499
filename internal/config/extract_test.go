package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Automatic extraction is on by default, with one worker where compile
// workers run and none on an API-only replica; the file and the
// environment set it, and a count out of range is refused by name.
func TestExtractConfig(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || !c.Extract.On() || c.Extract.WorkerCount(c.Workers) != 1 || c.Extract.WorkerCount(0) != 0 {
		t.Fatalf("defaults %+v %v", c.Extract, err)
	}
	c, err = Load("", env(map[string]string{"KB_EXTRACT_WORKERS": "3", "KB_WORKERS": "0"}))
	if err != nil || c.Extract.WorkerCount(c.Workers) != 3 {
		t.Fatalf("from the environment %+v %v", c.Extract, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "k.yaml")
	os.WriteFile(path, []byte("extract:\n  auto: false\n  workers: 2\n"), 0o600)
	if c, err = Load(path, env(nil)); err != nil || c.Extract.On() || c.Extract.WorkerCount(2) != 0 {
		t.Fatalf("turned off %+v %v", c.Extract, err)
	}
	os.WriteFile(path, []byte("extract:\n  workers: 65\n"), 0o600)
	if _, err = Load(path, env(nil)); err == nil || !strings.Contains(err.Error(), "extract.workers") {
		t.Fatalf("65 workers: %v", err)
	}
	if _, err = Load("", env(map[string]string{"KB_EXTRACT_WORKERS": "many"})); err == nil || !strings.Contains(err.Error(), "KB_EXTRACT_WORKERS") {
		t.Fatalf("a word for a count: %v", err)
	}
}
