package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/compile"
)

// listAllJobs is GET /admin/jobs: every user's jobs, filtered by state,
// user_id and kind, capped by limit as GET /jobs is.
func (h *handlers) listAllJobs(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return err
	}
	userID, err := queryInt(c, "user_id", apierr.CodeInvalidUserID)
	if err != nil {
		return err
	}
	jobs, next, err := svc.AllJobs(c.Request().Context(), compile.AdminFilter{State: c.QueryParam("state"),
		Kind: c.QueryParam("kind"), UserID: userID, Limit: int(limit), Cursor: c.QueryParam("cursor")})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, jobsPage(jobs, next))
}

// cancelAnyJob is POST /admin/jobs/:id/cancel.
func (h *handlers) cancelAnyJob(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	id, err := pathID(c)
	if err != nil {
		return err
	}
	j, err := svc.CancelAny(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, j)
}
