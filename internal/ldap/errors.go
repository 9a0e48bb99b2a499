package ldap

import (
	"errors"
	"net/http"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// Why a sign-in failed. Authenticate returns an *apierr.Error whose cause
// holds one of these (errors.Is finds it), so the log and the audit record
// can tell cases apart that the answer must not: a wrong password and an
// unknown user answer alike, so nobody learns who has an account.
var (
	ErrEmptyPassword = errors.New("ldap: empty password (it would be an anonymous bind, which most directories accept)")
	ErrUnknownUser   = errors.New("ldap: no entry matches the user filter")
	ErrWrongPassword = errors.New("ldap: the directory refused the user's bind")
	ErrDisabled      = errors.New("ldap: the entry matches disabled_filter")
	ErrNoUserBase    = errors.New("ldap: user_base_dn does not exist, or the service account may not see it")
	ErrAmbiguousUser = errors.New("ldap: more than one entry matches the user filter")
	ErrServiceBind   = errors.New("ldap: the directory refused the service account's bind")
	ErrTLS           = errors.New("ldap: no trusted TLS connection to the directory")
	ErrUnreachable   = errors.New("ldap: the directory cannot be reached")

	errRefused = errors.New("ldap: the directory refused a request")
)

// retryAfter is the Retry-After of an unreachable directory: long enough
// not to hammer one that restarts.
const retryAfter = 5 * time.Second

// The answers; each call adds its cause with WithCause.
var (
	errInvalidCredentials = apierr.Unauthorized(apierr.CodeInvalidCredentials, "wrong username or password")
	errDisabled           = apierr.Forbidden(apierr.CodeAccountDisabled, "this account is disabled in the directory; ask an administrator")
	errUnavailable        = &apierr.Error{Status: http.StatusServiceUnavailable, Code: apierr.CodeDirectoryUnavailable,
		Message: "the sign-in directory cannot be reached for now; try again shortly", RetryAfter: retryAfter}
	errTLS = apierr.New(http.StatusBadGateway, apierr.CodeDirectoryTLS,
		"the server could not make a trusted TLS connection to the sign-in directory; an administrator should check its CA")
	errDirectory = apierr.New(http.StatusBadGateway, apierr.CodeDirectoryError,
		"the sign-in directory refused the server's search; an administrator should check the LDAP settings")
)

// refuse is answer with a cause that errors.Is finds as kind and that
// keeps detail (the directory's own error) for the log.
func refuse(answer *apierr.Error, kind, detail error) error {
	if detail == nil {
		return answer.WithCause(kind)
	}
	return answer.WithCause(errors.Join(kind, detail))
}
