package httpapi

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/usage"
)

type budgetsJSON struct {
	Budgets []usage.Status `json:"budgets"`
}

func (h *handlers) budgets() (*usage.Budgets, error) {
	if h.Budgets == nil {
		return nil, apierr.New(http.StatusServiceUnavailable, apierr.CodeUnavailable, "usage budgets are not kept on this server")
	}
	return h.Budgets, nil
}

// myBudgets is every budget that applies to the caller, with what it has
// used: the web app warns from 80 %.
func (h *handlers) myBudgets(c echo.Context) error {
	b, err := h.budgets()
	if err != nil {
		return err
	}
	st, err := b.For(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, budgetsJSON{st})
}

func (h *handlers) listBudgets(c echo.Context) error {
	b, err := h.budgets()
	if err != nil {
		return err
	}
	st, err := b.All(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, budgetsJSON{st})
}

type budgetRequest struct {
	Scope     string  `json:"scope"`
	UserID    int64   `json:"user_id"`
	GroupID   int64   `json:"group_id"`
	Period    string  `json:"period"`
	MaxTokens int64   `json:"max_tokens"`
	MaxCost   float64 `json:"max_cost"`
}

func (r *budgetRequest) Validate() error { return nil } // the budget service checks it

// putBudget makes or replaces the budget of a scope, subject and period.
func (h *handlers) putBudget(c echo.Context) error {
	b, err := h.budgets()
	if err != nil {
		return err
	}
	var req budgetRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	bg := store.Budget{Scope: req.Scope, Period: req.Period, MaxTokens: req.MaxTokens, MaxCost: req.MaxCost}
	switch req.Scope {
	case store.BudgetUser:
		if _, err := h.Store.UserByID(ctx, req.UserID); err != nil {
			return apierr.BadRequest(apierr.CodeInvalidBudget, "user_id: no user with id %d", req.UserID)
		}
		bg.SubjectID = req.UserID
	case store.BudgetGroup:
		if _, err := h.Auth.Group(ctx, req.GroupID); err != nil {
			return apierr.BadRequest(apierr.CodeInvalidBudget, "group_id: no group with id %d", req.GroupID)
		}
		bg.SubjectID = req.GroupID
	}
	_, err = b.Put(ctx, bg)
	h.record(c, audit.Event{Action: audit.BudgetChange, Target: fmt.Sprintf("budget:%s:%d:%s", bg.Scope, bg.SubjectID, bg.Period),
		After: audit.JSON(map[string]any{"max_tokens": bg.MaxTokens, "max_cost": bg.MaxCost})}, err)
	if err != nil {
		return err
	}
	return h.listBudgets(c)
}

func (h *handlers) deleteBudget(c echo.Context) error {
	b, err := h.budgets()
	if err != nil {
		return err
	}
	id, err := pathID(c)
	if err != nil {
		return err
	}
	err = b.Delete(c.Request().Context(), id)
	h.record(c, audit.Event{Action: audit.BudgetChange, Target: fmt.Sprintf("budget:%d", id), After: audit.JSON(nil)}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
