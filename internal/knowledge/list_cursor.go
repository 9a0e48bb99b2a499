package knowledge

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// listCursorVersion is the first field of every listing cursor: a new
// encoding bumps it, and older cursors then answer invalid_cursor.
const listCursorVersion = 1

// listCursor is where the next page of a folder starts: just after the
// last row's sort key. Folder binds it to the listed folder (0 for
// kb://shared/, whose small in-memory list pages by Offset instead).
type listCursor struct {
	V      int    `json:"v"`
	Folder int64  `json:"f"`
	Kind   string `json:"k,omitempty"`
	Name   string `json:"n,omitempty"`
	ID     int64  `json:"i,omitempty"`
	Offset int    `json:"o,omitempty"`
}

// cursorCheck seals the payload so an edited cursor is refused rather than
// silently resuming elsewhere. It is not a secret: access is checked on
// every page anyway, whatever the cursor says.
func cursorCheck(payload []byte) string {
	sum := sha256.Sum256(append([]byte("knowspace list cursor\x00"), payload...))
	return base64.RawURLEncoding.EncodeToString(sum[:8])
}

func (c listCursor) encode() *string {
	c.V = listCursorVersion
	b, _ := json.Marshal(c)
	s := base64.RawURLEncoding.EncodeToString(b) + "." + cursorCheck(b)
	return &s
}

func (c listCursor) key() *store.ChildKey {
	return &store.ChildKey{Kind: c.Kind, Name: c.Name, ID: c.ID}
}

func cursorAfter(folder int64, n store.Node) *string {
	return listCursor{Folder: folder, Kind: n.Kind, Name: n.Name, ID: n.ID}.encode()
}

func InvalidCursor(why string) error {
	return apierr.BadRequest(apierr.CodeInvalidCursor, "cursor %s; pass next_cursor of the previous page unchanged, or omit cursor to start again", why)
}

// decodeListCursor checks s and that it was issued for folder.
func decodeListCursor(s string, folder int64) (listCursor, error) {
	body, check, ok := strings.Cut(s, ".")
	if !ok {
		return listCursor{}, InvalidCursor("is not a listing cursor")
	}
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || check != cursorCheck(b) {
		return listCursor{}, InvalidCursor("is not a listing cursor or was altered")
	}
	var c listCursor
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil || c.V != listCursorVersion {
		return listCursor{}, InvalidCursor("is not a listing cursor of this version")
	}
	if c.Folder != folder {
		return listCursor{}, InvalidCursor("belongs to another folder")
	}
	if c.Offset < 0 || (folder != 0 && (c.ID <= 0 || (c.Kind != store.KindDir && c.Kind != store.KindFile))) {
		return listCursor{}, InvalidCursor("is not a listing cursor")
	}
	return c, nil
}
