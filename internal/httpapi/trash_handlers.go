package httpapi

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/audit"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
)

func (h *handlers) listTrash(c echo.Context) error {
	items, err := trash.New(h.Tree).ListTrash(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	return answerPage(c, items)
}

type trashRequest struct {
	ID int64 `json:"id"`
}

func (r *trashRequest) Validate() error {
	if r.ID <= 0 {
		return apierr.BadRequest(apierr.CodeInvalidID, "id of a trash item is required")
	}
	return nil
}

func (h *handlers) restoreTrash(c echo.Context) error {
	var req trashRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	item, err := trash.New(h.Tree).RestoreTrash(c.Request().Context(), caller(c), req.ID)
	ev := audit.Event{Action: audit.TrashRestore, Target: kindID("trash", req.ID)}
	if err == nil {
		ev.Target = item.URI
	}
	h.record(c, ev, err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, item)
}

func (h *handlers) purgeTrashItem(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return apierr.NotFound(apierr.CodeNotFound, "no such trash item: %s", c.Param("id"))
	}
	n, err := trash.New(h.Tree).PurgeTrash(c.Request().Context(), caller(c), id)
	h.record(c, purgeEvent(kindID("trash", id), n, err), err)
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handlers) emptyTrash(c echo.Context) error {
	n, err := trash.New(h.Tree).PurgeTrash(c.Request().Context(), caller(c), 0)
	h.record(c, purgeEvent("trash", n, err), err)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]int{"purged": n})
}

// purgeEvent is the event of purging target ("trash" for all of it).
func purgeEvent(target string, n int, err error) audit.Event {
	ev := audit.Event{Action: audit.Purge, Target: target}
	if err == nil {
		ev.After = audit.JSON(map[string]int{"purged": n})
	}
	return ev
}
