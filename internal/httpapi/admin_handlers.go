package httpapi

import (
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/store"
)

type createUserRequest struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Role     string `json:"role"`
}

func (r *createUserRequest) Validate() error {
	if r.Username == "" || r.Password == "" {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "username and password are required")
	}
	return nil
}

func (h *handlers) createUser(c echo.Context) error {
	var req createUserRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	u, err := h.Auth.CreateUser(c.Request().Context(), req.Username, req.Password, req.Role)
	ev := audit.Event{Action: audit.UserCreate}
	if u.ID != 0 {
		ev.Target, ev.After = kindID("user", u.ID), audit.JSON(map[string]string{"username": u.Username, "role": u.Role})
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toUserJSON(u))
}

func (h *handlers) listUsers(c echo.Context) error {
	us, err := h.Auth.ListUsers(c.Request().Context())
	if err != nil {
		return err
	}
	items := make([]userJSON, len(us))
	for i, u := range us {
		items[i] = toUserJSON(u)
	}
	return answerPage(c, items)
}

type updateUserRequest struct {
	Password *string `json:"password"`
	Role     *string `json:"role"`
	Disabled *bool   `json:"disabled"`
}

func (r *updateUserRequest) Validate() error {
	if r.Password == nil && r.Role == nil && r.Disabled == nil {
		return apierr.BadRequest(apierr.CodeInvalidRequest, "send at least one of password, role, disabled")
	}
	return nil
}

func (h *handlers) updateUser(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req updateUserRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ev := audit.Event{Action: audit.UserUpdate, Target: kindID("user", id)}
	if before, err := h.Store.UserByID(c.Request().Context(), id); err == nil {
		ev.Before = userSettings(before)
	}
	u, err := h.applyUserUpdate(c, id, req)
	if err == nil {
		after := map[string]any{"role": u.Role, "disabled": u.Disabled}
		if req.Password != nil {
			after["password_reset"] = true
		}
		ev.After = audit.JSON(after)
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toUserJSON(u))
}

// userSettings are the account fields an admin changes, as the audit log
// keeps them (never the password).
func userSettings(u store.User) json.RawMessage {
	return audit.JSON(map[string]any{"role": u.Role, "disabled": u.Disabled})
}

func (h *handlers) applyUserUpdate(c echo.Context, id int64, req updateUserRequest) (store.User, error) {
	ctx := c.Request().Context()
	// An admin locking themselves out leaves nobody to undo it.
	if id == currentUser(c).ID && ((req.Disabled != nil && *req.Disabled) || (req.Role != nil && *req.Role != store.RoleAdmin)) {
		return store.User{}, apierr.BadRequest(apierr.CodeCannotModifySelf, "you cannot disable or demote your own account")
	}
	var u store.User
	var err error
	if req.Password != nil {
		if u, err = h.Auth.SetPassword(ctx, id, *req.Password); err != nil {
			return u, err
		}
	}
	if req.Role != nil || req.Disabled != nil {
		if u, err = h.Auth.UpdateUser(ctx, id, store.UserUpdate{Role: req.Role, Disabled: req.Disabled}); err != nil {
			return u, err
		}
		// Its sessions and queued jobs ended in the update; open streams
		// are not requests the store knows of.
		if u.Disabled {
			h.Turns.EndUser(id)
		}
	}
	return u, nil
}

func (h *handlers) listAllTokens(c echo.Context) error {
	ts, err := h.Auth.ListAllTokens(c.Request().Context())
	if err != nil {
		return err
	}
	items := make([]tokenJSON, len(ts))
	for i, t := range ts {
		items[i] = toTokenViewJSON(t)
		items[i].Username = t.Username
	}
	return answerPage(c, items)
}

func (h *handlers) revokeAnyToken(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	err = h.Auth.RevokeAnyToken(c.Request().Context(), id)
	h.record(c, audit.Event{Action: audit.TokenRevoke, Target: kindID("token", id)}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
