package knowledge

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Listing is one page of a folder's children (SPEC §4). Access says what
// the caller may do in the folder: owner, write or read. NextCursor starts
// the next page after this one's last row; NextOffset is given to offset
// pages only (a cursor page does not know its position). Both are nil on
// the last page.
type Listing struct {
	URI        string  `json:"uri"`
	Access     string  `json:"access,omitempty"`
	Items      []Item  `json:"items"`
	NextOffset *int    `json:"next_offset"`
	NextCursor *string `json:"next_cursor"`
}

// PageRequest picks a page of a listing: after Cursor (a previous page's
// next_cursor) or, for existing scripts, after skipping Offset children.
// Limit 0 means the default.
type PageRequest struct {
	Cursor string
	Offset int
	Limit  int
}

// List returns children of the folder raw names, folders first then files,
// each by name; NextOffset is nil on the last page.
func (t *Tree) List(ctx context.Context, c kb.Caller, raw string, offset, limit int) (Listing, error) {
	return t.ListPage(ctx, c, raw, PageRequest{Offset: offset, Limit: limit})
}

// ListPage is List by cursor or offset.
func (t *Tree) ListPage(ctx context.Context, c kb.Caller, raw string, pr PageRequest) (Listing, error) {
	if pr.Offset < 0 {
		return Listing{}, apierr.BadRequest(apierr.CodeInvalidOffset, "offset must be 0 or more")
	}
	if pr.Limit == 0 {
		pr.Limit = DefaultListLimit
	}
	if pr.Limit < 1 || pr.Limit > MaxListLimit {
		return Listing{}, apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d", MaxListLimit).WithDetail("max", MaxListLimit)
	}
	if pr.Cursor != "" && pr.Offset != 0 {
		return Listing{}, InvalidCursor("and offset cannot be used together")
	}
	if kb.IsSharedURI(raw) && c.Scoped() {
		return Listing{}, NotFound(kb.SharedURI)
	}
	if kb.IsSharedURI(raw) {
		return t.ListShared(ctx, c, pr)
	}
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return Listing{}, err
	}
	if !tg.Node.IsDir() {
		return Listing{}, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", tg.URI).WithDetail("uri", tg.URI.String())
	}
	if c.Scoped() && tg.Node.Path == "" {
		return t.listScopedRoot(ctx, c, tg)
	}
	return t.ListTarget(ctx, c, tg, pr)
}

// listScopedRoot answers a scoped caller's root as if the scope folder were
// its only child, however deep the folder really is.
func (t *Tree) listScopedRoot(ctx context.Context, c kb.Caller, root Target) (Listing, error) {
	n, err := t.st.NodeByID(ctx, c.ID, c.ScopeID)
	if errors.Is(err, store.ErrNotFound) {
		return Listing{}, ErrScopeDeleted
	}
	if err != nil {
		return Listing{}, apierr.Internal("list scoped root", err)
	}
	return Listing{URI: root.URI.String(), Access: access.Read.String(), Items: []Item{ItemOf(c.Username, n)}}, nil
}

// ErrScopeDeleted refuses a scoped token whose folder no longer exists.
var ErrScopeDeleted = apierr.Unauthorized(apierr.CodeTokenScopeDeleted, "the folder this API token was scoped to has been deleted; the token no longer works, create a new one")

// children reads one page of folder's rows plus one to tell whether more
// follow: by keyset after the cursor, or by offset.
func (t *Tree) children(ctx context.Context, folder int64, pr PageRequest) ([]store.Node, error) {
	if pr.Cursor == "" {
		return t.st.Children(ctx, folder, pr.Offset, pr.Limit+1)
	}
	cur, err := decodeListCursor(pr.Cursor, folder)
	if err != nil {
		return nil, err
	}
	return t.st.ChildrenAfter(ctx, folder, cur.key(), pr.Limit+1)
}

// ListTarget reads one page of a resolved folder with each file's job and
// summary badges; the API and the ls tool share it.
func (t *Tree) ListTarget(ctx context.Context, c kb.Caller, tg Target, pr PageRequest) (Listing, error) {
	children, err := t.children(ctx, tg.Node.ID, pr)
	if _, ok := apierr.As(err); ok {
		return Listing{}, err
	}
	if err != nil {
		return Listing{}, apierr.Internal("list folder", err)
	}
	limit := pr.Limit
	out := Listing{URI: tg.URI.String(), Access: tg.Dec.Role.String(), Items: make([]Item, 0, min(len(children), limit))}
	if len(children) > limit {
		children = children[:limit]
		out.NextCursor = cursorAfter(tg.Node.ID, children[limit-1])
		if pr.Cursor == "" {
			next := pr.Offset + limit
			out.NextOffset = &next
		}
	}
	for _, ch := range children {
		out.Items = append(out.Items, ItemOf(tg.Owner.Username, ch))
	}
	for _, badge := range badges {
		if err := badge(ctx, t, c, tg, children, out.Items); err != nil {
			return Listing{}, apierr.Internal("list folder: badges", err)
		}
	}
	return out, nil
}
