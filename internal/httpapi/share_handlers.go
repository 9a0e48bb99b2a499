package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/knowledge/share"
)

func (h *handlers) createShare(c echo.Context) error {
	var req share.Request
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	v, err := share.New(h.Tree).Share(c.Request().Context(), caller(c), req)
	ev := audit.Event{Action: audit.ShareGrant, Target: targetURI(c, req.URI)}
	if err == nil {
		ev.Target, ev.After = v.URI, shareSettings(v)
	}
	h.record(c, ev, err)
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
	svc := share.New(h.Tree)
	ev := h.shareEvent(c, svc, audit.ShareChange, id)
	v, err := svc.SetShareRole(c.Request().Context(), caller(c), id, req.Role)
	if err == nil {
		ev.After = shareSettings(v)
	}
	h.record(c, ev, err)
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
	svc := share.New(h.Tree)
	ev := h.shareEvent(c, svc, audit.ShareRevoke, id)
	err = svc.Unshare(c.Request().Context(), caller(c), id)
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// shareEvent is the event of a change to share id, with the share as it
// was; a share the caller cannot see is named by its id.
func (h *handlers) shareEvent(c echo.Context, svc *share.Service, a audit.Action, id int64) audit.Event {
	v, err := svc.OwnShare(c.Request().Context(), caller(c), id)
	if err != nil {
		return audit.Event{Action: a, Target: kindID("share", id)}
	}
	return audit.Event{Action: a, Target: v.URI, Before: shareSettings(v)}
}

// shareSettings are who a share is for and its role.
func shareSettings(v share.View) json.RawMessage {
	grantee := ""
	switch {
	case v.User != nil:
		grantee = "user:" + v.User.Username
	case v.Group != nil:
		grantee = "group:" + v.Group.Name
	}
	return audit.JSON(map[string]string{"grantee": grantee, "role": v.Role})
}
