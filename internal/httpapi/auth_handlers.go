package httpapi

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

type userJSON struct {
	ID        int64     `json:"id"`
	Username  string    `json:"username"`
	Role      string    `json:"role"`
	Disabled  bool      `json:"disabled"`
	CreatedAt time.Time `json:"created_at"`
}

func toUserJSON(u store.User) userJSON {
	return userJSON{ID: u.ID, Username: u.Username, Role: u.Role, Disabled: u.Disabled, CreatedAt: u.CreatedAt}
}

type loginRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

func (r *loginRequest) Validate() error {
	if r.Username == "" || r.Password == "" {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "username and password are required")
	}
	return nil
}

func (h *handlers) login(c echo.Context) error {
	if h.PasswordLoginOff {
		return apierr.Forbidden(apierr.CodePasswordLoginOff, "this server signs people in through its identity providers only")
	}
	var req loginRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	s, err := h.Auth.Login(c.Request().Context(), req.Username, req.Password, c.RealIP())
	if err != nil {
		// A guess the throttle turned away cost no password check; it
		// costs no write either, so a flood cannot grow the log.
		if apierr.From(err).Status != http.StatusTooManyRequests {
			h.record(c, h.failedSignIn(c, req.Username), err)
		}
		return err
	}
	h.record(c, audit.Event{Action: audit.SignIn, UserID: s.User.ID, Username: s.User.Username}, nil)
	return c.JSON(http.StatusOK, sessionJSON(s))
}

// sessionJSON is a new session as a sign-in answers it.
func sessionJSON(s auth.Session) map[string]any {
	return map[string]any{"token": s.Token, "expires_at": s.ExpiresAt, "idle_expires_at": s.IdleExpiresAt, "user": toUserJSON(s.User)}
}

// failedSignIn names the account a refused sign-in tried, so its owner
// sees the attempt; a name nobody has is kept as typed, clipped.
func (h *handlers) failedSignIn(c echo.Context, username string) audit.Event {
	ev := audit.Event{Action: audit.SignInFailed, Username: kb.Clip(strings.ToLower(strings.TrimSpace(username)), 64)}
	if u, err := h.Store.UserByUsername(c.Request().Context(), ev.Username); err == nil {
		ev.UserID = u.ID
	}
	return ev
}

// logout ends the session; one opened by an identity provider answers
// where the browser ends the provider's session too.
func (h *handlers) logout(c echo.Context) error {
	ctx := c.Request().Context()
	sess, err := h.Auth.Logout(ctx, currentPrincipal(c))
	h.record(c, audit.Event{Action: audit.Logout, Provider: sess.Provider}, err)
	if err != nil {
		return err
	}
	if h.SSO != nil && sess.Provider != "" {
		if u := h.SSO.EndSessionURL(ctx, sess.Provider, sess.IDToken); u != "" {
			return c.JSON(http.StatusOK, map[string]string{"end_session_url": u})
		}
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handlers) logoutAll(c echo.Context) error {
	n, err := h.Auth.LogoutAll(c.Request().Context(), currentPrincipal(c))
	h.record(c, audit.Event{Action: audit.LogoutAll, After: audit.JSON(map[string]int64{"sessions_ended": n})}, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int64{"sessions_ended": n})
}

type passwordRequest struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

func (r *passwordRequest) Validate() error {
	if r.CurrentPassword == "" || r.NewPassword == "" {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "current_password and new_password are required")
	}
	return nil
}

// changePassword keeps the calling session and ends every other one and
// every API token: whoever knew the old password is out.
func (h *handlers) changePassword(c echo.Context) error {
	var req passwordRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	p := currentPrincipal(c)
	err := h.Auth.ChangePassword(c.Request().Context(), p, c.RealIP(), req.CurrentPassword, req.NewPassword)
	h.record(c, audit.Event{Action: audit.PasswordChange}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handlers) me(c echo.Context) error {
	return c.JSON(http.StatusOK, toUserJSON(currentUser(c)))
}

type tokenRequest struct {
	Name          string `json:"name"`
	ExpiresInDays int    `json:"expires_in_days"`
	ScopeURI      string `json:"scope_uri"`
	ReadOnly      *bool  `json:"read_only"`
}

func (r *tokenRequest) Validate() error { return nil } // the service checks the name

type tokenJSON struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	ScopeURI   *string    `json:"scope_uri"`
	ReadOnly   bool       `json:"read_only"`
	Username   string     `json:"username,omitempty"` // only in the admin listing
	Token      string     `json:"token,omitempty"`    // only in the creation answer
}

func toTokenJSON(t store.APIToken) tokenJSON {
	return tokenJSON{ID: t.ID, Name: t.Name, Prefix: t.Prefix, CreatedAt: t.CreatedAt, LastUsedAt: t.LastUsedAt, ExpiresAt: t.ExpiresAt, ReadOnly: t.ReadOnly}
}

// toTokenViewJSON adds the scope; a scoped token whose folder is gone
// shows scope_uri "" (it no longer works), an unscoped one null.
func toTokenViewJSON(t auth.TokenView) tokenJSON {
	out := toTokenJSON(t.APIToken)
	if t.Scoped {
		out.ScopeURI = &t.ScopeURI
	}
	return out
}

func (h *handlers) createToken(c echo.Context) error {
	var req tokenRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	var t auth.NewToken
	var err error
	if req.ScopeURI != "" {
		t, err = h.Auth.CreateScopedToken(ctx, currentUser(c), req.Name, req.ExpiresInDays, auth.TokenScope{URI: req.ScopeURI, ReadOnly: req.ReadOnly})
	} else if req.ReadOnly != nil && *req.ReadOnly {
		return apierr.BadRequest(apierr.CodeInvalidScope, "read_only applies to a token with a scope_uri; give the folder it may read")
	} else {
		t, err = h.Auth.CreateToken(ctx, currentUser(c).ID, req.Name, req.ExpiresInDays)
	}
	ev := audit.Event{Action: audit.TokenCreate}
	if err == nil {
		ev.Target = kindID("token", t.ID)
		ev.After = audit.JSON(map[string]any{"name": t.Name, "scoped": t.Scoped, "read_only": t.ReadOnly})
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	out := toTokenJSON(t.APIToken)
	if t.Scoped {
		out.ScopeURI = &t.ScopeURI
	}
	out.Token = t.Secret
	return c.JSON(http.StatusCreated, out)
}

func (h *handlers) listTokens(c echo.Context) error {
	ts, err := h.Auth.ListTokens(c.Request().Context(), currentUser(c))
	if err != nil {
		return err
	}
	items := make([]tokenJSON, len(ts))
	for i, t := range ts {
		items[i] = toTokenViewJSON(t)
	}
	return answerPage(c, items)
}

func (h *handlers) revokeToken(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	err = h.Auth.RevokeToken(c.Request().Context(), currentUser(c).ID, id)
	h.record(c, audit.Event{Action: audit.TokenRevoke, Target: kindID("token", id)}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
