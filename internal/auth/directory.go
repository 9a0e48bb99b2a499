package auth

import (
	"context"
	"errors"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/ldap"
	"github.com/knowspace/knowspace/internal/store"
)

// DirectoryProvider names the directory's identities among the providers'.
const DirectoryProvider = "ldap"

// LDAPDirectory checks the sign-in form's passwords against an LDAP directory
// for every name that is not a local account with a password.
type LDAPDirectory struct {
	Config ldap.Config
	Policy ExternalPolicy
}

// checkDirectory asks the directory; a wrong password or unknown name is
// (false, nil) for the throttle to count, a directory that cannot answer is
// its own error.
func (s *Service) checkDirectory(ctx context.Context, username, password string) (store.User, bool, error) {
	entry, err := ldap.Authenticate(ctx, s.dir.Config, username, password)
	if err != nil {
		if e, ok := apierr.As(err); ok && e.Code == apierr.CodeInvalidCredentials {
			return store.User{}, false, nil
		}
		return store.User{}, false, err
	}
	in, err := s.SignInExternal(ctx, ExternalIdentity{Provider: DirectoryProvider, Subject: strings.ToLower(entry.DN),
		Username: entry.Username, Email: entry.Email, EmailVerified: entry.Email != "", Groups: entry.Groups}, s.dir.Policy)
	if err != nil {
		return store.User{}, false, err
	}
	return in.User, true, nil
}

// localPassword reports whether name is a local account with a password,
// which the form checks here and never at the directory.
func (s *Service) localPassword(ctx context.Context, username string) (store.User, bool, error) {
	u, err := s.st.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, false, nil
	}
	if err != nil {
		return store.User{}, false, apierr.Internal("login: read user", err)
	}
	return u, u.PasswordHash != "", nil
}
