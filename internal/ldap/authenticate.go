package ldap

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	goldap "github.com/go-ldap/ldap/v3"
)

// Identity is the person the directory vouched for.
type Identity struct {
	DN       string
	Username string // the directory's spelling (username_attribute)
	Email    string // empty when the entry has none
	Name     string
	Groups   []string // group names (group_name_attribute), sorted, never nil
}

// Limits of what one sign-in reads.
const (
	maxUsernameBytes = 256
	// maxGroups bounds a group search; a person in more groups is refused
	// with directory_error rather than given a cut list.
	maxGroups = 1000
)

// Authenticate signs username in: the service account searches for the
// one entry user_filter matches, a bind as that entry proves the
// password, and then the service account reads the disabled rule and the
// groups. cfg must have passed Validate.
//
// Every failure is an *apierr.Error: invalid_credentials for an unknown
// user, a wrong or empty password (ErrUnknownUser, ErrWrongPassword,
// ErrEmptyPassword; ErrDisabled too when the entry is disabled);
// account_disabled (ErrDisabled) only once the password proved right, so
// a guess learns nothing; directory_unavailable (ErrUnreachable),
// directory_tls (ErrTLS) and directory_error (ErrServiceBind,
// ErrNoUserBase, ErrAmbiguousUser, or a search the directory refused) for
// the server's side. A cancelled ctx returns its error.
func Authenticate(ctx context.Context, cfg Config, username, password string) (Identity, error) {
	cfg = cfg.withDefaults()
	// An empty password makes a simple bind "unauthenticated" (RFC 4513
	// 5.1.2), which many directories answer with success.
	if password == "" {
		return Identity{}, refuse(errInvalidCredentials, ErrEmptyPassword, nil)
	}
	if username == "" || len(username) > maxUsernameBytes || strings.ContainsRune(username, 0) {
		return Identity{}, refuse(errInvalidCredentials, ErrUnknownUser, nil)
	}
	conn, err := dial(ctx, cfg)
	if err != nil {
		return Identity{}, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	s := session{cfg: cfg, conn: conn}
	id, err := s.signIn(username, password)
	if ctx.Err() != nil {
		return Identity{}, fmt.Errorf("ldap sign-in of %q: %w", username, ctx.Err())
	}
	return id, err
}

// session is one sign-in's connection and settings.
type session struct {
	cfg  Config
	conn *goldap.Conn
}

func (s session) signIn(username, password string) (Identity, error) {
	if err := s.bindService(); err != nil {
		return Identity{}, err
	}
	entry, err := s.findUser(username)
	if errors.Is(err, ErrUnknownUser) {
		s.decoy(password)
		return Identity{}, err
	}
	if err != nil {
		return Identity{}, err
	}
	bindErr := s.conn.Bind(entry.DN, password)
	if bindErr != nil && !goldap.IsErrorWithCode(bindErr, goldap.LDAPResultInvalidCredentials) {
		return Identity{}, s.fault(bindErr, "bind as the user")
	}
	// The rest is read as the service account: a person may not be allowed
	// to read their own groups.
	if err := s.bindService(); err != nil {
		return Identity{}, err
	}
	disabled, err := s.matches(entry.DN, s.cfg.DisabledFilter)
	switch {
	case err != nil:
		return Identity{}, err
	case bindErr != nil && disabled:
		// Active Directory and an enforcing ppolicy refuse a disabled
		// account's bind themselves; the answer stays a wrong password,
		// the cause tells the log why.
		return Identity{}, refuse(errInvalidCredentials, ErrWrongPassword, errors.Join(ErrDisabled, bindErr))
	case bindErr != nil:
		return Identity{}, refuse(errInvalidCredentials, ErrWrongPassword, bindErr)
	case disabled:
		return Identity{}, refuse(errDisabled, ErrDisabled, nil)
	}
	id := Identity{
		DN:       entry.DN,
		Username: entry.GetEqualFoldAttributeValue(s.cfg.UsernameAttribute),
		Email:    entry.GetEqualFoldAttributeValue(s.cfg.EmailAttribute),
		Name:     entry.GetEqualFoldAttributeValue(s.cfg.NameAttribute),
	}
	if id.Username == "" {
		id.Username = username
	}
	if id.Groups, err = s.groups(entry, id.Username); err != nil {
		return Identity{}, err
	}
	return id, nil
}

// decoy makes an unknown user cost the directory what a wrong password
// does (a failed bind, the service bind, the disabled check), so the time
// an answer takes does not tell who has an account. Its errors do not
// matter: the answer is already an unknown user.
func (s session) decoy(password string) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	_ = s.conn.Bind("cn=absent-"+hex.EncodeToString(b[:])+","+s.cfg.UserBaseDN, password)
	if s.bindService() == nil {
		_, _ = s.matches(s.cfg.UserBaseDN, s.cfg.DisabledFilter)
	}
}

