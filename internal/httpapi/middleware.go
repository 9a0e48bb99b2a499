package httpapi

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

const principalKey = "principal"

// requireAuth accepts a session JWT or a personal API token as a bearer
// credential and puts the account in the context.
func (h *handlers) requireAuth(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		header := c.Request().Header.Get("Authorization")
		scheme, token, _ := strings.Cut(header, " ")
		if header != "" && !strings.EqualFold(scheme, "Bearer") {
			return apierr.Unauthorized(apierr.CodeInvalidToken, "use Authorization: Bearer <token>")
		}
		p, err := h.Auth.AuthenticatePrincipal(c.Request().Context(), strings.TrimSpace(token))
		if err != nil {
			return err
		}
		c.Set(principalKey, p)
		r := c.Request()
		c.SetRequest(r.WithContext(audit.WithAccount(r.Context(), p.User.ID, p.User.Username, p.TokenID, "")))
		return next(c)
	}
}

func requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if currentUser(c).Role != store.RoleAdmin {
			return apierr.Forbidden(apierr.CodeAdminOnly, "only administrators may use the admin API")
		}
		return next(c)
	}
}

func currentUser(c echo.Context) store.User {
	return currentPrincipal(c).User
}

func currentPrincipal(c echo.Context) auth.Principal {
	p, _ := c.Get(principalKey).(auth.Principal)
	return p
}

func caller(c echo.Context) kb.Caller {
	return currentPrincipal(c).Caller()
}
