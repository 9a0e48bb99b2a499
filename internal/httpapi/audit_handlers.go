package httpapi

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/kb"
)

// record appends the event of an action that ended with err (nil: done).
// A failure to record is logged by the recorder; the action stands.
func (h *handlers) record(c echo.Context, ev audit.Event, err error) {
	_ = h.Audit.Record(c.Request().Context(), ev.WithError(err))
}

// auditActor puts the client's address (after trusted proxies) in every
// request's context, so an event recorded below knows where from, even
// for a sign-in, which has no account yet.
func auditActor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(audit.WithClientAddr(r.Context(), c.RealIP())))
		return next(c)
	}
}

// targetURI names a resource in an event by its canonical URI, as the
// caller's kb://me/… reads differently for everyone else.
func targetURI(c echo.Context, raw string) string {
	u, err := kb.ParseURI(raw, currentUser(c).Username)
	if err != nil {
		return raw
	}
	return u.String()
}

// kindID names a target that has no URI: "user:7", "skill:brief".
func kindID(kind string, id any) string { return fmt.Sprintf("%s:%v", kind, id) }

// nameSetting is the before or after of a rename, a create or a delete.
func nameSetting(name string) json.RawMessage { return audit.JSON(map[string]string{"name": name}) }

// auditFilter reads user_id, action (repeated or comma-separated), since,
// until (RFC 3339), cursor and limit.
func auditFilter(c echo.Context) (audit.Filter, error) {
	var f audit.Filter
	var err error
	if f.UserID, err = queryInt(c, "user_id", apierr.CodeInvalidUserID); err != nil {
		return f, err
	}
	if f.UserID < 0 {
		return f, apierr.BadRequest(apierr.CodeInvalidUserID, "user_id must be a positive integer")
	}
	for _, v := range c.QueryParams()["action"] {
		for _, a := range strings.Split(v, ",") {
			if a = strings.TrimSpace(a); a != "" {
				f.Actions = append(f.Actions, audit.Action(a))
			}
		}
	}
	for name, dst := range map[string]*time.Time{"since": &f.Since, "until": &f.Until} {
		if v := c.QueryParam(name); v != "" {
			if *dst, err = time.Parse(time.RFC3339Nano, v); err != nil {
				return f, apierr.BadRequest(apierr.CodeInvalidTime, "%s must be an RFC 3339 time such as 2026-01-31T09:00:00Z", name)
			}
		}
	}
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return f, err
	}
	f.Limit, f.Cursor = int(limit), c.QueryParam("cursor")
	return f, nil
}

func (h *handlers) answerAudit(c echo.Context, f audit.Filter) error {
	evs, next, err := h.Audit.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, page[audit.Event]{Items: evs, NextCursor: nextCursor(next)})
}

// listAudit is GET /admin/audit: every event, newest first, filtered.
func (h *handlers) listAudit(c echo.Context) error {
	f, err := auditFilter(c)
	if err != nil {
		return err
	}
	return h.answerAudit(c, f)
}

// ownAudit is GET /auth/audit: the caller's own sign-ins and the uses of
// their credentials, whatever else the query asks.
func (h *handlers) ownAudit(c echo.Context) error {
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return err
	}
	return h.answerAudit(c, audit.Filter{UserID: currentUser(c).ID, Actions: audit.OwnActions,
		Cursor: c.QueryParam("cursor"), Limit: int(limit)})
}

// exportAudit is GET /admin/audit/export: the events the filters match as
// JSON lines, newest first, each as the listing spells it, read from the
// store a page at a time.
func (h *handlers) exportAudit(c echo.Context) error {
	f, err := auditFilter(c)
	if err != nil {
		return err
	}
	f.Limit, f.Cursor = audit.MaxPage, ""
	ctx := c.Request().Context()
	evs, next, err := h.Audit.List(ctx, f)
	if err != nil {
		return err
	}
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "application/x-ndjson")
	res.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": "knowspace-audit.jsonl"}))
	res.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(res)
	for {
		for _, ev := range evs {
			if err := enc.Encode(ev); err != nil {
				return nil // the client left; the status is sent
			}
		}
		if next == "" {
			return nil
		}
		res.Flush()
		f.Cursor = next
		if evs, next, err = h.Audit.List(ctx, f); err != nil {
			// Past the status line an error can only cut the stream short.
			slog.Warn("audit export cut short", "request_id", currentRequestID(c), "err", err)
			return nil
		}
	}
}
