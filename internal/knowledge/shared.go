package knowledge

import (
	"context"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// SharedRoots reads, at this moment, what others share with the caller:
// one entry per shared root, by owner then path.
func (t *Tree) SharedRoots(ctx context.Context, c kb.Caller) ([]store.SharedRoot, error) {
	roots, err := t.st.SharedWith(ctx, c.ID)
	if err != nil {
		return nil, apierr.Internal("list shared roots", err)
	}
	return roots, nil
}

// ListShared is the listing of kb://shared/. Nothing can be created in it,
// so its access is read whatever the entries' roles.
// Its cursor holds an offset: the list is small and read whole each time.
func (t *Tree) ListShared(ctx context.Context, c kb.Caller, pr PageRequest) (Listing, error) {
	offset, limit := pr.Offset, pr.Limit
	if pr.Cursor != "" {
		cur, err := decodeListCursor(pr.Cursor, 0)
		if err != nil {
			return Listing{}, err
		}
		offset = cur.Offset
	}
	roots, err := t.SharedRoots(ctx, c)
	if err != nil {
		return Listing{}, err
	}
	out := Listing{URI: kb.SharedURI, Access: access.Read.String(), Items: []Item{}}
	if offset < len(roots) {
		roots = roots[offset:]
	} else {
		roots = nil
	}
	if len(roots) > limit {
		roots = roots[:limit]
		next := offset + limit
		out.NextCursor = listCursor{Offset: next}.encode()
		if pr.Cursor == "" {
			out.NextOffset = &next
		}
	}
	dirs := make([]layerDir, 0, len(roots))
	for _, r := range roots {
		if r.IsDir() {
			dirs = append(dirs, layerDir{owner: kb.Caller{ID: r.UserID, Username: r.Owner}, path: r.Path})
		}
	}
	layers, err := t.folderLayers(ctx, c, dirs)
	if err != nil {
		return Listing{}, apierr.Internal("list shared: folder layers", err)
	}
	d := 0 // index of the next folder in dirs
	for _, r := range roots {
		it := ItemOf(r.Owner, r.Node)
		if r.IsDir() {
			it.Abstract, it.OverviewURI = layers[d].abstract, layers[d].overviewURI
			d++
		}
		if r.Path == "" {
			it.Name = r.Owner
		}
		it.Owner, it.Role = r.Owner, r.Role
		out.Items = append(out.Items, it)
	}
	return out, nil
}
