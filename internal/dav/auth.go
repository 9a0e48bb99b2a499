package dav

import (
	"net/http"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/auth"
)

// authenticate reads the caller's credentials: HTTP Basic with the user
// name and an API token as the password (what Finder, Explorer, davfs2
// and rclone send), or a Bearer token. The user name must be the token's
// owner's, so a token pasted under the wrong account fails loudly.
func (h *door) authenticate(r *http.Request) (auth.Principal, error) {
	if user, pass, ok := r.BasicAuth(); ok {
		if !strings.HasPrefix(pass, auth.TokenPrefix) {
			return auth.Principal{}, apierr.Unauthorized(apierr.CodeAPITokenRequired, "use an API token as the password (Settings → API tokens); account passwords are not accepted here")
		}
		p, err := h.auth.AuthenticatePrincipal(r.Context(), pass)
		if err != nil {
			return auth.Principal{}, err
		}
		if !strings.EqualFold(strings.TrimSpace(user), p.User.Username) {
			return auth.Principal{}, apierr.Unauthorized(apierr.CodeUsernameMismatch, "this API token belongs to another user name")
		}
		return p, nil
	}
	header := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(header, " ")
	if header == "" {
		return auth.Principal{}, apierr.Unauthorized(apierr.CodeMissingToken, "sign in with your user name and an API token as the password")
	}
	if !strings.EqualFold(scheme, "Bearer") {
		return auth.Principal{}, apierr.Unauthorized(apierr.CodeInvalidCredentials, "use HTTP Basic (user name and API token) or Authorization: Bearer <API token>")
	}
	return h.auth.AuthenticatePrincipal(r.Context(), strings.TrimSpace(token))
}
