// Package ldaptest runs a real OpenLDAP server (Debian's slapd) for tests:
// its own config, data directory and self-signed certificate, on free
// ports (ldap:// with StartTLS, and ldaps://), seeded with these people,
// and stopped when the test ends:
//
//	alice / wonderland     mail alice@example.org, cn Alice Liddell,
//	                       displayName Alice L.; groups editors, readers,
//	                       "research, dev"
//	bob / can-we-fix-it    no mail; groups readers, and ops (a posixGroup
//	                       listing user names)
//	carol / still-right    locked (pwdAccountLockedTime), but slapd still
//	                       lets her bind: the mark alone
//	dora / also-right      locked, and her password policy makes slapd
//	                       refuse her bind, as Active Directory does for a
//	                       disabled account
//
// Only the service account ReaderDN may search; anonymous readers see
// nobody. Start skips the test when slapd is not installed.
package ldaptest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	goldap "github.com/go-ldap/ldap/v3"

	"github.com/knowspace/knowspace/internal/ldap"
)

// The directory's names and secrets.
const (
	BaseDN         = "dc=example,dc=org"
	AdminDN        = "cn=admin," + BaseDN // slapd's rootdn, for changes a test makes
	AdminPassword  = "root-secret"
	ReaderDN       = "cn=reader," + BaseDN // the service account
	ReaderPassword = "reader-secret"
	PeopleDN       = "ou=people," + BaseDN
	GroupsDN       = "ou=groups," + BaseDN
	LockoutDN      = "cn=lockout," + BaseDN // dora's enforcing password policy
)

const startLimit = 15 * time.Second

// Server is one running slapd.
type Server struct {
	URL      string // ldap://127.0.0.1:port, where StartTLS is offered
	LDAPSURL string // ldaps://127.0.0.1:port; empty from StartWithoutTLS
	CAFile   string // the server's self-signed certificate (PEM), its own CA
	logPath  string // slapd's stats log: one line per operation
	cmd      *exec.Cmd
}

// Config signs in against s the usual OpenLDAP way over ldap:// in clear:
// the service account's password in the environment variable passwordEnv
// (the caller sets it to ReaderPassword), people by uid, groups from
// memberOf, pwdAccountLockedTime marking the disabled.
func (s *Server) Config(passwordEnv string) ldap.Config {
	return ldap.Config{
		URL:               s.URL,
		BindDN:            ReaderDN,
		BindPasswordEnv:   passwordEnv,
		UserBaseDN:        PeopleDN,
		UserFilter:        "(&(objectClass=inetOrgPerson)(uid={username}))",
		MemberOfAttribute: "memberOf",
		DisabledFilter:    "(pwdAccountLockedTime=*)",
	}
}

// slapdConf is slapd.conf for a server with the schemas inetOrgPerson and
// posixGroup need, memberOf kept by its overlay and ppolicy's
// pwdAccountLockedTime as the mark of a locked account. The ACLs let only
// the service account search, as a directory that hides its people from
// anonymous readers does.
const slapdConf = `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
moduleload memberof
moduleload ppolicy
pidfile {dir}/slapd.pid
argsfile {dir}/slapd.args
{tls}database mdb
suffix "` + BaseDN + `"
rootdn "` + AdminDN + `"
rootpw ` + AdminPassword + `
directory {dir}/data
maxsize 10485760
overlay memberof
overlay ppolicy
access to attrs=userPassword by self write by anonymous auth by * none
access to * by dn.exact="` + ReaderDN + `" read by self read by * none
`

// Start runs a fresh slapd seeded with the people and groups of the
// package doc and stops it when the test ends. It skips only when slapd
// is not installed (Debian's slapd package; .ci/run installs it).
func Start(t testing.TB) *Server {
	t.Helper()
	return start(t, true)
}

// StartWithoutTLS runs a server that has no certificate: it refuses
// StartTLS and listens on ldap:// only.
func StartWithoutTLS(t testing.TB) *Server {
	t.Helper()
	return start(t, false)
}

