package httpapi

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/store"
)

type groupRequest struct {
	Name string `json:"name"`
}

func (r *groupRequest) Validate() error {
	if r.Name == "" {
		return apierr.BadRequest(apierr.CodeInvalidName, "name is required")
	}
	return nil
}

func (h *handlers) listGroups(c echo.Context) error {
	gs, err := h.Auth.Groups(c.Request().Context())
	if err != nil {
		return err
	}
	return answerPage(c, gs)
}

func (h *handlers) createGroup(c echo.Context) error {
	var req groupRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	g, err := h.Auth.CreateGroup(c.Request().Context(), req.Name)
	ev := audit.Event{Action: audit.GroupCreate}
	if err == nil {
		ev.Target, ev.After = kindID("group", g.ID), nameSetting(g.Name)
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, g)
}

func (h *handlers) renameGroup(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req groupRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ev := audit.Event{Action: audit.GroupRename, Target: kindID("group", id)}
	if before, err := h.Auth.Group(c.Request().Context(), id); err == nil {
		ev.Before = nameSetting(before.Name)
	}
	g, err := h.Auth.RenameGroup(c.Request().Context(), id, req.Name)
	if err == nil {
		ev.After = nameSetting(g.Name)
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *handlers) deleteGroup(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ev := audit.Event{Action: audit.GroupDelete, Target: kindID("group", id)}
	if before, err := h.Auth.Group(c.Request().Context(), id); err == nil {
		ev.Before = nameSetting(before.Name)
	}
	err = h.Auth.DeleteGroup(c.Request().Context(), id)
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func memberIDs(c echo.Context) (int64, int64, error) {
	id, err := pathID(c)
	if err != nil {
		return 0, 0, err
	}
	uid, err := strconv.ParseInt(c.Param("user_id"), 10, 64)
	if err != nil || uid <= 0 {
		return 0, 0, apierr.BadRequest(apierr.CodeInvalidUserID, "user_id must be a positive integer")
	}
	return id, uid, nil
}

func (h *handlers) addMember(c echo.Context) error {
	id, uid, err := memberIDs(c)
	if err != nil {
		return err
	}
	g, err := h.Auth.AddMember(c.Request().Context(), id, uid)
	ev := audit.Membership(audit.GroupMemberAdd, id, g.Name, memberName(g.Members, uid), audit.SourceAdmin)
	if err != nil {
		ev.After = nil
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, g)
}

func (h *handlers) removeMember(c echo.Context) error {
	id, uid, err := memberIDs(c)
	if err != nil {
		return err
	}
	before, _ := h.Auth.Group(c.Request().Context(), id)
	err = h.Auth.RemoveMember(c.Request().Context(), id, uid)
	ev := audit.Membership(audit.GroupMemberRemove, id, before.Name, memberName(before.Members, uid), audit.SourceAdmin)
	if err != nil {
		ev.Before = nil
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handlers) myGroups(c echo.Context) error {
	gs, err := h.Auth.GroupsOf(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	return answerPage(c, gs)
}

// memberName is the user's name among members, or their id when absent.
func memberName(members []store.Member, id int64) string {
	for _, m := range members {
		if m.ID == id {
			return m.Username
		}
	}
	return strconv.FormatInt(id, 10)
}
