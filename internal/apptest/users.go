package apptest

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Password is the password NewUser and SignIn give the account name.
func Password(name string) string { return "password-" + name }

// NewUser creates an account of the role through the auth service, so it
// gets the sample tree as a real account does, and signs it in.
func (s *Stack) NewUser(t testing.TB, name, role string) auth.Session {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Auth.CreateUser(ctx, name, Password(name), role); err != nil {
		t.Fatalf("create user %s: %v", name, err)
	}
	sess, err := s.Auth.Login(ctx, name, Password(name), "test")
	if err != nil {
		t.Fatalf("sign in %s: %v", name, err)
	}
	return sess
}

// SignIn creates each name as a plain user and returns their session
// tokens by name.
func (s *Stack) SignIn(t testing.TB, names ...string) map[string]string {
	t.Helper()
	tokens := map[string]string{}
	for _, name := range names {
		tokens[name] = s.NewUser(t, name, store.RoleUser).Token
	}
	return tokens
}

// APIToken is a new personal API token of the user.
func (s *Stack) APIToken(t testing.TB, userID int64, name string) string {
	t.Helper()
	tok, err := s.Auth.CreateToken(context.Background(), userID, name, 0)
	if err != nil {
		t.Fatalf("create API token %s: %v", name, err)
	}
	return tok.Secret
}

// Caller adds a plain account straight to the store, with no password
// and no sample tree, for tests that call the domain as that user.
func (s *Stack) Caller(t testing.TB, name string) kb.Caller {
	t.Helper()
	u := store.User{Username: name, PasswordHash: "x", Role: store.RoleUser}
	if err := s.Store.CreateUser(context.Background(), &u); err != nil {
		t.Fatalf("create user %s: %v", name, err)
	}
	return kb.Caller{ID: u.ID, Username: name}
}
