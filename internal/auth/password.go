// Package auth holds accounts, passwords, sessions (JWT), personal API tokens,
// login throttling and the middleware that puts the caller in the request.
package auth

import (
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/apierr"
)

// Password bounds; bcrypt ignores bytes past 72, so longer ones are refused
// rather than silently truncated.
const (
	MinPasswordLen   = 8
	MaxPasswordBytes = 72
)

// ValidatePassword names what is wrong with a new password.
func ValidatePassword(pw string) error {
	switch {
	case utf8.RuneCountInString(pw) < MinPasswordLen:
		return apierr.BadRequest(apierr.CodeWeakPassword, "password must have at least %d characters", MinPasswordLen).WithDetail("min", MinPasswordLen)
	case len(pw) > MaxPasswordBytes:
		return apierr.BadRequest(apierr.CodeInvalidPassword, "password must be at most %d bytes", MaxPasswordBytes)
	}
	return nil
}

func (s *Service) hash(pw string) (string, error) {
	h, err := bcrypt.GenerateFromPassword([]byte(pw), s.cost)
	return string(h), err
}

// checkPassword compares in constant time; a missing account is checked
// against a dummy hash so timing does not reveal which names exist.
func (s *Service) checkPassword(hash, pw string) bool {
	if hash == "" {
		hash = s.dummyHash
	}
	err := s.compare([]byte(hash), []byte(pw))
	return err == nil && hash != s.dummyHash
}

var errBadCredentials = apierr.Unauthorized(apierr.CodeInvalidCredentials, "wrong username or password")
