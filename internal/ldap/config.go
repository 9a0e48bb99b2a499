// Package ldap signs people in against a directory (OpenLDAP, Active
// Directory, 389 Directory Server): it finds the person with a service
// account, proves the password by binding as them, and reads their
// e-mail, name and groups. It keeps no state and imports nothing of the
// project but the error type; the auth service maps the identity it
// returns to an account and groups.
package ldap

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	goldap "github.com/go-ldap/ldap/v3"
)

// Config is one directory, the ldap section of the configuration file.
// The bind password is never in the file: BindPasswordEnv names the
// environment variable that holds it.
type Config struct {
	// URL is ldap://host[:389] or ldaps://host[:636].
	URL string `yaml:"url"`
	// StartTLS upgrades an ldap:// connection to TLS before anything is
	// sent; a server that does not offer it is refused. Without it (or
	// ldaps://) passwords cross the network in clear.
	StartTLS bool `yaml:"start_tls"`
	// CAFile is a PEM bundle of the CAs the directory's certificate must
	// chain to; a self-signed server certificate may be given as its own
	// CA. Set, it replaces the system's CAs; unset, they are used.
	CAFile string `yaml:"ca_file"`
	// InsecureSkipVerify accepts any certificate, so anyone on the path
	// can read the passwords. It is false by default and meant only for a
	// first test against a directory whose CA is not at hand.
	InsecureSkipVerify bool `yaml:"insecure_skip_verify"`
	// BindDN is the service account that searches for people; empty
	// searches anonymously. BindPasswordEnv names the environment
	// variable holding its password.
	BindDN          string `yaml:"bind_dn"`
	BindPasswordEnv string `yaml:"bind_password_env"`
	// UserBaseDN is where people are searched (the whole subtree).
	UserBaseDN string `yaml:"user_base_dn"`
	// UserFilter finds one person; {username} is replaced by the typed
	// user name, escaped so it can only be a value.
	// Default (uid={username}).
	UserFilter string `yaml:"user_filter"`
	// UsernameAttribute, EmailAttribute and NameAttribute are read from
	// the person (default uid, mail, cn). The directory's spelling of the
	// user name is the one returned, whatever case was typed.
	UsernameAttribute string `yaml:"username_attribute"`
	EmailAttribute    string `yaml:"email_attribute"`
	NameAttribute     string `yaml:"name_attribute"`
	// Groups come from one of two rules, or none. MemberOfAttribute reads
	// the groups' DNs from the person (memberOf: Active Directory,
	// OpenLDAP with the memberof overlay). GroupBaseDN and GroupFilter
	// search for the groups instead; the filter's {dn} is the person's DN
	// and {username} the directory's user name, both escaped.
	MemberOfAttribute string `yaml:"member_of_attribute"`
	GroupBaseDN       string `yaml:"group_base_dn"`
	GroupFilter       string `yaml:"group_filter"`
	// GroupNameAttribute is the group's name as our groups know it
	// (default cn).
	GroupNameAttribute string `yaml:"group_name_attribute"`
	// DisabledFilter, when it matches the person's entry, marks them
	// disabled: (pwdAccountLockedTime=*) for OpenLDAP's ppolicy,
	// (userAccountControl:1.2.840.113556.1.4.803:=2) for Active
	// Directory, (nsAccountLock=TRUE) for 389 Directory Server.
	DisabledFilter string `yaml:"disabled_filter"`
	// Timeout bounds the connection and each request (default 10s).
	Timeout time.Duration `yaml:"timeout"`
}

// Defaults, and the bounds Validate holds the timeout to.
const (
	DefaultUserFilter   = "(uid={username})"
	DefaultTimeout      = 10 * time.Second
	minTimeout          = time.Second
	maxTimeout          = 5 * time.Minute
	usernamePlaceholder = "{username}"
	dnPlaceholder       = "{dn}"
)

