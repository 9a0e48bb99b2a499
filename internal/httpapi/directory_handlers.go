package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// directory is GET /auth/directory: the users and groups whose name matches q,
// to share with.
func (h *handlers) directory(c echo.Context) error {
	d, err := h.Auth.Lookup(c.Request().Context(), currentUser(c).ID, c.QueryParam("q"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}
