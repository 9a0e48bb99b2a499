package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/testsupport/oidcop"
)

// TestPasswordLoginOffAndBreakGlass: with auth.password_login false and a
// provider in the config file, the server offers only the provider and
// refuses passwords; `user reset-password` prints a one-time sign-in that
// still lets the admin in.
func TestPasswordLoginOffAndBreakGlass(t *testing.T) {
	dir := t.TempDir()
	users := filepath.Join(dir, "users.json")
	if err := oidcop.WriteUsers(users, map[string]oidcop.User{}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	op, err := oidcop.Start(ln, users, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	addr := freePort(t)
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte(`public_url: http://`+addr+`
auth:
  password_login: false
  oidc:
    - id: corp
      name: Corp SSO
      issuer: `+op.Issuer+`
      client_id: web
      client_secret_env: KB_TEST_OIDC_SECRET
`), 0o600); err != nil {
		t.Fatal(err)
	}
	dataDir := filepath.Join(dir, "data")
	env := []string{"KB_CONFIG=" + cfg, "KB_TEST_OIDC_SECRET=s3cret", "KB_ADMIN_PASSWORD=admin-password-1"}
	s := startServerAt(t, dataDir, addr, env...)
	s.waitLine(signInLine)

	status, body := s.request("GET", "/api/v1/auth/sign-in-options", "", nil)
	if status != http.StatusOK || string(body) != `{"password_login":false,"providers":[{"id":"corp","name":"Corp SSO"}]}`+"\n" {
		t.Fatalf("sign-in options: %d %s", status, body)
	}
	if _, status := s.login("admin", "admin-password-1"); status != http.StatusForbidden {
		t.Fatalf("password login while off: %d", status)
	}

	out, err := runCLI(t, dataDir, append(env, "KB_NEW_PASSWORD=admin-password-2"), "user", "reset-password", "admin")
	m := regexp.MustCompile(`one-time sign-in, valid 15m0s: (\S+)`).FindStringSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("reset-password: %v\n%s", err, out)
	}
	link, _ := url.Parse(m[1])
	frag, _ := url.ParseQuery(link.Fragment)
	if link.Host != addr || frag.Get("sso_ticket") == "" {
		t.Fatalf("one-time address %q", m[1])
	}
	status, body = s.request("POST", "/api/v1/auth/sso/redeem", "", map[string]string{"ticket": frag.Get("sso_ticket")})
	var sess struct {
		Token string `json:"token"`
		User  struct {
			Username string `json:"username"`
		} `json:"user"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &sess) != nil || sess.User.Username != "admin" {
		t.Fatalf("redeem the break-glass ticket: %d %s", status, body)
	}
	if status, body := s.request("GET", "/api/v1/auth/me", sess.Token, nil); status != http.StatusOK || !strings.Contains(string(body), `"role":"admin"`) {
		t.Fatalf("break-glass session: %d %s", status, body)
	}
	if status, _ := s.request("POST", "/api/v1/auth/sso/redeem", "", map[string]string{"ticket": frag.Get("sso_ticket")}); status != http.StatusUnauthorized {
		t.Fatalf("the ticket worked twice: %d", status)
	}
}