var (
	envPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// An attribute description: a name or an OID, with options (;lang-en).
	attrPattern = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9-]*|[0-9]+(\.[0-9]+)+)(;[A-Za-z0-9-]+)*$`)
)

// withDefaults is c with every empty optional field at its default.
func (c Config) withDefaults() Config {
	set := func(field *string, def string) {
		if *field == "" {
			*field = def
		}
	}
	set(&c.UserFilter, DefaultUserFilter)
	set(&c.UsernameAttribute, "uid")
	set(&c.EmailAttribute, "mail")
	set(&c.NameAttribute, "cn")
	set(&c.GroupNameAttribute, "cn")
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	return c
}

// Validate checks c as the server does at start and names the field of
// each fault; the caller prefixes the section (ldap.). The bind
// password's variable must be set in the environment.
func (c Config) Validate() error {
	c = c.withDefaults()
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...)))
	}

	u, err := url.Parse(c.URL)
	tls := false
	switch {
	case c.URL == "" || err != nil || (u.Scheme != "ldap" && u.Scheme != "ldaps") || u.Hostname() == "":
		bad("url", "must be ldap://host[:port] or ldaps://host[:port], not %q", c.URL)
	case u.Scheme == "ldaps" && c.StartTLS:
		bad("start_tls", "ldaps:// is TLS from the start; StartTLS is for ldap:// only")
	default:
		tls = u.Scheme == "ldaps" || c.StartTLS
	}
	if c.CAFile != "" {
		switch {
		case !tls && err == nil && u.Scheme == "ldap":
			bad("ca_file", "is used only with ldaps:// or start_tls: true")
		case c.InsecureSkipVerify:
			bad("insecure_skip_verify", "set either ca_file or insecure_skip_verify, not both")
		default:
			if _, err := loadCAs(c.CAFile); err != nil {
				bad("ca_file", "%v", err)
			}
		}
	}

	switch {
	case c.BindDN != "" && c.BindPasswordEnv == "":
		bad("bind_password_env", "must name the environment variable holding bind_dn's password")
	case c.BindDN == "" && c.BindPasswordEnv != "":
		bad("bind_dn", "is empty, so bind_password_env would not be used; name the service account")
	case c.BindPasswordEnv != "" && !envPattern.MatchString(c.BindPasswordEnv):
		bad("bind_password_env", "%q is not a variable name (letters, digits and _)", c.BindPasswordEnv)
	case c.BindPasswordEnv != "" && os.Getenv(c.BindPasswordEnv) == "":
		bad("bind_password_env", "%s is not set in the environment", c.BindPasswordEnv)
	}
	checkDN := func(field, dn string, required bool) {
		if dn == "" {
			if required {
				bad(field, "must not be empty")
			}
			return
		}
		if parsed, err := goldap.ParseDN(dn); err != nil || len(parsed.RDNs) == 0 {
			bad(field, "%q is not a DN (cn=reader,dc=example,dc=org)", dn)
		}
	}
	checkDN("bind_dn", c.BindDN, false)
	checkDN("user_base_dn", c.UserBaseDN, true)
	checkDN("group_base_dn", c.GroupBaseDN, false)

	checkFilter := func(field, filter string, placeholders ...string) {
		if filter == "" {
			return
		}
		if len(placeholders) > 0 && !containsAny(filter, placeholders) {
			bad(field, "must contain %s, or it matches the same entries for everyone", strings.Join(placeholders, " or "))
			return
		}
		if _, err := goldap.CompileFilter(fill(filter, "x", "cn=x")); err != nil {
			bad(field, "%q is not an LDAP filter: %v", filter, err)
		}
	}
	checkFilter("user_filter", c.UserFilter, usernamePlaceholder)
	checkFilter("group_filter", c.GroupFilter, dnPlaceholder, usernamePlaceholder)
	checkFilter("disabled_filter", c.DisabledFilter)
	switch {
	case c.MemberOfAttribute != "" && (c.GroupBaseDN != "" || c.GroupFilter != ""):
		bad("member_of_attribute", "groups come from memberOf or from a group search, not both; leave group_base_dn and group_filter empty")
	case c.GroupFilter != "" && c.GroupBaseDN == "":
		bad("group_base_dn", "must say where group_filter searches")
	case c.GroupBaseDN != "" && c.GroupFilter == "":
		bad("group_filter", "must say which groups under group_base_dn hold the person, e.g. (member={dn})")
	}

	for _, a := range []struct{ field, value string }{
		{"username_attribute", c.UsernameAttribute}, {"email_attribute", c.EmailAttribute},
		{"name_attribute", c.NameAttribute}, {"group_name_attribute", c.GroupNameAttribute},
		{"member_of_attribute", c.MemberOfAttribute},
	} {
		if a.value != "" && !attrPattern.MatchString(a.value) {
			bad(a.field, "%q is not an attribute name", a.value)
		}
	}
	if c.Timeout < minTimeout || c.Timeout > maxTimeout {
		bad("timeout", "must be between %s and %s", minTimeout, maxTimeout)
	}
	return errors.Join(errs...)
}

// loadCAs reads a PEM bundle; one without a certificate is an error, as
// it would trust nothing and refuse every server.
func loadCAs(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return pool, nil
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// fill puts a user name and a DN into a filter's placeholders, escaped
// so that neither can change the filter's shape.
func fill(filter, username, dn string) string {
	return strings.NewReplacer(usernamePlaceholder, goldap.EscapeFilter(username), dnPlaceholder, goldap.EscapeFilter(dn)).Replace(filter)
}