func (s session) bindService() error {
	var err error
	if s.cfg.BindDN == "" {
		err = s.conn.UnauthenticatedBind("")
	} else {
		err = s.conn.Bind(s.cfg.BindDN, os.Getenv(s.cfg.BindPasswordEnv))
	}
	if err == nil {
		return nil
	}
	if goldap.IsErrorAnyOf(err, goldap.LDAPResultInvalidCredentials, goldap.LDAPResultInappropriateAuthentication, goldap.LDAPResultUnwillingToPerform) {
		return refuse(errDirectory, ErrServiceBind, err)
	}
	return s.fault(err, "bind as the service account")
}

func (s session) findUser(username string) (*goldap.Entry, error) {
	attrs := []string{s.cfg.UsernameAttribute, s.cfg.EmailAttribute, s.cfg.NameAttribute}
	if s.cfg.MemberOfAttribute != "" {
		attrs = append(attrs, s.cfg.MemberOfAttribute)
	}
	// A size limit of 2 is enough to tell one match from several.
	res, err := s.conn.Search(goldap.NewSearchRequest(s.cfg.UserBaseDN, goldap.ScopeWholeSubtree, goldap.NeverDerefAliases,
		2, int(s.cfg.Timeout.Seconds()), false, fill(s.cfg.UserFilter, username, ""), attrs, nil))
	switch {
	case goldap.IsErrorWithCode(err, goldap.LDAPResultSizeLimitExceeded) || err == nil && len(res.Entries) > 1:
		return nil, refuse(errDirectory, ErrAmbiguousUser, fmt.Errorf("user name %q", username))
	case goldap.IsErrorWithCode(err, goldap.LDAPResultNoSuchObject):
		return nil, refuse(errDirectory, ErrNoUserBase, fmt.Errorf("user_base_dn %q: %w", s.cfg.UserBaseDN, err))
	case err != nil:
		return nil, s.fault(err, "search for the user")
	case len(res.Entries) == 0:
		return nil, refuse(errInvalidCredentials, ErrUnknownUser, nil)
	}
	return res.Entries[0], nil
}

// matches tells whether the entry at dn matches filter; an empty filter
// matches nothing.
func (s session) matches(dn, filter string) (bool, error) {
	if filter == "" {
		return false, nil
	}
	res, err := s.conn.Search(goldap.NewSearchRequest(dn, goldap.ScopeBaseObject, goldap.NeverDerefAliases,
		1, int(s.cfg.Timeout.Seconds()), false, filter, []string{"1.1"}, nil))
	if err != nil {
		return false, s.fault(err, "check disabled_filter")
	}
	return len(res.Entries) > 0, nil
}

