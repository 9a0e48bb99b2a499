package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/compile"
)

// autoCompileRequest is the body of PUT /resources/auto-compile.
type autoCompileRequest struct{ compile.AutoRequest }

func (r *autoCompileRequest) Validate() error { return r.AutoRequest.Validate() }

// putAutoCompile keeps a folder compiled with the compile form's choices.
func (h *handlers) putAutoCompile(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	var req autoCompileRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	v, err := svc.SaveAuto(c.Request().Context(), caller(c), req.AutoRequest)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (h *handlers) getAutoCompile(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	v, err := svc.Auto(c.Request().Context(), caller(c), c.QueryParam("uri"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (h *handlers) deleteAutoCompile(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	if err := svc.DeleteAuto(c.Request().Context(), caller(c), c.QueryParam("uri")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
