package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/compile"
)

// compileRequest is the body of POST /knowledge-agent/compile.
type compileRequest struct{ compile.Request }

func (r *compileRequest) Validate() error { return r.Request.Validate() }

func (h *handlers) compileService() (*compile.Service, error) {
	if h.Compile == nil {
		return nil, apierr.New(http.StatusServiceUnavailable, apierr.CodeCompileUnavailable, "compiling is not available on this server")
	}
	return h.Compile, nil
}

// compile enqueues one job per accepted file (SPEC §4, §7).
func (h *handlers) compile(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	var req compileRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	res, err := svc.Enqueue(c.Request().Context(), caller(c), req.Request)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, res)
}

func (h *handlers) listJobs(c echo.Context) error {
	svc, err := h.compileService()
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return err
	}
	jobs, next, err := svc.Jobs(c.Request().Context(), caller(c), compile.ListFilter{State: c.QueryParam("state"),
		URI: c.QueryParam("uri"), Limit: int(limit), Cursor: c.QueryParam("cursor")})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, jobsPage(jobs, next))
}

func (h *handlers) jobAction(act func(svc *compile.Service, c echo.Context, id int64) (compile.JobView, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		svc, err := h.compileService()
		if err != nil {
			return err
		}
		id, err := pathID(c)
		if err != nil {
			return err
		}
		j, err := act(svc, c, id)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, j)
	}
}

func getJob(svc *compile.Service, c echo.Context, id int64) (compile.JobView, error) {
	return svc.Job(c.Request().Context(), caller(c), id)
}

func cancelJob(svc *compile.Service, c echo.Context, id int64) (compile.JobView, error) {
	return svc.Cancel(c.Request().Context(), caller(c), id)
}

func retryJob(svc *compile.Service, c echo.Context, id int64) (compile.JobView, error) {
	return svc.Retry(c.Request().Context(), caller(c), id)
}
