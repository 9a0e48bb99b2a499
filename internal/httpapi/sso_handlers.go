package httpapi

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/auth"
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
// returning the ticket the web app redeems for it.
func (h *handlers) signInExternal(c echo.Context, res sso.Result) (string, error) {
	ctx := c.Request().Context()
	in, err := h.Auth.SignInExternal(ctx, res.Identity, res.Policy)
	if err != nil {
		return "", err
	}
	return h.Auth.OpenHandoff(ctx, in.User, res.Identity.Provider, res.IDToken, auth.HandoffTTL)
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
	return c.JSON(http.StatusOK, map[string]any{
		"token": s.Token, "expires_at": s.ExpiresAt, "idle_expires_at": s.IdleExpiresAt, "user": toUserJSON(s.User),
	})
}
