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
  logins_per_second: 40
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
	if c.Listen != ":7000" || c.DataDir != "/srv/ks" || c.Workers != 0 || c.Limits.StreamsPerUser != 2 || c.Limits.QueuedJobsPerUser != 200 || c.Limits.LoginsPerSecond != 40 ||
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

func TestBlobStoreFromFileAndEnv(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || c.BlobStore != "disk" {
		t.Fatalf("default: %q %v", c.BlobStore, err)
	}
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("blob_store: s3\ns3:\n  endpoint: http://s3:8333\n  bucket: kb\n  prefix: blobs/\n  region: eu-west-1\n"), 0o600)
	c, err = Load(path, env(map[string]string{"KB_S3_BUCKET": "other"}))
	if err != nil {
		t.Fatal(err)
	}
	want := S3Store{Endpoint: "http://s3:8333", Bucket: "other", Prefix: "blobs/", Region: "eu-west-1"}
	if c.BlobStore != "s3" || c.S3 != want {
		t.Fatalf("got %q %+v, want s3 %+v", c.BlobStore, c.S3, want)
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
		{"limits:\n  logins_per_second: -1", "", "limits.logins_per_second"},
		{"session_ttl: 10h\nsession_max_ttl: 1h", "", "session_max_ttl"},
		{"limits:\n  body_idle_timeout: 10ms", "", "limits.body_idle_timeout"},
		{"limits:\n  read_header_timeout: 0s", "", "limits.read_header_timeout"},
		{"max_upload_bytes: 100\nmax_upload_request_bytes: 99", "", "max_upload_request_bytes"},
		{"", "KB_WORKERS=x", "KB_WORKERS"},
		{"min_free_bytes: -1", "", "min_free_bytes:"},
		{"", "KB_MIN_FREE_BYTES=lots", "KB_MIN_FREE_BYTES"},
		{"blob_store: nfs", "", "blob_store:"},
		{"blob_store: s3\ns3:\n  bucket: b", "", "s3.endpoint"},
		{"blob_store: s3\ns3:\n  endpoint: http://s3:8333", "", "s3.bucket"},
		{"blob_store: s3\ns3:\n  endpoint: http://s3:8333\n  bucket: b\n  prefix: kb", "", "s3.prefix"},
		{"auth:\n  password_login: false", "", "auth.password_login"},
		{"turns:\n  detached_timeout: 10ms", "", "turns.detached_timeout"},
		{"auth:\n  oidc:\n    - id: corp\n      issuer: https://idp.example\n      client_id: kb\n      client_secret_env: S", "S=x", "public_url:"},
		{"public_url: https://kb.example/app\nauth:\n  oidc:\n    - id: corp", "", "public_url:"},
		{"public_url: https://kb.example\nauth:\n  oidc:\n    - id: Corp!", "", "auth.oidc[0].id"},
		{"public_url: https://kb.example\nauth:\n  oidc:\n    - id: corp\n      issuer: http://idp.example\n      client_id: kb\n      client_secret_env: S", "S=x", "auth.oidc[0].issuer"},
		{"public_url: https://kb.example\nauth:\n  oidc:\n    - id: corp\n      issuer: https://idp.example\n      client_id: kb\n      client_secret_env: S", "", "environment variable S is empty"},
		{"public_url: https://kb.example\nauth:\n  oidc:\n    - id: corp\n      issuer: https://idp.example\n      client_id: kb\n      client_secret_env: S\n      groups: {eng: engineering}", "S=x", "auth.oidc[0].groups_claim"},
		{"public_url: https://kb.example\nauth:\n  oidc:\n    - id: corp\n      issuer: https://idp.example\n      client_id: kb\n      client_secret_env: S\n      scopes: [email]", "S=x", "auth.oidc[0].scopes"},
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

// trusted_proxies is a list of ranges (a bare address is one address);
// KB_TRUSTED_PROXIES replaces it, comma separated; the default trusts
// no one.
func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || len(c.TrustedProxies) != 0 || len(c.TrustedProxyRanges()) != 0 {
		t.Fatalf("default: %v %v", c.TrustedProxies, err)
	}
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("trusted_proxies: [10.0.0.0/8, 192.0.2.7, '2001:db8::/32']\n"), 0o600)
	for _, tc := range []struct {
		env  string
		want string
	}{
		{"", "10.0.0.0/8 192.0.2.7/32 2001:db8::/32"},
		{"172.30.118.10/32, 127.0.0.1", "172.30.118.10/32 127.0.0.1/32"},
	} {
		c, err := Load(path, env(map[string]string{"KB_TRUSTED_PROXIES": tc.env}))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range c.TrustedProxyRanges() {
			got = append(got, n.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Fatalf("KB_TRUSTED_PROXIES=%q: %v, want %s", tc.env, got, tc.want)
		}
	}
	for _, bad := range []string{"trusted_proxies: [proxy.local]\n", "trusted_proxies: [10.0.0.0/33]\n", "trusted_proxies: ['']\n"} {
		os.WriteFile(path, []byte(bad), 0o600)
		if _, err := Load(path, env(nil)); err == nil || !strings.Contains(err.Error(), "trusted_proxies[0]") {
			t.Errorf("%q: want an error naming trusted_proxies[0], got %v", bad, err)
		}
	}
	if _, err := Load("", env(map[string]string{"KB_TRUSTED_PROXIES": "10.0.0.1,x"})); err == nil || !strings.Contains(err.Error(), `trusted_proxies[1]: "x"`) {
		t.Errorf("bad KB_TRUSTED_PROXIES: %v", err)
	}
}

func TestMinFreeBytesDefaultFileAndEnv(t *testing.T) {
	t.Parallel()
	c, err := Load("", env(nil))
	if err != nil || c.MinFreeBytes != 256<<20 {
		t.Fatalf("default: %d %v", c.MinFreeBytes, err)
	}
	path := filepath.Join(t.TempDir(), "k.yaml")
	os.WriteFile(path, []byte("min_free_bytes: 1048576\n"), 0o600)
	if c, err = Load(path, env(nil)); err != nil || c.MinFreeBytes != 1<<20 {
		t.Fatalf("from the file: %d %v", c.MinFreeBytes, err)
	}
	if c, err = Load(path, env(map[string]string{"KB_MIN_FREE_BYTES": "0"})); err != nil || c.MinFreeBytes != 0 {
		t.Fatalf("KB_MIN_FREE_BYTES=0 turns the check off: %d %v", c.MinFreeBytes, err)
	}
}
