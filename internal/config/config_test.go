package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestLoadFileThenEnv(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte(`
listen: 127.0.0.1:9000
data_dir: /srv/ks
workers: 3
limits:
  streams_per_user: 2
  body_idle_timeout: 5s
models:
  - id: local
    name: Local
    profile: openai-compatible
    base_url: http://127.0.0.1:9999/v1
    api_key: sk-local
    context_window: 8192
    output_reserve: 1024
    native_tools: true
`), 0o600)
	c, err := Load(path, env(map[string]string{"KB_LISTEN": ":7000", "KB_WORKERS": "0"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != ":7000" || c.DataDir != "/srv/ks" || c.Workers != 0 || c.Limits.StreamsPerUser != 2 || c.Limits.QueuedJobsPerUser != 200 ||
		c.Limits.BodyIdleTimeout != 5*time.Second || c.Limits.BodyTimeout != 30*time.Second || c.Limits.ReadHeaderTimeout != 10*time.Second ||
		c.MaxUploadRequestBytes != DefaultMaxUploadRequest || len(c.Models) != 1 || c.Models[0].ID != "local" {
		t.Fatalf("%+v", c)
	}
}

func TestConversationsStoreDefaultsOn(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || !c.Conversations.Store {
		t.Fatalf("default: %+v %v", c.Conversations, err)
	}
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("conversations:\n  store: false\n"), 0o600)
	if c, err = Load(path, env(nil)); err != nil || c.Conversations.Store {
		t.Fatalf("store: false: %+v %v", c.Conversations, err)
	}
	os.WriteFile(path, []byte("conversations:\n  keep: 3\n"), 0o600)
	if _, err = Load(path, env(nil)); err == nil || !strings.Contains(err.Error(), "keep") {
		t.Fatalf("unknown conversations key: %v", err)
	}
}

func TestLoadErrorsNameTheField(t *testing.T) {
	t.Parallel()
	cases := []struct{ yaml, env, want string }{
		{"listen: nowhere", "", "listen:"},
		{"unknown_key: 1", "", "unknown_key"},
		{"database_dsn: mysql://x", "", "database_dsn:"},
		{"jwt_secret: short", "", "jwt_secret:"},
		{"workers: 500", "", "workers:"},
		{"limits:\n  streams_per_user: 0", "", "limits.streams_per_user"},
		{"limits:\n  queued_jobs_per_user: -1", "", "limits.queued_jobs_per_user"},
		{"session_ttl: 10h\nsession_max_ttl: 1h", "", "session_max_ttl"},
		{"limits:\n  body_idle_timeout: 10ms", "", "limits.body_idle_timeout"},
		{"limits:\n  read_header_timeout: 0s", "", "limits.read_header_timeout"},
		{"max_upload_bytes: 100\nmax_upload_request_bytes: 99", "", "max_upload_request_bytes"},
		{"", "KB_WORKERS=x", "KB_WORKERS"},
		{"models:\n  - id: m\n    profile: openai\n    base_url: ftp://x\n    api_key: k\n    context_window: 8192\n    output_reserve: 1024", "", "models[0].base_url"},
	}
	for _, tc := range cases {
		path := filepath.Join(t.TempDir(), "k.yaml")
		os.WriteFile(path, []byte(tc.yaml), 0o600)
		e := map[string]string{}
		if k, v, ok := strings.Cut(tc.env, "="); ok {
			e[k] = v
		}
		_, err := Load(path, env(e))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: want error naming %q, got %v", tc.yaml, tc.want, err)
		}
	}
}

func TestEmptyFileMeansDefaults(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, nil, 0o600)
	c, err := Load(path, env(nil))
	if err != nil || c.Listen != DefaultListen || c.MaxUploadBytes != DefaultMaxUploadBytes {
		t.Fatalf("%+v %v", c, err)
	}
}
