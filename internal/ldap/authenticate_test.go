package ldap_test

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/ldap"
	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
)

// readerPassEnv holds the service account's password in these tests.
const readerPassEnv = "KB_TEST_LDAP_READER_PASSWORD"

// config is the sign-in of a directory kept like OpenLDAP's usual layout:
// memberOf on the person, a service account that may search.
func config(s *ldaptest.Server) ldap.Config { return s.Config(readerPassEnv) }

// signIn validates cfg as the server does at start, then signs in.
func signIn(t *testing.T, cfg ldap.Config, username, password string) (ldap.Identity, error) {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return ldap.Authenticate(context.Background(), cfg, username, password)
}

// wantRefused checks the outward answer (what a door sends) and the cause
// kept for the log and the audit record.
func wantRefused(t *testing.T, err error, code apierr.Code, status int, cause error) *apierr.Error {
	t.Helper()
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		t.Fatalf("error %v is not an apierr.Error", err)
	}
	if ae.Code != code || ae.Status != status {
		t.Fatalf("answer %s %d (%v), want %s %d", ae.Code, ae.Status, err, code, status)
	}
	if !errors.Is(err, cause) {
		t.Fatalf("cause of %v is not %v", err, cause)
	}
	return ae
}

func TestSignInReturnsTheDirectorysPerson(t *testing.T) {
	s := ldaptest.Start(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	cfg := config(s)

	id, err := signIn(t, cfg, "alice", "wonderland")
	if err != nil {
		t.Fatal(err)
	}
	want := ldap.Identity{DN: "uid=alice," + ldaptest.PeopleDN, Username: "alice", Email: "alice@example.org", Name: "Alice Liddell",
		Groups: []string{"editors", "readers", "research, dev"}}
	if !reflect.DeepEqual(id, want) {
		t.Fatalf("identity\n got %+v\nwant %+v", id, want)
	}

	// The directory's spelling of the name wins over the typed one, so one
	// person is one account however they type it.
	cfg.NameAttribute = "displayName"
	id, err = signIn(t, cfg, "ALICE", "wonderland")
	if err != nil {
		t.Fatal(err)
	}
	if id.Username != "alice" || id.Name != "Alice L." {
		t.Fatalf("typed ALICE: username %q name %q, want alice and Alice L.", id.Username, id.Name)
	}

	// A name that is not the DN's first part is read from the group's
	// entry; a group without one is left out.
	cfg = config(s)
	cfg.GroupNameAttribute = "description"
	id, err = signIn(t, cfg, "alice", "wonderland")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(id.Groups, []string{"Editorial team"}) {
		t.Fatalf("groups by description: %q, want [Editorial team]", id.Groups)
	}

	// bob has no mail and one group.
	id, err = signIn(t, config(s), "bob", "can-we-fix-it")
	if err != nil {
		t.Fatal(err)
	}
	if id.Email != "" || !reflect.DeepEqual(id.Groups, []string{"readers"}) {
		t.Fatalf("bob: email %q groups %q, want none and [readers]", id.Email, id.Groups)
	}
}

func TestSignInRefusals(t *testing.T) {
	s := ldaptest.Start(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	for _, tc := range []struct {
		name, username, password string
		code                     apierr.Code
		status                   int
		cause                    error
	}{
		{"wrong password", "alice", "looking-glass", apierr.CodeInvalidCredentials, 401, ldap.ErrWrongPassword},
		{"unknown user", "dave", "wonderland", apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser},
		{"empty password would be an anonymous bind", "alice", "", apierr.CodeInvalidCredentials, 401, ldap.ErrEmptyPassword},
		{"empty user name", "", "wonderland", apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser},
		{"filter injection matching everyone", "*)(uid=*", "wonderland", apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser},
		{"wildcard", "*", "wonderland", apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser},
		{"injection of an or", "alice)(|(uid=*", "wonderland", apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser},
		{"NUL byte", "alice\x00", "wonderland", apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser},
		{"disabled, right password", "carol", "still-right", apierr.CodeAccountDisabled, 403, ldap.ErrDisabled},
		// A wrong password says nothing about the account, not even that it
		// is disabled; the cause tells the log.
		{"disabled, wrong password", "carol", "guess", apierr.CodeInvalidCredentials, 401, ldap.ErrDisabled},
		// slapd's ppolicy refuses dora's bind itself, as Active Directory
		// does for a disabled account: a wrong password to the outside.
		{"locked by the directory, right password", "dora", "also-right", apierr.CodeInvalidCredentials, 401, ldap.ErrDisabled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := signIn(t, config(s), tc.username, tc.password)
			wantRefused(t, err, tc.code, tc.status, tc.cause)
		})
	}

	t.Run("unknown user, wrong password and a locked account answer alike", func(t *testing.T) {
		_, errUnknown := signIn(t, config(s), "dave", "x")
		unknown := wantRefused(t, errUnknown, apierr.CodeInvalidCredentials, 401, ldap.ErrUnknownUser)
		if unknown.Message == "" {
			t.Fatal("empty message")
		}
		for _, who := range [][2]string{{"alice", "x"}, {"carol", "x"}, {"dora", "also-right"}} {
			_, err := signIn(t, config(s), who[0], who[1])
			if other := wantRefused(t, err, apierr.CodeInvalidCredentials, 401, ldap.ErrWrongPassword); other.Message != unknown.Message {
				t.Fatalf("%s: message %q, unknown user's %q", who[0], other.Message, unknown.Message)
			}
		}
	})

	t.Run("empty password never reaches the server", func(t *testing.T) {
		cfg := config(s)
		cfg.URL = "ldap://127.0.0.1:" + strconv.Itoa(ldaptest.FreePort(t))
		_, err := signIn(t, cfg, "alice", "")
		wantRefused(t, err, apierr.CodeInvalidCredentials, 401, ldap.ErrEmptyPassword)
	})

	t.Run("service account refused is the server's fault, not the user's", func(t *testing.T) {
		t.Setenv(readerPassEnv, "not-the-reader-password")
		_, err := signIn(t, config(s), "alice", "wonderland")
		wantRefused(t, err, apierr.CodeDirectoryError, 502, ldap.ErrServiceBind)
	})

	// slapd answers noSuchObject for a base the ACLs hide: a setting to
	// fix, not a person to turn away as if their password were wrong.
	t.Run("anonymous search in a directory that hides its people is the server's fault", func(t *testing.T) {
		cfg := config(s)
		cfg.BindDN, cfg.BindPasswordEnv = "", ""
		_, err := signIn(t, cfg, "alice", "wonderland")
		wantRefused(t, err, apierr.CodeDirectoryError, 502, ldap.ErrNoUserBase)
	})
}

// The answer is not all an unknown user shares with a wrong password: the
// directory sees the same operations, so the time taken does not tell
// either.
func TestUnknownUserCostsWhatAWrongPasswordCosts(t *testing.T) {
	s := ldaptest.Start(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	if _, err := signIn(t, config(s), "alice", "not-hers"); !errors.Is(err, ldap.ErrWrongPassword) {
		t.Fatalf("wrong password: %v", err)
	}
	wrong := s.LastSignIn(t)
	if _, err := signIn(t, config(s), "dave", "not-his"); !errors.Is(err, ldap.ErrUnknownUser) {
		t.Fatalf("unknown user: %v", err)
	}
	unknown := s.LastSignIn(t)
	if len(wrong) < 4 || !reflect.DeepEqual(unknown, wrong) {
		t.Fatalf("the directory saw\n  %q for an unknown user\n  %q for a wrong password", unknown, wrong)
	}
}

func TestGroupsBySearch(t *testing.T) {
	s := ldaptest.Start(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	cfg := config(s)
	cfg.MemberOfAttribute = ""
	cfg.GroupBaseDN = ldaptest.GroupsDN
	// Both kinds of group at once: groupOfNames lists DNs, posixGroup names.
	cfg.GroupFilter = "(|(&(objectClass=groupOfNames)(member={dn}))(&(objectClass=posixGroup)(memberUid={username})))"
	for _, tc := range []struct {
		username, password string
		groups             []string
	}{
		{"alice", "wonderland", []string{"editors", "readers", "research, dev"}},
		{"bob", "can-we-fix-it", []string{"ops", "readers"}},
	} {
		id, err := signIn(t, cfg, tc.username, tc.password)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(id.Groups, tc.groups) {
			t.Errorf("%s: groups %q, want %q", tc.username, id.Groups, tc.groups)
		}
	}

	// Without a group rule, nobody is in any group.
	cfg = config(s)
	cfg.MemberOfAttribute = ""
	id, err := signIn(t, cfg, "alice", "wonderland")
	if err != nil {
		t.Fatal(err)
	}
	if id.Groups == nil || len(id.Groups) != 0 {
		t.Fatalf("no group rule: groups %#v, want an empty list", id.Groups)
	}
}

func TestTLS(t *testing.T) {
	s := ldaptest.Start(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	otherCA := filepath.Join(t.TempDir(), "other.pem")
	ldaptest.WriteSelfSigned(t, otherCA, filepath.Join(t.TempDir(), "other-key.pem"))

	startTLS := func(ca string) ldap.Config {
		cfg := config(s)
		cfg.StartTLS, cfg.CAFile = true, ca
		return cfg
	}
	ldaps := func(ca string) ldap.Config {
		cfg := config(s)
		cfg.URL, cfg.CAFile = s.LDAPSURL, ca
		return cfg
	}
	insecure := ldaps("")
	insecure.InsecureSkipVerify = true

	for _, tc := range []struct {
		name string
		cfg  ldap.Config
		ok   bool
	}{
		{"StartTLS with the self-signed certificate as CA", startTLS(s.CAFile), true},
		{"StartTLS trusting only the system's CAs", startTLS(""), false},
		{"StartTLS with another CA", startTLS(otherCA), false},
		{"ldaps with the self-signed certificate as CA", ldaps(s.CAFile), true},
		{"ldaps trusting only the system's CAs", ldaps(""), false},
		{"ldaps with another CA", ldaps(otherCA), false},
		{"ldaps without verification", insecure, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, err := signIn(t, tc.cfg, "alice", "wonderland")
			if !tc.ok {
				wantRefused(t, err, apierr.CodeDirectoryTLS, 502, ldap.ErrTLS)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if id.Email != "alice@example.org" || len(id.Groups) != 3 {
				t.Fatalf("identity over TLS: %+v", id)
			}
		})
	}

	t.Run("a wrong password over TLS is still a wrong password", func(t *testing.T) {
		_, err := signIn(t, startTLS(s.CAFile), "alice", "nope")
		wantRefused(t, err, apierr.CodeInvalidCredentials, 401, ldap.ErrWrongPassword)
	})
}

// A server without a certificate refuses StartTLS; the sign-in stops
// there instead of going on in clear.
func TestStartTLSRefusedByTheServer(t *testing.T) {
	s := ldaptest.StartWithoutTLS(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	cfg := config(s)
	if _, err := signIn(t, cfg, "alice", "wonderland"); err != nil {
		t.Fatalf("in clear: %v", err)
	}
	cfg.StartTLS, cfg.CAFile = true, s.CAFile
	_, err := signIn(t, cfg, "alice", "wonderland")
	wantRefused(t, err, apierr.CodeDirectoryTLS, 502, ldap.ErrTLS)
}

func TestDirectoryDown(t *testing.T) {
	s := ldaptest.Start(t)
	t.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	if _, err := signIn(t, config(s), "alice", "wonderland"); err != nil {
		t.Fatal(err)
	}
	s.Stop(t)

	t.Run("stopped", func(t *testing.T) {
		_, err := signIn(t, config(s), "alice", "wonderland")
		ae := wantRefused(t, err, apierr.CodeDirectoryUnavailable, 503, ldap.ErrUnreachable)
		if ae.RetryAfter <= 0 {
			t.Fatalf("no Retry-After on %v", err)
		}
	})

	t.Run("ldaps stopped is unreachable, not a TLS failure", func(t *testing.T) {
		cfg := config(s)
		cfg.URL, cfg.CAFile = s.LDAPSURL, s.CAFile
		_, err := signIn(t, cfg, "alice", "wonderland")
		wantRefused(t, err, apierr.CodeDirectoryUnavailable, 503, ldap.ErrUnreachable)
	})

	// A server that takes the connection and never answers, at each
	// stage that waits for it: the first request, StartTLS, the handshake.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	for _, tc := range []struct {
		name, scheme string
		startTLS     bool
	}{{"silent server", "ldap", false}, {"silent server asked for StartTLS", "ldap", true}, {"silent ldaps server", "ldaps", false}} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config(s)
			cfg.URL = tc.scheme + "://" + silent.Addr().String()
			cfg.StartTLS = tc.startTLS
			if tc.startTLS || tc.scheme == "ldaps" {
				cfg.CAFile = s.CAFile
			}
			cfg.Timeout = time.Second
			start := time.Now()
			_, err := signIn(t, cfg, "alice", "wonderland")
			wantRefused(t, err, apierr.CodeDirectoryUnavailable, 503, ldap.ErrUnreachable)
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("gave up after %s with a 1s timeout", d)
			}
		})
	}

	t.Run("cancelled request", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := ldap.Authenticate(ctx, config(s), "alice", "wonderland")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled: %v, want context.Canceled", err)
		}
	})
}
