package compile

import (
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Job listings page newest change first, DefaultJobLimit at a time unless
// the request says otherwise (at most MaxJobLimit); a cursor continues
// after the last job of the page before.
const (
	DefaultJobLimit = 100
	MaxJobLimit     = 500
)

// jobCursorPrefix versions the cursor, so a cursor of another list (or of
// an older spelling) is refused rather than misread.
const jobCursorPrefix = "j1."

// pageLimit is the limit a listing asks the store for: one more than it
// answers, to know whether a next page exists.
func pageLimit(limit int) int {
	if limit == 0 {
		limit = DefaultJobLimit
	}
	return limit + 1
}

// cutPage trims the one row fetched past the page and says where the next
// page starts ("" when there is none).
func cutPage(js []store.Job, limit int) ([]store.Job, string) {
	if limit == 0 {
		limit = DefaultJobLimit
	}
	if len(js) <= limit {
		return js, ""
	}
	js = js[:limit]
	k := js[limit-1].Key()
	raw := fmt.Sprintf("%s%d.%d", jobCursorPrefix, k.UpdatedAt.UnixNano(), k.ID)
	return js, base64.RawURLEncoding.EncodeToString([]byte(raw))
}

// afterCursor reads a cursor cutPage made; "" is the first page.
func afterCursor(cursor string) (*store.JobKey, error) {
	if cursor == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	var ns, id int64
	rest, ok := strings.CutPrefix(string(b), jobCursorPrefix)
	if err == nil && ok {
		_, err = fmt.Sscanf(rest, "%d.%d", &ns, &id)
	}
	if err != nil || !ok || id <= 0 {
		return nil, apierr.BadRequest(apierr.CodeInvalidCursor, "cursor is not one this API returned; start again without it")
	}
	return &store.JobKey{UpdatedAt: time.Unix(0, ns).UTC(), ID: id}, nil
}
