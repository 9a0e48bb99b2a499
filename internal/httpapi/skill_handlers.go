package httpapi

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/audit"

	"github.com/knowspace/knowspace/internal/skill"
)

// skillID is the :id of a skill route; a client may escape the colon of
// "builtin:<name>".
func skillID(c echo.Context) string {
	id := c.Param("id")
	if u, err := url.PathUnescape(id); err == nil {
		return u
	}
	return id
}

func (h *handlers) listSkills(c echo.Context) error {
	list, err := h.Skills.List(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	p, err := pageOf(c, list)
	if err != nil {
		return err
	}
	// skills is the list's key before items; kept for one release.
	return c.JSON(http.StatusOK, struct {
		page[skill.Skill]
		Skills []skill.Skill `json:"skills"`
	}{p, p.Items})
}

func (h *handlers) createSkill(c echo.Context) error {
	var in skill.Input
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	sk, err := h.Skills.Create(c.Request().Context(), caller(c), in)
	ev := audit.Event{Action: audit.SkillChange}
	if err == nil {
		ev.Target, ev.After = kindID("skill", sk.ID), nameSetting(sk.Name)
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, sk)
}

func (h *handlers) getSkill(c echo.Context) error {
	sk, err := h.Skills.Get(c.Request().Context(), caller(c), skillID(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sk)
}

func (h *handlers) updateSkill(c echo.Context) error {
	var ch skill.Changes
	if err := bindJSON(c, &ch); err != nil {
		return err
	}
	ev := h.skillEvent(c)
	sk, err := h.Skills.Update(c.Request().Context(), caller(c), skillID(c), ch)
	if err == nil {
		ev.After = nameSetting(sk.Name)
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sk)
}

func (h *handlers) deleteSkill(c echo.Context) error {
	ev := h.skillEvent(c)
	err := h.Skills.Delete(c.Request().Context(), caller(c), skillID(c))
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// generateSkill returns a model's draft; nothing is stored until the user
// saves it with POST /skills.
func (h *handlers) generateSkill(c echo.Context) error {
	var req skill.GenerateRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	d, err := h.Skills.Generate(c.Request().Context(), caller(c), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"draft": d})
}

func (h *handlers) previewSkill(c echo.Context) error {
	var req skill.PreviewRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	p, err := h.Skills.Preview(c.Request().Context(), caller(c), req)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// skillEvent is the event of a change to the skill the path names, with
// its name before; the prompt is content and stays out of the log.
func (h *handlers) skillEvent(c echo.Context) audit.Event {
	ev := audit.Event{Action: audit.SkillChange, Target: kindID("skill", skillID(c))}
	if sk, err := h.Skills.Get(c.Request().Context(), caller(c), skillID(c)); err == nil {
		ev.Before = nameSetting(sk.Name)
	}
	return ev
}