// groups are the names of the person's groups by the configured rule.
func (s session) groups(entry *goldap.Entry, username string) ([]string, error) {
	names := []string{}
	switch {
	case s.cfg.MemberOfAttribute != "":
		for _, dn := range entry.GetEqualFoldAttributeValues(s.cfg.MemberOfAttribute) {
			name, err := s.groupName(dn)
			if err != nil {
				return nil, err
			}
			if name != "" {
				names = append(names, name)
			}
		}
	case s.cfg.GroupFilter != "":
		res, err := s.conn.Search(goldap.NewSearchRequest(s.cfg.GroupBaseDN, goldap.ScopeWholeSubtree, goldap.NeverDerefAliases,
			maxGroups, int(s.cfg.Timeout.Seconds()), false, fill(s.cfg.GroupFilter, username, entry.DN),
			[]string{s.cfg.GroupNameAttribute}, nil))
		if err != nil {
			return nil, s.fault(err, "search for groups")
		}
		for _, g := range res.Entries {
			if name := g.GetEqualFoldAttributeValue(s.cfg.GroupNameAttribute); name != "" {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// groupName is a memberOf DN's group name: its first RDN's value when that
// is the name attribute (cn=editors,ou=groups,…), else the attribute read
// from the group's entry. A group the service account cannot see has no
// name and is left out.
func (s session) groupName(dn string) (string, error) {
	if parsed, err := goldap.ParseDN(dn); err == nil && len(parsed.RDNs) > 0 {
		for _, a := range parsed.RDNs[0].Attributes {
			if strings.EqualFold(a.Type, s.cfg.GroupNameAttribute) {
				return a.Value, nil
			}
		}
	}
	res, err := s.conn.Search(goldap.NewSearchRequest(dn, goldap.ScopeBaseObject, goldap.NeverDerefAliases,
		1, int(s.cfg.Timeout.Seconds()), false, "(objectClass=*)", []string{s.cfg.GroupNameAttribute}, nil))
	if goldap.IsErrorWithCode(err, goldap.LDAPResultNoSuchObject) || err == nil && len(res.Entries) == 0 {
		return "", nil
	}
	if err != nil {
		return "", s.fault(err, "read group "+dn)
	}
	return res.Entries[0].GetEqualFoldAttributeValue(s.cfg.GroupNameAttribute), nil
}

// fault is the answer to a failed request: a connection that broke or timed
// out is an unreachable directory, anything else a refusal of the search.
func (s session) fault(err error, doing string) error {
	detail := fmt.Errorf("%s: %w", doing, err)
	if goldap.IsErrorAnyOf(err, goldap.ErrorNetwork, goldap.LDAPResultBusy, goldap.LDAPResultUnavailable, goldap.LDAPResultTimeLimitExceeded) {
		return refuse(errUnavailable, ErrUnreachable, detail)
	}
	return refuse(errDirectory, errRefused, detail)
}

// dial connects and secures the connection. Each stage has its own
// answer: no TCP connection is an unreachable directory, a failed
// handshake or a refused StartTLS a TLS failure.
func dial(ctx context.Context, cfg Config) (*goldap.Conn, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, refuse(errDirectory, fmt.Errorf("url %q", cfg.URL), err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"ldap": "389", "ldaps": "636"}[u.Scheme]
	}
	addr := net.JoinHostPort(u.Hostname(), port)
	dctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	raw, err := (&net.Dialer{}).DialContext(dctx, "tcp", addr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("ldap dial %s: %w", addr, ctx.Err())
		}
		return nil, refuse(errUnavailable, ErrUnreachable, fmt.Errorf("dial %s: %w", addr, err))
	}
	tlsConfig, err := tlsConfig(cfg, u.Hostname())
	if err != nil {
		raw.Close()
		return nil, refuse(errTLS, ErrTLS, err)
	}
	if u.Scheme == "ldaps" {
		tc := tls.Client(raw, tlsConfig)
		if err := tc.HandshakeContext(dctx); err != nil {
			raw.Close()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("ldap TLS handshake with %s: %w", addr, ctx.Err())
			}
			if isNetworkFailure(err) {
				return nil, refuse(errUnavailable, ErrUnreachable, fmt.Errorf("TLS handshake with %s: %w", addr, err))
			}
			return nil, refuse(errTLS, ErrTLS, fmt.Errorf("TLS handshake with %s: %w", addr, err))
		}
		raw = tc
	}
	conn := goldap.NewConn(raw, u.Scheme == "ldaps")
	conn.Start()
	conn.SetTimeout(cfg.Timeout)
	if cfg.StartTLS {
		// go-ldap waits for the StartTLS answer without its request
		// timeout; the deadline bounds it and the handshake after it.
		deadline, _ := dctx.Deadline()
		raw.SetDeadline(deadline)
		if err := conn.StartTLS(tlsConfig); err != nil {
			conn.Close()
			err = fmt.Errorf("StartTLS with %s: %w", addr, err)
			switch {
			case ctx.Err() != nil:
				return nil, fmt.Errorf("ldap %w: %w", err, ctx.Err())
			case !time.Now().Before(deadline):
				return nil, refuse(errUnavailable, ErrUnreachable, err)
			}
			return nil, refuse(errTLS, ErrTLS, err)
		}
		raw.SetDeadline(time.Time{})
	}
	return conn, nil
}

func tlsConfig(cfg Config, host string) (*tls.Config, error) {
	c := &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12, InsecureSkipVerify: cfg.InsecureSkipVerify}
	if cfg.CAFile != "" {
		pool, err := loadCAs(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		c.RootCAs = pool
	}
	return c, nil
}

// isNetworkFailure tells a connection that broke (the server went away
// during the handshake) from a certificate or protocol refusal.
func isNetworkFailure(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, net.ErrClosed)
}
