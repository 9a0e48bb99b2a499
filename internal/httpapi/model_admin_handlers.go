package httpapi

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/catalog"
)

// modelBody is the admin's model form; the catalog validates it, naming
// the field.
type modelBody catalog.Input

func (*modelBody) Validate() error { return nil }

// catalogOr503 is the catalog, or the answer of a server built without
// one (tests that need no admin models).
func (h *handlers) catalogOr503() (*catalog.Service, error) {
	if h.Catalog == nil {
		return nil, apierr.New(http.StatusServiceUnavailable, apierr.CodeUnavailable, "this server does not manage models in the admin screens")
	}
	return h.Catalog, nil
}

func modelID(c echo.Context) (string, error) {
	id, err := url.PathUnescape(c.Param("id"))
	if err != nil {
		return "", apierr.NotFound(apierr.CodeUnknownModel, "no model with id %q", c.Param("id"))
	}
	return id, nil
}

// listAdminModels lists the config's models (read-only, they win an id)
// and the admin's; a key is only ever "set" and its last four characters.
func (h *handlers) listAdminModels(c echo.Context) error {
	cat, err := h.catalogOr503()
	if err != nil {
		return err
	}
	list, err := cat.List(c.Request().Context())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, list)
}

func (h *handlers) createAdminModel(c echo.Context) error {
	cat, err := h.catalogOr503()
	if err != nil {
		return err
	}
	var body modelBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	v, err := cat.Create(c.Request().Context(), catalog.Input(body))
	h.recordModel(c, body.ID, v, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, v)
}

// updateAdminModel changes the fields the body names; api_key absent keeps
// the stored key, "" removes it. disabled: true takes the model out of
// use on every replica.
func (h *handlers) updateAdminModel(c echo.Context) error {
	cat, err := h.catalogOr503()
	if err != nil {
		return err
	}
	id, err := modelID(c)
	if err != nil {
		return err
	}
	v, err := cat.Update(c.Request().Context(), id, func(in *catalog.Input) error {
		return bindJSON(c, (*modelBody)(in))
	})
	h.recordModel(c, id, v, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, v)
}

func (h *handlers) deleteAdminModel(c echo.Context) error {
	cat, err := h.catalogOr503()
	if err != nil {
		return err
	}
	id, err := modelID(c)
	if err != nil {
		return err
	}
	err = cat.Delete(c.Request().Context(), id)
	h.recordModel(c, id, catalog.View{}, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// checkAdminModel makes the model check's one-token call with the form's
// fields, saved or not; without api_key it uses the stored model's key.
func (h *handlers) checkAdminModel(c echo.Context) error {
	cat, err := h.catalogOr503()
	if err != nil {
		return err
	}
	var body modelBody
	if err := bindJSON(c, &body); err != nil {
		return err
	}
	if body.Kind == catalog.KindEmbedding {
		if err := h.checks.allow(currentUser(c).ID, apierr.CodeTooManyChecks, "checks"); err != nil {
			return err
		}
		out, err := h.checkEmbedding(c.Request().Context(), cat, catalog.Input(body))
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, out)
	}
	reg, err := cat.Draft(c.Request().Context(), catalog.Input(body))
	if err != nil {
		return err
	}
	if err := h.checks.allow(currentUser(c).ID, apierr.CodeTooManyChecks, "checks"); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, probe(checkContext(c), reg, body.ID))
}

// recordModel records a model change; its settings, never its key (a
// deleted model has no settings after).
func (h *handlers) recordModel(c echo.Context, id string, v catalog.View, err error) {
	ev := audit.Event{Action: audit.ModelChange, Target: "model:" + id}
	if v.ID != "" {
		ev.After = audit.JSON(map[string]any{"kind": v.Kind, "profile": v.Profile, "disabled": v.Disabled, "users": v.Users, "groups": v.Groups,
			"price_input": v.PriceInput, "price_output": v.PriceOutput, "api_key_set": v.APIKey.Set})
	}
	h.record(c, ev, err)
}
