package auth

import (
	"context"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestLocalPasswordsOffLeavesTheDirectory: with password_login: false the
// local admin's right password opens nothing (and costs a hash like any
// other), while the directory still signs its people in.
func TestLocalPasswordsOffLeavesTheDirectory(t *testing.T) {
	dir := ldaptest.Start(t)
	t.Setenv("KB_TEST_LDAP_PASSWORD", ldaptest.ReaderPassword)
	st, _ := storetest.Open(t, "sqlite")
	s, err := New(st, nil, Options{Secret: []byte("auth-test-secret-0123456789abcdefgh"), BcryptCost: bcrypt.MinCost, LocalPasswordsOff: true,
		Directory: &LDAPDirectory{Config: dir.Config("KB_TEST_LDAP_PASSWORD"), Policy: ExternalPolicy{CreateAccounts: true}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, "admin", "admin-password", "admin"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Login(ctx, "admin", "admin-password", "10.0.0.1"); code(err) != "invalid_credentials" {
		t.Fatalf("a local password with passwords off: %v", err)
	}
	sess, err := s.Login(ctx, "alice", "wonderland", "10.0.0.1")
	if err != nil || sess.User.Username != "alice" || sess.User.PasswordHash != "" {
		t.Fatalf("the directory's alice: %+v %v", sess.User, err)
	}
	// Her account has no local password, so the directory keeps answering.
	if _, err := s.Login(ctx, "alice", "not-wonderland", "10.0.0.1"); code(err) != "invalid_credentials" {
		t.Fatalf("wrong password at the directory: %v", err)
	}
}
