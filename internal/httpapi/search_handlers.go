package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// search serves GET /search?uri=&q=&mode=&kind=&case_sensitive=&regex=&path=&cursor=:
// the search tool's result for people and scripts, with name matches.
// Without mode the search is literal, as scripts written before ranked
// search expect.
func (h *handlers) search(c echo.Context) error {
	p := tools.SearchParams{
		URI: c.QueryParam("uri"), Query: c.QueryParam("q"), Kind: c.QueryParam("kind"),
		Cursor: c.QueryParam("cursor"), Path: c.QueryParam("path"), Mode: c.QueryParam("mode"),
	}
	if p.URI == "" {
		p.URI = "kb://me/"
	}
	var err error
	if p.CaseSensitive, err = queryBool(c, "case_sensitive", apierr.CodeInvalidCaseSensitive); err != nil {
		return err
	}
	if p.Regex, err = queryBool(c, "regex", apierr.CodeInvalidRegex); err != nil {
		return err
	}
	page, err := tools.New(h.Tree).Search(c.Request().Context(), caller(c), p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, searchJSON{SearchPage: page, Items: page.Hits, NextCursor: page.NextOffset})
}

// searchJSON is a search page in the shape of every list: its content
// hits are the items, and its cursor next_cursor. hits and next_offset,
// the same values under the tool's names, are kept for one release.
type searchJSON struct {
	*tools.SearchPage
	Items      []tools.SearchHit `json:"items"`
	NextCursor *string           `json:"next_cursor"`
}
