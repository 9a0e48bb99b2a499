package ldap_test

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
)

// The directory every test signs in against: a real slapd, run as the
// test's child with its own config, data and certificate.
const (
	baseDN          = "dc=example,dc=org"
	adminDN         = "cn=admin," + baseDN
	adminPassword   = "root-secret"
	readerDN        = "cn=reader," + baseDN
	readerPassword  = "reader-secret"
	peopleDN        = "ou=people," + baseDN
	groupsDN        = "ou=groups," + baseDN
	lockoutDN       = "cn=lockout," + baseDN
	readerPassEnv   = "KB_TEST_LDAP_READER_PASSWORD"
	slapdStartLimit = 15 * time.Second
)

type slapd struct {
	ldapURL  string // ldap://, where StartTLS is offered
	ldapsURL string // ldaps://
	caFile   string // the server's self-signed certificate, PEM
	logPath  string // slapd's stats log: one line per operation
	cmd      *exec.Cmd
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
suffix "` + baseDN + `"
rootdn "` + adminDN + `"
rootpw ` + adminPassword + `
directory {dir}/data
maxsize 10485760
overlay memberof
overlay ppolicy
access to attrs=userPassword by self write by anonymous auth by * none
access to * by dn.exact="` + readerDN + `" read by self read by * none
`

// startSlapd runs a fresh slapd seeded with the people and groups below
// and stops it when the test ends. It skips only when slapd is not
// installed (Debian's slapd package; .ci/run installs it).
func startSlapd(t testing.TB) *slapd {
	t.Helper()
	return startSlapdTLS(t, true)
}

// startSlapdTLS with withTLS false runs a server that has no certificate:
// it refuses StartTLS and listens on ldap:// only.
func startSlapdTLS(t testing.TB, withTLS bool) *slapd {
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
	writeSelfSigned(t, filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"))
	conf := filepath.Join(dir, "slapd.conf")
	tlsConf, listen := "", ""
	s := &slapd{caFile: filepath.Join(dir, "cert.pem")}
	s.ldapURL = fmt.Sprintf("ldap://127.0.0.1:%d", freePort(t))
	listen = s.ldapURL + "/"
	if withTLS {
		tlsConf = "TLSCertificateFile {dir}/cert.pem\nTLSCertificateKeyFile {dir}/key.pem\n"
		s.ldapsURL = fmt.Sprintf("ldaps://127.0.0.1:%d", freePort(t))
		listen += " " + s.ldapsURL + "/"
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
	admin := waitForSlapd(t, s, exited, s.logPath)
	defer admin.Close()
	seed(t, admin)
	return s
}

// stop ends slapd now, for tests of a directory that went away.
func (s *slapd) stop(t testing.TB) {
	t.Helper()
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(s.ldapURL, "ldap://"), 100*time.Millisecond)
		if err != nil {
			return
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("slapd still answers after kill")
}

var opLine = regexp.MustCompile(`conn=(\d+) op=(\d+) (BIND|SRCH|EXT|MOD|ADD|DEL|CMP)\b`)

// lastSignIn lists the operations of slapd's newest connection, in order
// (BIND, SRCH, …): what the directory saw of the last sign-in. The
// closing UNBIND is left out, as it may be logged after the sign-in
// returned.
func (s *slapd) lastSignIn(t testing.TB) []string {
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

func waitForSlapd(t testing.TB, s *slapd, exited <-chan struct{}, logPath string) *goldap.Conn {
	t.Helper()
	deadline := time.Now().Add(slapdStartLimit)
	for {
		select {
		case <-exited:
			log, _ := os.ReadFile(logPath)
			t.Fatalf("slapd exited at start:\n%s", log)
		default:
		}
		c, err := goldap.DialURL(s.ldapURL)
		if err == nil {
			if err = c.Bind(adminDN, adminPassword); err == nil {
				return c
			}
			c.Close()
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			t.Fatalf("slapd did not answer within %s: %v\n%s", slapdStartLimit, err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// writeSelfSigned writes a self-signed certificate for 127.0.0.1, the
// kind a small team's directory often has: it is its own CA.
func writeSelfSigned(t testing.TB, certPath, keyPath string) {
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

type entry struct {
	dn    string
	attrs map[string][]string
}

// The people and groups of every test. carol and dora are locked
// (ppolicy's administrative lock value); only dora's policy enforces it,
// so slapd itself refuses her bind while carol's still succeeds.
// "research, dev" has a comma in its name, so its DN is escaped; ops is a
// posixGroup listing user names, not DNs.
var directory = []entry{
	{baseDN, map[string][]string{"objectClass": {"dcObject", "organization"}, "o": {"Example"}, "dc": {"example"}}},
	{readerDN, map[string][]string{"objectClass": {"organizationalRole", "simpleSecurityObject"}, "cn": {"reader"}, "userPassword": {readerPassword}}},
	{peopleDN, map[string][]string{"objectClass": {"organizationalUnit"}, "ou": {"people"}}},
	{groupsDN, map[string][]string{"objectClass": {"organizationalUnit"}, "ou": {"groups"}}},
	{"uid=alice," + peopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"alice"}, "cn": {"Alice Liddell"}, "sn": {"Liddell"},
		"displayName": {"Alice L."}, "mail": {"alice@example.org"}, "userPassword": {"wonderland"}}},
	{"uid=bob," + peopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"bob"}, "cn": {"Bob Builder"}, "sn": {"Builder"},
		"userPassword": {"can-we-fix-it"}}},
	{"uid=carol," + peopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"carol"}, "cn": {"Carol Locked"}, "sn": {"Locked"},
		"mail": {"carol@example.org"}, "userPassword": {"still-right"}, "pwdAccountLockedTime": {"000001010000Z"}}},
	{lockoutDN, map[string][]string{"objectClass": {"organizationalRole", "pwdPolicy"}, "cn": {"lockout"},
		"pwdAttribute": {"userPassword"}, "pwdLockout": {"TRUE"}}},
	{"uid=dora," + peopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"dora"}, "cn": {"Dora Locked"}, "sn": {"Locked"},
		"userPassword": {"also-right"}, "pwdPolicySubentry": {lockoutDN}, "pwdAccountLockedTime": {"000001010000Z"}}},
	{"cn=editors," + groupsDN, map[string][]string{"objectClass": {"groupOfNames"}, "cn": {"editors"}, "description": {"Editorial team"},
		"member": {"uid=alice," + peopleDN}}},
	{"cn=readers," + groupsDN, map[string][]string{"objectClass": {"groupOfNames"}, "cn": {"readers"},
		"member": {"uid=alice," + peopleDN, "uid=bob," + peopleDN}}},
	{`cn=research\, dev,` + groupsDN, map[string][]string{"objectClass": {"groupOfNames"}, "cn": {"research, dev"}, "member": {"uid=alice," + peopleDN}}},
	{"cn=ops," + groupsDN, map[string][]string{"objectClass": {"posixGroup"}, "cn": {"ops"}, "gidNumber": {"5000"}, "memberUid": {"bob"}}},
}

func seed(t testing.TB, admin *goldap.Conn) {
	t.Helper()
	for _, e := range directory {
		req := goldap.NewAddRequest(e.dn, nil)
		for name, values := range e.attrs {
			req.Attribute(name, values)
		}
		if err := admin.Add(req); err != nil {
			t.Fatalf("seed %s: %v", e.dn, err)
		}
	}
}