func start(t testing.TB, withTLS bool) *Server {
	t.Helper()
	bin, err := exec.LookPath("slapd")
	if err != nil {
		if _, statErr := os.Stat("/usr/sbin/slapd"); statErr != nil {
			t.Skip("slapd is not installed (apt-get install slapd): the LDAP tests need a real directory")
		}
		bin = "/usr/sbin/slapd"
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	WriteSelfSigned(t, filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"))
	conf := filepath.Join(dir, "slapd.conf")
	tlsConf, listen := "", ""
	s := &Server{CAFile: filepath.Join(dir, "cert.pem")}
	s.URL = fmt.Sprintf("ldap://127.0.0.1:%d", FreePort(t))
	listen = s.URL + "/"
	if withTLS {
		tlsConf = "TLSCertificateFile {dir}/cert.pem\nTLSCertificateKeyFile {dir}/key.pem\n"
		s.LDAPSURL = fmt.Sprintf("ldaps://127.0.0.1:%d", FreePort(t))
		listen += " " + s.LDAPSURL + "/"
	}
	text := strings.NewReplacer("{tls}", tlsConf).Replace(slapdConf)
	if err := os.WriteFile(conf, []byte(strings.ReplaceAll(text, "{dir}", dir)), 0o600); err != nil {
		t.Fatal(err)
	}
	// -d keeps slapd in the foreground, our child, so Cleanup can end it;
	// level 256 (stats) logs each operation, which lastSignIn reads.
	s.cmd = exec.Command(bin, "-f", conf, "-h", listen, "-d", "256")
	s.logPath = filepath.Join(dir, "slapd.log")
	logFile, err := os.Create(s.logPath)
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	dieWithTest(s.cmd)
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start slapd: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		<-exited
		logFile.Close()
	})
	admin := s.wait(t, exited)
	defer admin.Close()
	seed(t, admin)
	return s
}

// Stop ends slapd now, for tests of a directory that went away.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL, "ldap://"), 100*time.Millisecond)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("slapd still answers after kill")
}

var opLine = regexp.MustCompile(`conn=(\d+) op=(\d+) (BIND|SRCH|EXT|MOD|ADD|DEL|CMP)\b`)

// LastSignIn lists the operations of slapd's newest connection, in order
// (BIND, SRCH, …): what the directory saw of the last sign-in. The
// closing UNBIND is left out, as it may be logged after the sign-in
// returned.
func (s *Server) LastSignIn(t testing.TB) []string {
	t.Helper()
	log, err := os.ReadFile(s.logPath)
	if err != nil {
		t.Fatal(err)
	}
	last, ops, seen := "", []string{}, map[string]bool{}
	for _, m := range opLine.FindAllStringSubmatch(string(log), -1) {
		if m[1] != last {
			last, ops, seen = m[1], []string{}, map[string]bool{}
		}
		if !seen[m[2]] { // a bind logs two lines
			seen[m[2]] = true
			ops = append(ops, m[3])
		}
	}
	return ops
}

// wait returns a connection bound as the admin once slapd answers.
func (s *Server) wait(t testing.TB, exited <-chan struct{}) *goldap.Conn {
	t.Helper()
	deadline := time.Now().Add(startLimit)
	for {
		select {
		case <-exited:
			log, _ := os.ReadFile(s.logPath)
			t.Fatalf("slapd exited at start:\n%s", log)
		default:
		}
		c, err := goldap.DialURL(s.URL)
		if err == nil {
			if err = c.Bind(AdminDN, AdminPassword); err == nil {
				return c
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(s.logPath)
			t.Fatalf("slapd did not answer within %s: %v\n%s", startLimit, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// FreePort is a TCP port on 127.0.0.1 that nothing listened on a moment
// ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WriteSelfSigned writes a self-signed certificate for 127.0.0.1 and its
// key, the kind a small team's directory often has: it is its own CA.
func WriteSelfSigned(t testing.TB, certPath, keyPath string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
}
