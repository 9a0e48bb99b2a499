package trash

import (
	"context"
	"errors"
	"path"
	"time"

	"github.com/knowspace/knowspace/internal/access"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// visibleTrash keeps the items a scoped caller may see: those deleted from
// a folder that is in its scope now. An item whose folder is gone, or one
// trashed before folders were recorded, is no scoped token's.
func visibleTrash(ctx context.Context, st *store.Store, c kb.Caller, its []store.TrashItem) ([]store.TrashItem, error) {
	if !c.Scoped() {
		return its, nil
	}
	var parents []int64
	for _, it := range its {
		if it.ParentID != nil {
			parents = append(parents, *it.ParentID)
		}
	}
	holds, err := knowledge.ScopeHoldsIn(ctx, st, c, parents)
	if err != nil {
		return nil, err
	}
	out := its[:0:0]
	for _, it := range its {
		if it.ParentID != nil && holds[*it.ParentID] {
			out = append(out, it)
		}
	}
	return out, nil
}

// scopedTrashWrite refuses a scoped caller an item outside its scope (as
// not found) and, for a read-only token, any change of the trash.
func scopedTrashWrite(ctx context.Context, st *store.Store, c kb.Caller, it store.TrashItem) error {
	if !c.Scoped() {
		return nil
	}
	vis, err := visibleTrash(ctx, st, c, []store.TrashItem{it})
	if err != nil {
		return err
	}
	if len(vis) == 0 {
		return trashNotFound(it.ID)
	}
	return access.Allow(c, access.FolderWrite, "it cannot change the trash")
}

// restoreParent is the folder an item goes back into: the one it was
// deleted from, wherever it is now, else its old path with missing folders
// recreated. A scoped caller only restores items whose folder is in its
// scope, so it never takes the second way.
func restoreParent(ctx context.Context, tx *store.Store, c kb.Caller, it store.TrashItem) (store.Node, error) {
	if it.ParentID != nil {
		n, err := tx.NodeByID(ctx, c.ID, *it.ParentID)
		if err == nil && n.IsDir() {
			return n, nil
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return store.Node{}, err
		}
	}
	if c.Scoped() {
		return store.Node{}, trashNotFound(it.ID)
	}
	return ensureUserFolder(ctx, tx, c, path.Dir("/" + it.Path)[1:])
}

// restorePaths is where restoreParent would put each item back, by item
// id, read with one query for the folders.
func restorePaths(ctx context.Context, st *store.Store, its []store.TrashItem) (map[int64]string, error) {
	var parents []int64
	for _, it := range its {
		if it.ParentID != nil {
			parents = append(parents, *it.ParentID)
		}
	}
	ns, err := st.NodesByIDs(ctx, parents)
	if err != nil {
		return nil, err
	}
	dirs := make(map[int64]store.Node, len(ns))
	for _, n := range ns {
		if n.IsDir() {
			dirs[n.ID] = n
		}
	}
	out := make(map[int64]string, len(its))
	for _, it := range its {
		out[it.ID] = it.Path
		if it.ParentID == nil {
			continue
		}
		if d, ok := dirs[*it.ParentID]; ok {
			out[it.ID] = d.ChildPath(it.Name)
		}
	}
	return out, nil
}

// purgeScopedTrash purges the items of a scoped caller's trash that lie
// inside its scope: one by id, or all of them for id 0.
func (t *Service) purgeScopedTrash(ctx context.Context, c kb.Caller, id int64) (int, error) {
	its, err := t.Store().ListTrash(ctx, c.ID)
	if err != nil {
		return 0, apierr.Internal("purge scoped trash: list", err)
	}
	if its, err = visibleTrash(ctx, t.Store(), c, its); err != nil {
		return 0, apierr.Internal("purge scoped trash: visible items", err)
	}
	n := 0
	for _, it := range its {
		if id != 0 && it.ID != id {
			continue
		}
		if err := access.Allow(c, access.FolderWrite, "it cannot change the trash"); err != nil {
			return n, err
		}
		hashes, k, err := t.Store().PurgeTrash(ctx, c.ID, it.ID, time.Time{})
		if err != nil {
			return n, apierr.Internal("purge scoped trash", err)
		}
		t.FreeBlobsBestEffort(ctx, hashes)
		n += k
	}
	if id != 0 && n == 0 {
		return 0, trashNotFound(id)
	}
	return n, nil
}
