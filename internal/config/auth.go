package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/ldap"
)

// Auth is how people sign in.
type Auth struct {
	// PasswordLogin offers the password form (default true). Off, only the
	// providers sign people in; `knowspace user reset-password` stays the
	// break-glass way in for an admin.
	PasswordLogin *bool          `yaml:"password_login"`
	OIDC          []OIDCProvider `yaml:"oidc"`
	// LDAP checks the sign-in form's passwords against a directory; local
	// passwords are tried first, so the first admin keeps theirs.
	LDAP *LDAP `yaml:"ldap"`
}

// LDAP is a directory and what its sign-ins may do to our accounts.
type LDAP struct {
	ldap.Config `yaml:",inline"`
	// Groups maps directory group names (group_name_attribute) to our
	// groups; AdminValues are group names that make an admin.
	Groups      map[string]string `yaml:"groups"`
	AdminValues []string          `yaml:"admin_values"`
	JIT         *bool             `yaml:"jit"`
	LinkByEmail bool              `yaml:"link_by_email"`
}

// FormShown tells whether the login page shows the user name and password
// form: for local passwords, or for the directory's.
func (a Auth) FormShown() bool { return a.PasswordsAllowed() || a.LDAP != nil }

// Turns bounds detached turns (a stream request with detach: true).
type Turns struct {
	// DetachedTimeout ends a detached turn nobody has followed this long
	// (default 10 minutes).
	DetachedTimeout time.Duration `yaml:"detached_timeout"`
}

// PasswordsAllowed tells whether the password form is offered.
func (a Auth) PasswordsAllowed() bool { return a.PasswordLogin == nil || *a.PasswordLogin }

// OIDCProvider is one OpenID Connect identity provider.
type OIDCProvider struct {
	ID     string `yaml:"id"`   // in addresses: /api/v1/auth/sso/<id>/…
	Name   string `yaml:"name"` // on the login button
	Issuer string `yaml:"issuer"`
	// ClientID and the name of the environment variable that holds the
	// client secret, so the secret never sits in the file.
	ClientID        string   `yaml:"client_id"`
	ClientSecretEnv string   `yaml:"client_secret_env"`
	ClientSecret    string   `yaml:"-"`
	Scopes          []string `yaml:"scopes"`  // default openid, profile, email
	CAFile          string   `yaml:"ca_file"` // PEM bundle the provider's certificate chains to
	// UsernameClaim names new accounts (default preferred_username, then
	// the address's local part).
	UsernameClaim string `yaml:"username_claim"`
	// GroupsClaim is a dotted path into the ID token or userinfo
	// (groups, roles, realm_access.roles); Groups maps its values to our
	// groups. Only groups named in Groups are managed: a group made by hand
	// is never touched.
	GroupsClaim string            `yaml:"groups_claim"`
	Groups      map[string]string `yaml:"groups"`
	// AdminValues are claim values that make the account an admin; when set,
	// every sign-in sets the role (admin with one of them, user without).
	AdminValues []string `yaml:"admin_values"`
	// JIT creates an account at a first sign-in (default true).
	JIT *bool `yaml:"jit"`
	// LinkByEmail lets a first sign-in take over the existing account with
	// the same address, when the provider says the address is verified.
	LinkByEmail bool `yaml:"link_by_email"`
}

// CreatesAccounts tells whether a first sign-in makes an account.
func (p OIDCProvider) CreatesAccounts() bool { return p.JIT == nil || *p.JIT }

// ScopesOrDefault is the scopes the sign-in asks for.
func (p OIDCProvider) ScopesOrDefault() []string {
	if len(p.Scopes) == 0 {
		return []string{"openid", "profile", "email"}
	}
	return p.Scopes
}

var providerID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// readSecrets fills each provider's secret from its environment variable.
func (a *Auth) readSecrets(getenv func(string) string) {
	for i := range a.OIDC {
		if a.OIDC[i].ClientSecretEnv != "" {
			a.OIDC[i].ClientSecret = getenv(a.OIDC[i].ClientSecretEnv)
		}
	}
}

func (c Config) validateAuth() error {
	if d := c.Turns.DetachedTimeout; d != 0 && (d < time.Second || d > 24*time.Hour) {
		return fmt.Errorf("turns.detached_timeout: %s must be between 1s and 24h", d)
	}
	if len(c.Auth.OIDC) > 0 {
		if err := validatePublicURL(c.PublicURL); err != nil {
			return err
		}
	}
	if !c.Auth.PasswordsAllowed() && len(c.Auth.OIDC) == 0 && c.Auth.LDAP == nil {
		return errors.New("auth.password_login: false leaves no way to sign in; configure auth.oidc or auth.ldap first")
	}
	if c.Auth.LDAP != nil {
		if err := c.Auth.LDAP.Validate(); err != nil {
			return fmt.Errorf("auth.ldap: %w", err)
		}
	}
	seen := map[string]bool{}
	for i, p := range c.Auth.OIDC {
		where := fmt.Sprintf("auth.oidc[%d]", i)
		if !providerID.MatchString(p.ID) {
			return fmt.Errorf("%s.id: %q must be 1-32 lower-case letters, digits or '-'", where, p.ID)
		}
		if seen[p.ID] {
			return fmt.Errorf("%s.id: %q is used twice", where, p.ID)
		}
		seen[p.ID] = true
		if err := validateIssuer(p.Issuer); err != nil {
			return fmt.Errorf("%s.issuer: %w", where, err)
		}
		if p.ClientID == "" {
			return fmt.Errorf("%s.client_id: must not be empty", where)
		}
		if p.ClientSecretEnv == "" {
			return fmt.Errorf("%s.client_secret_env: name the environment variable that holds the client secret", where)
		}
		if p.ClientSecret == "" {
			return fmt.Errorf("%s.client_secret_env: the environment variable %s is empty or unset", where, p.ClientSecretEnv)
		}
		if len(p.Scopes) > 0 && !slices.Contains(p.Scopes, "openid") {
			return fmt.Errorf("%s.scopes: must include openid", where)
		}
		if (len(p.Groups) > 0 || len(p.AdminValues) > 0) && p.GroupsClaim == "" {
			return fmt.Errorf("%s.groups_claim: name the claim that groups and admin_values are read from", where)
		}
	}
	return nil
}

// validateIssuer wants https, or http on this machine only: an ID token
// fetched in clear text from another host could be anyone's.
func validateIssuer(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL", s)
	}
	if u.Scheme == "https" {
		return nil
	}
	if u.Scheme == "http" && isLoopback(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("%q must be https (http only for localhost)", s)
}

func validatePublicURL(s string) error {
	if s == "" {
		return errors.New("public_url: single sign-on needs the address users reach the server at (https://kb.example.com), for the providers' redirect")
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || strings.Trim(u.Path, "/") != "" {
		return fmt.Errorf("public_url: %q must be http(s)://host[:port] with no path", s)
	}
	return nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
