package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/knowledge/share"
)

func (h *handlers) createShare(c echo.Context) error {
	var req share.Request
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	v, err := share.New(h.Tree).Share(c.Request().Context(), caller(c), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, v)
}

func (h *handlers) listShares(c echo.Context) error {
	vs, err := share.New(h.Tree).Shares(c.Request().Context(), caller(c), c.QueryParam("uri"))
	if err != nil {
		return err
	}
	return answerPage(c, vs)
}

type roleRequest struct {
	Role string `json:"role"`
}

func (r *roleRequest) Validate() error { return nil } // the tree checks the role

func (h *handlers) updateShare(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req roleRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	v, err := share.New(h.Tree).SetShareRole(c.Request().Context(), caller(c), id, req.Role)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (h *handlers) deleteShare(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := share.New(h.Tree).Unshare(c.Request().Context(), caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
