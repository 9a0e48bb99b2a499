package ldap_test

import (
	"context"
	"errors"
	"testing"

	"github.com/knowspace/knowspace/internal/ldap"
	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
)

// BenchmarkSignIn is one whole sign-in against the local slapd: connect,
// secure, service bind, search, user bind, rebind, disabled check, groups.
func BenchmarkSignIn(b *testing.B) {
	s := ldaptest.Start(b)
	b.Setenv(readerPassEnv, ldaptest.ReaderPassword)
	plain := config(s)
	startTLS := config(s)
	startTLS.StartTLS, startTLS.CAFile = true, s.CAFile
	ldaps := config(s)
	ldaps.URL, ldaps.CAFile = s.LDAPSURL, s.CAFile
	for _, tc := range []struct {
		name               string
		cfg                ldap.Config
		username, password string
		want               error
	}{
		{"ldap", plain, "alice", "wonderland", nil},
		{"StartTLS", startTLS, "alice", "wonderland", nil},
		{"ldaps", ldaps, "alice", "wonderland", nil},
		// These two should take about as long as each other.
		{"ldap wrong password", plain, "alice", "nope", ldap.ErrWrongPassword},
		{"ldap unknown user", plain, "dave", "nope", ldap.ErrUnknownUser},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				_, err := ldap.Authenticate(context.Background(), tc.cfg, tc.username, tc.password)
				if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
					b.Fatalf("got %v, want %v", err, tc.want)
				}
			}
		})
	}
}
