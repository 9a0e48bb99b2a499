package ldap_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/ldap"
)

// BenchmarkSignIn is one whole sign-in against the local slapd: connect,
// secure, service bind, search, user bind, rebind, disabled check, groups.
func BenchmarkSignIn(b *testing.B) {
	s := startSlapd(b)
	b.Setenv(readerPassEnv, readerPassword)
	plain := config(s)
	startTLS := config(s)
	startTLS.StartTLS, startTLS.CAFile = true, s.caFile
	ldaps := config(s)
	ldaps.URL, ldaps.CAFile = s.ldapsURL, s.caFile
	for _, tc := range []struct {
		name string
		cfg  ldap.Config
	}{{"ldap", plain}, {"StartTLS", startTLS}, {"ldaps", ldaps}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := ldap.Authenticate(context.Background(), tc.cfg, "alice", "wonderland"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
