package trash

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// TrashEntry is the JSON shape of a trash item.
type TrashEntry struct {
	ID        int64     `json:"id"`
	URI       string    `json:"uri"` // where it was
	Name      string    `json:"name"`
	Kind      string    `json:"kind"`
	Size      int64     `json:"size"`
	DeletedAt time.Time `json:"deleted_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// DeletedBy names who deleted it: the owner, or a write grantee.
	DeletedBy string `json:"deleted_by"`
}

// entryOf spells an item; at is where a restore puts it back.
func (t *Service) entryOf(c kb.Caller, it store.TrashItem, at string) TrashEntry {
	return TrashEntry{ID: it.ID, URI: kb.NodeURI(c.Username, at, it.Kind == store.KindDir), Name: it.Name,
		Kind: it.Kind, Size: it.Size, DeletedAt: it.DeletedAt, ExpiresAt: it.DeletedAt.Add(t.TrashTTL())}
}

// ListTrash returns the caller's trash, newest first.
func (t *Service) ListTrash(ctx context.Context, c kb.Caller) ([]TrashEntry, error) {
	its, err := t.Store().ListTrash(ctx, c.ID)
	if err != nil {
		return nil, apierr.Internal("list trash", err)
	}
	names, err := store.NamesBy(ctx, t.Store(), its, func(it store.TrashItem) *int64 { return it.DeletedBy })
	if err != nil {
		return nil, apierr.Internal("list trash: read deleter names", err)
	}
	its, err = visibleTrash(ctx, t.Store(), c, its)
	if err != nil {
		return nil, apierr.Internal("list trash: visible items", err)
	}
	at, err := restorePaths(ctx, t.Store(), its)
	if err != nil {
		return nil, apierr.Internal("list trash: restore paths", err)
	}
	out := make([]TrashEntry, 0, len(its))
	for _, it := range its {
		e := t.entryOf(c, it, at[it.ID])
		e.DeletedBy = knowledge.NameOr(names, it.DeletedBy, c.Username)
		out = append(out, e)
	}
	return out, nil
}

func trashNotFound(id int64) error {
	return apierr.NotFound(apierr.CodeNotFound, "no such trash item: %d", id)
}

// RestoreTrash puts an item back into the folder it was deleted from,
// wherever that folder is now, or at its old path (recreating missing
// folders) when that folder is gone too; when the name is taken it
// becomes "name (restored)".
func (t *Service) RestoreTrash(ctx context.Context, c kb.Caller, id int64) (knowledge.Item, error) {
	var restored store.Node
	err := t.Mutate(ctx, c, func(tx *store.Store) error {
		it, err := tx.TrashByID(ctx, c.ID, id)
		if errors.Is(err, store.ErrNotFound) {
			return trashNotFound(id)
		}
		if err != nil {
			return err
		}
		if err := scopedTrashWrite(ctx, tx, c, it); err != nil {
			return err
		}
		var payload []knowledge.TrashedNode
		if err := json.Unmarshal([]byte(it.PayloadJSON), &payload); err != nil {
			return fmt.Errorf("trash item %d: %w", id, err)
		}
		parent, err := restoreParent(ctx, tx, c, it)
		if err != nil {
			return err
		}
		name, err := knowledge.FreeName(ctx, tx, c, parent, it.Name, it.Kind == store.KindDir, "restored")
		if err != nil {
			return err
		}
		rootPath := parent.ChildPath(name)
		made := map[string]store.Node{} // by payload path
		for _, p := range payload {
			n := store.Node{UserID: c.ID, Kind: p.Kind, Generated: p.Generated, Size: p.Size, CreatedAt: p.CreatedAt}
			if p.Path == "" {
				n.ParentID, n.Name, n.Path = &parent.ID, name, rootPath
			} else {
				dir := path.Dir("/" + p.Path)[1:]
				up, ok := made[dir]
				if !ok {
					return fmt.Errorf("trash item %d: %s has no parent", id, p.Path)
				}
				n.ParentID, n.Name, n.Path = &up.ID, path.Base(p.Path), rootPath+"/"+p.Path
			}
			if err := tx.CreateNode(ctx, &n); err != nil {
				return err
			}
			made[p.Path] = n
			if err := restoreVersions(ctx, tx, n.ID, p.Versions); err != nil {
				return err
			}
			if p.Kept != nil {
				// Due after its quiet period, like a folder newly kept
				// compiled: what changed while it was away compiles.
				a := store.AutoCompile{UserID: c.ID, NodeID: n.ID, RequestJSON: p.Kept.RequestJSON, QuietS: p.Kept.QuietS}
				if err := tx.PutAutoCompile(ctx, &a); err != nil {
					return err
				}
			}
			if _, err := t.MarkForIndex(ctx, tx, n.ID); err != nil {
				return err
			}
		}
		restored = made[""]
		if err := knowledge.MarkChanged(ctx, tx, c, restored); err != nil {
			return err
		}
		// The versions now reference the bytes the item held, in the same
		// transaction, so the collection never sees them unreferenced.
		_, _, err = tx.PurgeTrash(ctx, c.ID, id, time.Time{})
		return err
	})
	if err != nil {
		return knowledge.Item{}, knowledge.WrapStoreErr("restore trash", err)
	}
	return knowledge.ItemOf(c.Username, restored), nil
}

// restoreVersions inserts a node's versions with their numbers, raw bodies
// first so an L2 body's source can point at its new id.
func restoreVersions(ctx context.Context, tx *store.Store, nodeID int64, vs []store.FileVersion) error {
	ids := map[int64]int64{}
	for _, pass := range []string{store.BodyRaw, store.BodyL2} {
		for _, v := range vs {
			if v.Body != pass {
				continue
			}
			old := v.ID
			v.ID, v.NodeID = 0, nodeID
			if v.SourceVersionID != nil {
				if id, ok := ids[*v.SourceVersionID]; ok {
					v.SourceVersionID = &id
				} else {
					v.SourceVersionID = nil
				}
			}
			if err := tx.ReinsertVersion(ctx, &v); err != nil {
				return err
			}
			ids[old] = v.ID
		}
	}
	return nil
}

// PurgeTrash deletes one item (id > 0) or the whole trash of the caller for
// good and frees the bytes nothing else references.
func (t *Service) PurgeTrash(ctx context.Context, c kb.Caller, id int64) (int, error) {
	if c.Scoped() {
		return t.purgeScopedTrash(ctx, c, id)
	}
	hashes, n, err := t.Store().PurgeTrash(ctx, c.ID, id, time.Time{})
	if err != nil {
		return 0, apierr.Internal("purge trash", err)
	}
	if id != 0 && n == 0 {
		return 0, trashNotFound(id)
	}
	t.FreeBlobsBestEffort(ctx, hashes)
	return n, nil
}

// ExpireTrash purges every user's items deleted longer ago than the trash
// keeps them.
func (t *Service) ExpireTrash(ctx context.Context) (int, error) {
	hashes, n, err := t.Store().PurgeTrash(ctx, 0, 0, time.Now().UTC().Add(-t.TrashTTL()))
	if err != nil {
		return 0, err
	}
	t.FreeBlobsBestEffort(ctx, hashes)
	return n, nil
}

// ensureUserFolder returns the caller's folder at p, creating missing ones.
func ensureUserFolder(ctx context.Context, tx *store.Store, c kb.Caller, p string) (store.Node, error) {
	dir, err := tx.EnsureRoot(ctx, c.ID)
	if err != nil || p == "" {
		return dir, err
	}
	for _, name := range strings.Split(p, "/") {
		cp := dir.ChildPath(name)
		n, err := tx.NodeByPath(ctx, c.ID, cp)
		switch {
		case errors.Is(err, store.ErrNotFound):
			n = store.Node{UserID: c.ID, ParentID: &dir.ID, Name: name, Path: cp, Kind: store.KindDir}
			if err := tx.CreateNode(ctx, &n); err != nil {
				return store.Node{}, err
			}
		case err != nil:
			return store.Node{}, err
		case !n.IsDir():
			return store.Node{}, apierr.Conflict(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(c.Username, cp, false)).WithDetail("uri", kb.NodeURI(c.Username, cp, false))
		}
		dir = n
	}
	return dir, nil
}
