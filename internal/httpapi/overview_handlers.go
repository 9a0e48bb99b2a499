package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// overviewJSON is GET /admin/overview.
type overviewJSON struct {
	Users struct {
		Total    int64 `json:"total"`
		Disabled int64 `json:"disabled"`
		Admins   int64 `json:"admins"`
	} `json:"users"`
	Files int64            `json:"files"`
	Bytes int64            `json:"bytes"`
	Jobs  map[string]int64 `json:"jobs"`
	// ActiveStreams counts the chat answers streaming on the replica that
	// answers this request only: streams are not in the database.
	ActiveStreams int `json:"active_streams"`
}

func (h *handlers) overview(c echo.Context) error {
	o, err := h.Store.Overview(c.Request().Context())
	if err != nil {
		return err
	}
	var out overviewJSON
	out.Users.Total, out.Users.Disabled, out.Users.Admins = o.Users, o.DisabledUsers, o.Admins
	out.Files, out.Bytes, out.Jobs, out.ActiveStreams = o.Files, o.Bytes, o.Jobs, h.Turns.Open()
	return c.JSON(http.StatusOK, out)
}
