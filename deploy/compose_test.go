// Package deploy holds what a team deploys with: the Caddyfile (tested by
// the proxy test in internal/httpapi) and the root docker-compose.yml,
// checked here.
package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type service struct {
	Image       string            `yaml:"image"`
	Build       any               `yaml:"build"`
	DependsOn   map[string]dep    `yaml:"depends_on"`
	Environment map[string]string `yaml:"environment"`
	Volumes     []string          `yaml:"volumes"`
	Networks    map[string]struct {
		IPv4Address string `yaml:"ipv4_address"`
	} `yaml:"networks"`
	Healthcheck *struct {
		Test []string `yaml:"test"`
	} `yaml:"healthcheck"`
}

type dep struct {
	Condition string `yaml:"condition"`
}

// The compose file starts the team deployment of the README: a proxy over
// an API-only replica and a worker replica, on PostgreSQL and an S3 store,
// everything health-checked and started in order.
func TestComposeFile(t *testing.T) {
	raw, err := os.ReadFile("../docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Services map[string]service `yaml:"services"`
		Volumes  map[string]any     `yaml:"volumes"`
	}
	if err := yaml.Unmarshal(raw, &f); err != nil { // yaml.v3 resolves the anchors and merge keys
		t.Fatal(err)
	}
	var names []string
	for n := range f.Services {
		names = append(names, n)
	}
	slices.Sort(names)
	if want := []string{"app-api", "app-worker", "db", "proxy", "s3", "s3-init"}; !slices.Equal(names, want) {
		t.Fatalf("services %v, want %v", names, want)
	}
	for _, n := range []string{"proxy", "app-api", "app-worker", "db", "s3"} {
		if hc := f.Services[n].Healthcheck; hc == nil || len(hc.Test) < 2 || hc.Test[0] != "CMD" {
			t.Errorf("%s: no health check", n)
		}
	}
	for _, n := range []string{"app-api", "app-worker"} {
		s := f.Services[n]
		if s.Build == nil {
			t.Errorf("%s: not built from the Dockerfile", n)
		}
		if s.DependsOn["db"].Condition != "service_healthy" || s.DependsOn["s3-init"].Condition != "service_completed_successfully" {
			t.Errorf("%s: depends_on %v: wants a healthy db and the bucket made", n, s.DependsOn)
		}
		e := s.Environment
		if e["KB_BLOB_STORE"] != "s3" || e["KB_S3_ENDPOINT"] != "http://s3:8333" || e["KB_S3_BUCKET"] == "" ||
			e["AWS_ACCESS_KEY_ID"] == "" || e["AWS_SECRET_ACCESS_KEY"] == "" || !strings.HasPrefix(e["KB_DATABASE_DSN"], "postgres://") {
			t.Errorf("%s: environment %v lacks the shared stores", n, e)
		}
		if !strings.Contains(strings.Join(s.Healthcheck.Test, " "), "/readyz") {
			t.Errorf("%s: health check %v is not /readyz", n, s.Healthcheck.Test)
		}
	}
	if w := f.Services["app-api"].Environment["KB_WORKERS"]; w != "0" {
		t.Errorf("app-api: KB_WORKERS=%q, want 0", w)
	}
	if w := f.Services["app-worker"].Environment["KB_WORKERS"]; w == "" || w == "0" {
		t.Errorf("app-worker: KB_WORKERS=%q, want workers", w)
	}
	if f.Services["app-api"].Volumes[0] == f.Services["app-worker"].Volumes[0] {
		t.Error("the replicas share a data volume: all shared state belongs in db and s3")
	}
	p := f.Services["proxy"]
	if !slices.Contains(p.Volumes, "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro") {
		t.Errorf("proxy: volumes %v do not mount deploy/Caddyfile", p.Volumes)
	}
	if up := strings.Fields(p.Environment["KNOWSPACE_UPSTREAMS"]); !slices.Equal(up, []string{"app-api:8080", "app-worker:8080"}) {
		t.Errorf("proxy: upstreams %v", up)
	}
	for _, n := range []string{"app-api", "app-worker"} {
		if p.DependsOn[n].Condition != "service_healthy" {
			t.Errorf("proxy: does not wait for a healthy %s", n)
		}
		// Otherwise every client is the proxy to the login throttle.
		if proxy, trusted := p.Networks["default"].IPv4Address, f.Services[n].Environment["KB_TRUSTED_PROXIES"]; proxy == "" || trusted != proxy {
			t.Errorf("%s: KB_TRUSTED_PROXIES %q does not name the proxy's address %q", n, trusted, proxy)
		}
	}
	if s := f.Services["s3"]; !strings.HasPrefix(s.Image, "chrislusf/seaweedfs") || f.Services["s3-init"].DependsOn["s3"].Condition != "service_healthy" {
		t.Errorf("s3: image %q, s3-init depends_on %v", s.Image, f.Services["s3-init"].DependsOn)
	}
	for _, s := range f.Services {
		for _, v := range s.Volumes {
			name, _, _ := strings.Cut(v, ":")
			if _, ok := f.Volumes[name]; !ok && !strings.HasPrefix(name, ".") {
				t.Errorf("volume %s is not declared", name)
			}
		}
	}
	if _, err := os.Stat(filepath.Join("..", "deploy", "Caddyfile")); err != nil {
		t.Error(err)
	}
}

// With the docker CLI and its compose plugin, compose itself validates the
// file (interpolation, merge keys, references).
func TestComposeConfigValidates(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("no docker CLI: TestComposeFile checks the YAML alone")
	}
	if exec.Command("docker", "compose", "version").Run() != nil {
		t.Skip("the docker CLI has no compose plugin: TestComposeFile checks the YAML alone")
	}
	cmd := exec.Command("docker", "compose", "-f", "../docker-compose.yml", "config", "--quiet")
	cmd.Env = append(os.Environ(), "KB_JWT_SECRET="+strings.Repeat("s", 32), "KB_ADMIN_PASSWORD=compose-test")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("docker compose config: %v\n%s", err, out)
	}
}
