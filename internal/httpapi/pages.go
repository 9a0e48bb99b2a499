package httpapi

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/apierr"
)

// Every list answers one shape: items, and next_cursor to pass back as
// cursor= for the next page (null on the last one). The lists below are
// read whole from the store (an account's tokens, a file's versions, the
// trash), so their pages are cut here; the tree, search, conversations
// and jobs page in their own services.

// maxPageLimit bounds limit= of a list cut here.
const maxPageLimit = 1000

// page is one page of a list.
type page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"next_cursor"`
}

// nextCursor is a service's next page as the API answers it: null at the
// end.
func nextCursor(c string) *string {
	if c == "" {
		return nil
	}
	return &c
}

// pageOf cuts the page limit= and cursor= ask for out of a whole list;
// without limit the page runs to the end, as lists answered before they
// were paged.
func pageOf[T any](c echo.Context, all []T) (page[T], error) {
	limit, err := queryInt(c, "limit", apierr.CodeInvalidLimit)
	if err != nil {
		return page[T]{}, err
	}
	if limit < 0 || limit > maxPageLimit {
		return page[T]{}, apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d", maxPageLimit).WithDetail("max", maxPageLimit)
	}
	from := 0
	if raw := c.QueryParam("cursor"); raw != "" {
		if from, err = decodeOffsetCursor(raw); err != nil {
			return page[T]{}, err
		}
	}
	// A list that shrank since the cursor was made ends where it ends now.
	from = min(from, len(all))
	to := len(all)
	if limit > 0 {
		to = min(from+int(limit), len(all))
	}
	p := page[T]{Items: all[from:to]}
	if p.Items == nil {
		p.Items = []T{}
	}
	if to < len(all) {
		p.NextCursor = nextCursor(encodeOffsetCursor(to))
	}
	return p, nil
}

// jobsPage is a page of a job listing; jobs, the list's key before items,
// is kept for one release.
func jobsPage[T any](jobs []T, next string) any {
	return struct {
		page[T]
		Jobs []T `json:"jobs"`
	}{page[T]{Items: jobs, NextCursor: nextCursor(next)}, jobs}
}

// answerPage answers the page of all that the request asks for.
func answerPage[T any](c echo.Context, all []T) error {
	p, err := pageOf(c, all)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, p)
}

// offsetCursorPrefix marks a cursor of pageOf, so that another list's
// cursor or a hand-made one is refused instead of read as a position.
const offsetCursorPrefix = "o1."

func encodeOffsetCursor(n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(offsetCursorPrefix + strconv.Itoa(n)))
}

func decodeOffsetCursor(raw string) (int, error) {
	b, err := base64.RawURLEncoding.DecodeString(raw)
	s, ok := strings.CutPrefix(string(b), offsetCursorPrefix)
	n, nerr := strconv.Atoi(s)
	if err != nil || !ok || nerr != nil || n < 0 {
		return 0, apierr.BadRequest(apierr.CodeInvalidCursor, "cursor is not one this API returned; start again without it")
	}
	return n, nil
}
