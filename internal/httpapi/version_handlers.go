package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
)

func (h *handlers) listVersions(c echo.Context) error {
	vs, err := trash.New(h.Tree).Versions(c.Request().Context(), caller(c), c.QueryParam("uri"))
	if err != nil {
		return err
	}
	return answerPage(c, vs)
}

type restoreVersionRequest struct {
	URI       string `json:"uri"`
	VersionID int64  `json:"version_id"`
}

func (r *restoreVersionRequest) Validate() error {
	if r.URI == "" || r.VersionID <= 0 {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "uri and a positive version_id are required")
	}
	return nil
}

func (h *handlers) restoreVersion(c echo.Context) error {
	var req restoreVersionRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	item, err := trash.New(h.Tree).RestoreVersion(c.Request().Context(), caller(c), req.URI, req.VersionID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, item)
}
