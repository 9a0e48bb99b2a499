package httpapi

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/sso"
)

// signInOptions tells the login page what to offer.
func (h *handlers) signInOptions(c echo.Context) error {
	providers := []sso.Info{}
	if h.SSO != nil {
		providers = h.SSO.List()
	}
	return c.JSON(http.StatusOK, map[string]any{"password_login": !h.PasswordLoginOff, "providers": providers})
}

func (h *handlers) ssoStart(c echo.Context) error {
	if h.SSO == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeSSOUnknownProvider, "this server has no identity provider")
	}
	to, cookie, err := h.SSO.Start(c.Request().Context(), c.Param("id"), c.QueryParam("return"))
	if err != nil {
		return err
	}
	c.SetCookie(cookie)
	return c.Redirect(http.StatusFound, to)
}

// ssoCallback finishes a provider's sign-in and sends the browser back to
// the web app with a one-time ticket in the fragment (never sent to a
// server, never in a log), or with the error's code for the login page.
func (h *handlers) ssoCallback(c echo.Context) error {
	if h.SSO == nil {
		return apierr.New(http.StatusNotFound, apierr.CodeSSOUnknownProvider, "this server has no identity provider")
	}
	ctx := c.Request().Context()
	c.SetCookie(h.SSO.ClearCookie())
	var cookie string
	if ck, err := c.Cookie(sso.CookieName); err == nil {
		cookie = ck.Value
	}
	res, err := h.SSO.Finish(ctx, c.Param("id"), c.QueryParams(), cookie)
	if err == nil {
		var ticket string
		if ticket, err = h.signInExternal(c, res); err == nil {
			frag := url.Values{"sso_ticket": {ticket}, "return": {res.Return}}
			return c.Redirect(http.StatusFound, "/#"+frag.Encode())
		}
	}
	h.record(c, audit.Event{Action: audit.SignInFailed, Username: kb.Clip(res.Identity.Username, 64), Provider: c.Param("id")}, err)
	e, ok := apierr.As(err)
	if !ok || e.Status >= 500 {
		c.Logger().Error(err) // the page says only the code; the log keeps the cause
	}
	code := "internal"
	if ok {
		code = e.Code.String()
	}
	return c.Redirect(http.StatusFound, "/#"+url.Values{"sso_error": {code}}.Encode())
}

// signInExternal provisions the provider's person and opens their session,
// returning the ticket the web app redeems for it; what the claims changed
// in the account is recorded, each change once.
func (h *handlers) signInExternal(c echo.Context, res sso.Result) (string, error) {
	ctx := c.Request().Context()
	provider := res.Identity.Provider
	in, err := h.Auth.SignInExternal(ctx, res.Identity, res.Policy)
	if err != nil {
		return "", err
	}
	ticket, err := h.Auth.OpenHandoff(ctx, in.User, provider, res.IDToken, auth.HandoffTTL)
	if err != nil {
		return "", err
	}
	u := in.User
	c.SetRequest(c.Request().WithContext(audit.WithAccount(ctx, u.ID, u.Username, 0, provider)))
	recordClaims(c, h, in, provider)
	h.record(c, audit.Event{Action: audit.SignIn, UserID: u.ID, Username: u.Username, Provider: provider}, nil)
	return ticket, nil
}

// recordClaims records the account, memberships and role a provider's
// claims made or changed.
func recordClaims(c echo.Context, h *handlers, in auth.ExternalSignIn, provider string) {
	u, source := in.User, audit.ClaimsSource(provider)
	target := fmt.Sprintf("user:%d", u.ID)
	if in.Created {
		h.record(c, audit.Event{Action: audit.UserCreate, Target: target, Source: source,
			After: audit.JSON(map[string]string{"username": u.Username, "role": u.Role})}, nil)
	}
	for _, g := range in.Groups {
		action := audit.GroupMemberRemove
		if g.Added {
			action = audit.GroupMemberAdd
		}
		h.record(c, audit.Membership(action, g.GroupID, g.Group, u.Username, source), nil)
	}
	if in.RoleChanged {
		h.record(c, audit.Event{Action: audit.UserUpdate, Target: target, Source: source,
			Before: audit.JSON(map[string]string{"role": in.OldRole}), After: audit.JSON(map[string]string{"role": u.Role})}, nil)
	}
}

type redeemRequest struct {
	Ticket string `json:"ticket"`
}

func (r *redeemRequest) Validate() error {
	if r.Ticket == "" {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "ticket is required")
	}
	return nil
}

func (h *handlers) ssoRedeem(c echo.Context) error {
	var req redeemRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	s, err := h.Auth.RedeemHandoff(c.Request().Context(), req.Ticket)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sessionJSON(s))
}
