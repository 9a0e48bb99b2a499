package ldaptest

import (
	"testing"

	goldap "github.com/go-ldap/ldap/v3"
)

type entry struct {
	dn    string
	attrs map[string][]string
}

// The people and groups of the package doc. carol and dora carry
// ppolicy's administrative lock value; only dora's policy enforces it.
// "research, dev" has a comma in its name, so its DN is escaped.
var directory = []entry{
	{BaseDN, map[string][]string{"objectClass": {"dcObject", "organization"}, "o": {"Example"}, "dc": {"example"}}},
	{ReaderDN, map[string][]string{"objectClass": {"organizationalRole", "simpleSecurityObject"}, "cn": {"reader"}, "userPassword": {ReaderPassword}}},
	{PeopleDN, map[string][]string{"objectClass": {"organizationalUnit"}, "ou": {"people"}}},
	{GroupsDN, map[string][]string{"objectClass": {"organizationalUnit"}, "ou": {"groups"}}},
	{"uid=alice," + PeopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"alice"}, "cn": {"Alice Liddell"}, "sn": {"Liddell"},
		"displayName": {"Alice L."}, "mail": {"alice@example.org"}, "userPassword": {"wonderland"}}},
	{"uid=bob," + PeopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"bob"}, "cn": {"Bob Builder"}, "sn": {"Builder"},
		"userPassword": {"can-we-fix-it"}}},
	{"uid=carol," + PeopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"carol"}, "cn": {"Carol Locked"}, "sn": {"Locked"},
		"mail": {"carol@example.org"}, "userPassword": {"still-right"}, "pwdAccountLockedTime": {"000001010000Z"}}},
	{LockoutDN, map[string][]string{"objectClass": {"organizationalRole", "pwdPolicy"}, "cn": {"lockout"},
		"pwdAttribute": {"userPassword"}, "pwdLockout": {"TRUE"}}},
	{"uid=dora," + PeopleDN, map[string][]string{"objectClass": {"inetOrgPerson"}, "uid": {"dora"}, "cn": {"Dora Locked"}, "sn": {"Locked"},
		"userPassword": {"also-right"}, "pwdPolicySubentry": {LockoutDN}, "pwdAccountLockedTime": {"000001010000Z"}}},
	{"cn=editors," + GroupsDN, map[string][]string{"objectClass": {"groupOfNames"}, "cn": {"editors"}, "description": {"Editorial team"},
		"member": {"uid=alice," + PeopleDN}}},
	{"cn=readers," + GroupsDN, map[string][]string{"objectClass": {"groupOfNames"}, "cn": {"readers"},
		"member": {"uid=alice," + PeopleDN, "uid=bob," + PeopleDN}}},
	{`cn=research\, dev,` + GroupsDN, map[string][]string{"objectClass": {"groupOfNames"}, "cn": {"research, dev"}, "member": {"uid=alice," + PeopleDN}}},
	{"cn=ops," + GroupsDN, map[string][]string{"objectClass": {"posixGroup"}, "cn": {"ops"}, "gidNumber": {"5000"}, "memberUid": {"bob"}}},
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
