package knowledge

import (
	"context"
	"errors"
	"path"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// ScopeHolds tells which of the nodes lie in the caller's scope: the scope
// folder or below it, found from the scope's node id and each node's
// parents, never from paths — a rename frees a path for another folder,
// and a token scoped to that one must not inherit what the first one held.
// Every node is in an unscoped caller's scope.
func (t *Tree) ScopeHolds(ctx context.Context, c kb.Caller, ids []int64) (map[int64]bool, error) {
	return scopeHolds(ctx, t.st, c, ids)
}

func scopeHolds(ctx context.Context, st *store.Store, c kb.Caller, ids []int64) (map[int64]bool, error) {
	if c.Scoped() {
		return st.NodesWithin(ctx, c.ID, c.ScopeID, ids)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

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
	holds, err := scopeHolds(ctx, st, c, parents)
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
	if c.ReadOnly {
		return trashReadOnly()
	}
	return nil
}

func trashReadOnly() error {
	return apierr.Forbidden(apierr.CodeReadOnly, "this API token is read-only: it cannot change the trash")
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
func (t *Tree) purgeScopedTrash(ctx context.Context, c kb.Caller, id int64) (int, error) {
	its, err := t.st.ListTrash(ctx, c.ID)
	if err != nil {
		return 0, apierr.Internal("purge scoped trash: list trash", err)
	}
	if its, err = visibleTrash(ctx, t.st, c, its); err != nil {
		return 0, apierr.Internal("purge scoped trash: visible trash", err)
	}
	n := 0
	for _, it := range its {
		if id != 0 && it.ID != id {
			continue
		}
		if c.ReadOnly {
			return n, trashReadOnly()
		}
		hashes, k, err := t.st.PurgeTrash(ctx, c.ID, it.ID, time.Time{})
		if err != nil {
			return n, apierr.Internal("purge scoped trash", err)
		}
		t.freeBlobs(ctx, hashes)
		n += k
	}
	if id != 0 && n == 0 {
		return 0, trashNotFound(id)
	}
	return n, nil
}
