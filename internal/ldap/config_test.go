package ldap_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/ldap"
	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
)

func TestValidate(t *testing.T) {
	t.Setenv("KB_TEST_LDAP_BIND", "secret")
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	ldaptest.WriteSelfSigned(t, ca, filepath.Join(dir, "key.pem"))
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	good := func() ldap.Config {
		return ldap.Config{
			URL:             "ldaps://ldap.example.org",
			CAFile:          ca,
			BindDN:          "cn=reader,dc=example,dc=org",
			BindPasswordEnv: "KB_TEST_LDAP_BIND",
			UserBaseDN:      "ou=people,dc=example,dc=org",
		}
	}
	for _, tc := range []struct {
		name   string
		change func(*ldap.Config)
		want   string // "" is valid; otherwise a piece of the message
	}{
		{"defaults fill the rest", func(*ldap.Config) {}, ""},
		{"StartTLS", func(c *ldap.Config) { c.URL, c.StartTLS = "ldap://ldap.example.org:389", true }, ""},
		{"Active Directory", func(c *ldap.Config) {
			c.UserFilter = "(&(objectCategory=person)(sAMAccountName={username}))"
			c.UsernameAttribute, c.NameAttribute, c.MemberOfAttribute = "sAMAccountName", "displayName", "memberOf"
			c.DisabledFilter = "(userAccountControl:1.2.840.113556.1.4.803:=2)"
		}, ""},
		{"group search", func(c *ldap.Config) {
			c.GroupBaseDN, c.GroupFilter = "ou=groups,dc=example,dc=org", "(member={dn})"
		}, ""},
		{"no url", func(c *ldap.Config) { c.URL = "" }, "url:"},
		{"http url", func(c *ldap.Config) { c.URL = "https://ldap.example.org" }, "url:"},
		{"url without host", func(c *ldap.Config) { c.URL = "ldap://" }, "url:"},
		{"StartTLS on ldaps", func(c *ldap.Config) { c.StartTLS = true }, "start_tls:"},
		{"ca_file with neither TLS", func(c *ldap.Config) { c.URL = "ldap://ldap.example.org" }, "ca_file:"},
		{"ca_file missing", func(c *ldap.Config) { c.CAFile = filepath.Join(dir, "nope.pem") }, "ca_file:"},
		{"ca_file holds no certificate", func(c *ldap.Config) { c.CAFile = notPEM }, "ca_file:"},
		{"CA and no verification", func(c *ldap.Config) { c.InsecureSkipVerify = true }, "insecure_skip_verify:"},
		{"bind_dn without password", func(c *ldap.Config) { c.BindPasswordEnv = "" }, "bind_password_env:"},
		{"password env unset", func(c *ldap.Config) { c.BindPasswordEnv = "KB_TEST_LDAP_UNSET" }, "KB_TEST_LDAP_UNSET is not set"},
		{"password env not a name", func(c *ldap.Config) { c.BindPasswordEnv = "A-B" }, "bind_password_env:"},
		{"password env without bind_dn", func(c *ldap.Config) { c.BindDN = "" }, "bind_dn:"},
		{"bad bind_dn", func(c *ldap.Config) { c.BindDN = "reader" }, "bind_dn:"},
		{"no user_base_dn", func(c *ldap.Config) { c.UserBaseDN = "" }, "user_base_dn:"},
		{"user_filter without placeholder", func(c *ldap.Config) { c.UserFilter = "(uid=alice)" }, "user_filter:"},
		{"user_filter unbalanced", func(c *ldap.Config) { c.UserFilter = "(uid={username}" }, "user_filter:"},
		{"both group rules", func(c *ldap.Config) {
			c.MemberOfAttribute, c.GroupBaseDN, c.GroupFilter = "memberOf", "ou=groups,dc=example,dc=org", "(member={dn})"
		}, "member_of_attribute:"},
		{"group_filter without base", func(c *ldap.Config) { c.GroupFilter = "(member={dn})" }, "group_base_dn:"},
		{"group base without filter", func(c *ldap.Config) { c.GroupBaseDN = "ou=groups,dc=example,dc=org" }, "group_filter:"},
		{"group_filter names nobody", func(c *ldap.Config) {
			c.GroupBaseDN, c.GroupFilter = "ou=groups,dc=example,dc=org", "(objectClass=groupOfNames)"
		}, "group_filter:"},
		{"disabled_filter malformed", func(c *ldap.Config) { c.DisabledFilter = "nsAccountLock=TRUE" }, "disabled_filter:"},
		{"attribute name with a space", func(c *ldap.Config) { c.EmailAttribute = "e mail" }, "email_attribute:"},
		{"timeout too short", func(c *ldap.Config) { c.Timeout = time.Millisecond }, "timeout:"},
		{"timeout too long", func(c *ldap.Config) { c.Timeout = time.Hour }, "timeout:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := good()
			tc.change(&c)
			err := c.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("Validate accepted it, want an error with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("Validate: %v, want it to say %q", err, tc.want)
			}
		})
	}
}
