package httpapi

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/usage"
)

type usageJSON struct {
	From string      `json:"from"`
	To   string      `json:"to"`
	Rows []usage.Row `json:"rows"`
}

func (h *handlers) usageRange(c echo.Context) (usage.Range, error) {
	if h.Usage == nil {
		return usage.Range{}, apierr.New(http.StatusServiceUnavailable, apierr.CodeUnavailable, "usage is not kept on this server")
	}
	return usage.ParseRange(c.QueryParam("from"), c.QueryParam("to"), time.Now())
}

// myUsage is the caller's own usage, by day, model and purpose.
func (h *handlers) myUsage(c echo.Context) error {
	r, err := h.usageRange(c)
	if err != nil {
		return err
	}
	rows, err := h.Usage.Report(c.Request().Context(), r, []int64{currentUser(c).ID})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, usageJSON{From: r.From, To: r.To, Rows: rows})
}

// adminUsage is everyone's usage, or one user's or one group's members'
// (their current members), as JSON or CSV.
func (h *handlers) adminUsage(c echo.Context) error {
	r, err := h.usageRange(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var users []int64
	if v := c.QueryParam("user_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return apierr.BadRequest(apierr.CodeInvalidUserID, "user_id is not a positive integer")
		}
		users = []int64{id}
	}
	if v := c.QueryParam("group_id"); v != "" {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return apierr.BadRequest(apierr.CodeInvalidID, "group_id is not a positive integer")
		}
		g, err := h.Auth.Group(ctx, id)
		if err != nil {
			return err
		}
		users = []int64{}
		for _, m := range g.Members {
			users = append(users, m.ID)
		}
	}
	rows, err := h.Usage.Report(ctx, r, users)
	if err != nil {
		return err
	}
	switch c.QueryParam("format") {
	case "", "json":
		return c.JSON(http.StatusOK, usageJSON{From: r.From, To: r.To, Rows: rows})
	case "csv":
		return writeUsageCSV(c, r, rows)
	}
	return apierr.BadRequest(apierr.CodeInvalidFormat, "format must be json or csv")
}

func writeUsageCSV(c echo.Context, r usage.Range, rows []usage.Row) error {
	w := c.Response()
	w.Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	w.Header().Set(echo.HeaderContentDisposition, `attachment; filename="usage-`+r.From+`-`+r.To+`.csv"`)
	w.WriteHeader(http.StatusOK)
	out := csv.NewWriter(w)
	_ = out.Write([]string{"day", "user_id", "username", "model", "purpose", "calls", "estimated_calls", "input_tokens", "output_tokens", "cost"})
	for _, row := range rows {
		_ = out.Write([]string{row.Day, strconv.FormatInt(row.UserID, 10), row.Username, row.Model, row.Purpose,
			strconv.FormatInt(row.Calls, 10), strconv.FormatInt(row.EstimatedCalls, 10),
			strconv.FormatInt(row.InputTokens, 10), strconv.FormatInt(row.OutputTokens, 10),
			strconv.FormatFloat(row.Cost, 'f', -1, 64)})
	}
	out.Flush()
	return out.Error()
}
