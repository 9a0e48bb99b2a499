package knowledge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// trashedNode is one node of a trash item's payload: enough to put it back
// with its whole history. Path is relative to the item ("" for its root).
type trashedNode struct {
	Path      string              `json:"path"`
	Kind      string              `json:"kind"`
	Generated bool                `json:"generated"`
	Size      int64               `json:"size"`
	CreatedAt time.Time           `json:"created_at"`
	Versions  []store.FileVersion `json:"versions"`
	// Kept is the folder's auto-compile setting, so a restored folder is
	// kept compiled again with the same choices.
	Kept *keptCompiled `json:"kept_compiled,omitempty"`
}

type keptCompiled struct {
	RequestJSON string `json:"request"`
	QuietS      int    `json:"quiet_s"`
}

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
func (t *Tree) entryOf(c kb.Caller, it store.TrashItem, at string) TrashEntry {
	return TrashEntry{ID: it.ID, URI: kb.NodeURI(c.Username, at, it.Kind == store.KindDir), Name: it.Name,
		Kind: it.Kind, Size: it.Size, DeletedAt: it.DeletedAt, ExpiresAt: it.DeletedAt.Add(t.trashTTL)}
}

// Delete moves a node and its subtree to the owner's trash in one
// transaction: from then on the tree, listings and every tool no longer see
// it, and its compile jobs are cancelled. Its bytes stay until the item is
// purged or expires.
func (t *Tree) Delete(ctx context.Context, c kb.Caller, raw string) error {
	tg, err := t.resolve(ctx, c, raw, access.Write)
	if err != nil {
		return err
	}
	u, n, own := tg.uri, tg.node, tg.owner
	if n.Path == "" {
		return apierr.BadRequest(apierr.CodeInvalidDelete, "the root folder cannot be deleted")
	}
	if err := guardShareRoot(tg, "delete"); err != nil {
		return err
	}
	err = t.mutate(ctx, own, func(tx *store.Store) error {
		n, err := fresh(ctx, tx, own, u, n)
		if err != nil {
			return err
		}
		return trashNode(ctx, tx, c, own, n)
	})
	if err != nil {
		return wrapStoreErr("delete", err)
	}
	return nil
}

// trashNode moves n and its subtree to own's trash inside tx, which holds
// the tree lock; a copy or move over an existing node uses it to replace
// the node in the same transaction.
func trashNode(ctx context.Context, tx *store.Store, c, own kb.Caller, n store.Node) error {
	nodes, err := tx.Subtree(ctx, n)
	if err != nil {
		return err
	}
	ids := make([]int64, len(nodes))
	for i, x := range nodes {
		ids[i] = x.ID
	}
	vs, err := tx.VersionsOf(ctx, ids)
	if err != nil {
		return err
	}
	kept, err := tx.AutoCompilesOf(ctx, own.ID, ids)
	if err != nil {
		return err
	}
	byNode := map[int64][]store.FileVersion{}
	seen := map[string]bool{}
	var hashes []string
	for _, v := range vs {
		byNode[v.NodeID] = append(byNode[v.NodeID], v)
		if !seen[v.BlobHash] {
			seen[v.BlobHash] = true
			hashes = append(hashes, v.BlobHash)
		}
	}
	payload := make([]trashedNode, len(nodes))
	var size int64
	for i, x := range nodes {
		payload[i] = trashedNode{Path: strings.TrimPrefix(strings.TrimPrefix(x.Path, n.Path), "/"),
			Kind: x.Kind, Generated: x.Generated, Size: x.Size, CreatedAt: x.CreatedAt, Versions: byNode[x.ID]}
		if a, ok := kept[x.ID]; ok {
			payload[i].Kept = &keptCompiled{RequestJSON: a.RequestJSON, QuietS: a.QuietS}
		}
		size += x.Size
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	it := store.TrashItem{UserID: own.ID, Path: n.Path, ParentID: n.ParentID, Name: n.Name, Kind: n.Kind, Size: size,
		PayloadJSON: string(raw), DeletedBy: author(c, own), DeletedAt: time.Now().UTC()}
	if err := tx.AddTrash(ctx, &it, hashes); err != nil {
		return err
	}
	if err := tx.CancelJobsOf(ctx, ids); err != nil {
		return err
	}
	if err := markChanged(ctx, tx, own, n); err != nil {
		return err
	}
	return tx.DeleteNode(ctx, n)
}

// ListTrash returns the caller's trash, newest first.
func (t *Tree) ListTrash(ctx context.Context, c kb.Caller) ([]TrashEntry, error) {
	its, err := t.st.ListTrash(ctx, c.ID)
	if err != nil {
		return nil, apierr.Internal("list trash", err)
	}
	names, err := store.NamesBy(ctx, t.st, its, func(it store.TrashItem) *int64 { return it.DeletedBy })
	if err != nil {
		return nil, apierr.Internal("list trash: read deleter names", err)
	}
	its, err = visibleTrash(ctx, t.st, c, its)
	if err != nil {
		return nil, apierr.Internal("list trash: visible items", err)
	}
	at, err := restorePaths(ctx, t.st, its)
	if err != nil {
		return nil, apierr.Internal("list trash: restore paths", err)
	}
	out := make([]TrashEntry, 0, len(its))
	for _, it := range its {
		e := t.entryOf(c, it, at[it.ID])
		e.DeletedBy = nameOr(names, it.DeletedBy, c.Username)
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
func (t *Tree) RestoreTrash(ctx context.Context, c kb.Caller, id int64) (Item, error) {
	var restored store.Node
	err := t.mutate(ctx, c, func(tx *store.Store) error {
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
		var payload []trashedNode
		if err := json.Unmarshal([]byte(it.PayloadJSON), &payload); err != nil {
			return fmt.Errorf("trash item %d: %w", id, err)
		}
		parent, err := restoreParent(ctx, tx, c, it)
		if err != nil {
			return err
		}
		name, err := freeName(ctx, tx, c, parent, it.Name, it.Kind == store.KindDir, "restored")
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
		if err := markChanged(ctx, tx, c, restored); err != nil {
			return err
		}
		// The versions now reference the bytes the item held, in the same
		// transaction, so the collection never sees them unreferenced.
		_, _, err = tx.PurgeTrash(ctx, c.ID, id, time.Time{})
		return err
	})
	if err != nil {
		return Item{}, wrapStoreErr("restore from trash", err)
	}
	return itemOf(c.Username, restored), nil
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
			if err := tx.InsertVersion(ctx, &v); err != nil {
				return err
			}
			ids[old] = v.ID
		}
	}
	return nil
}

// PurgeTrash deletes one item (id > 0) or the whole trash of the caller for
// good and frees the bytes nothing else references.
func (t *Tree) PurgeTrash(ctx context.Context, c kb.Caller, id int64) (int, error) {
	if c.Scoped() {
		return t.purgeScopedTrash(ctx, c, id)
	}
	hashes, n, err := t.st.PurgeTrash(ctx, c.ID, id, time.Time{})
	if err != nil {
		return 0, apierr.Internal("purge trash", err)
	}
	if id != 0 && n == 0 {
		return 0, trashNotFound(id)
	}
	t.freeBlobs(ctx, hashes)
	return n, nil
}

// ExpireTrash purges every user's items deleted longer ago than the trash
// keeps them.
func (t *Tree) ExpireTrash(ctx context.Context) (int, error) {
	hashes, n, err := t.st.PurgeTrash(ctx, 0, 0, time.Now().UTC().Add(-t.trashTTL))
	if err != nil {
		return 0, err
	}
	t.freeBlobs(ctx, hashes)
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
			return store.Node{}, apierr.Conflict(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(c.Username, cp, false))
		}
		dir = n
	}
	return dir, nil
}

// freeName picks a free name below dir. With a tag (restoring) the name
// itself comes first, then "base (tag).ext", "base (tag 2).ext"…; without
// one (an upload that keeps both) "base (2).ext", "base (3).ext"…
func freeName(ctx context.Context, tx *store.Store, c kb.Caller, dir store.Node, name string, isDir bool, tag string) (string, error) {
	free := func(cand string) (bool, error) {
		_, err := tx.NodeByPath(ctx, c.ID, dir.ChildPath(cand))
		if errors.Is(err, store.ErrNotFound) {
			return true, nil
		}
		return false, err
	}
	if tag != "" {
		if ok, err := free(name); ok || err != nil {
			return name, err
		}
	}
	base, ext := name, ""
	if e := path.Ext(name); !isDir && e != "" && e != name {
		base, ext = strings.TrimSuffix(name, e), e
	}
	for k := 1; k < 1000; k++ {
		var cand string
		switch {
		case tag == "":
			cand = fmt.Sprintf("%s (%d)%s", base, k+1, ext)
		case k == 1:
			cand = fmt.Sprintf("%s (%s)%s", base, tag, ext)
		default:
			cand = fmt.Sprintf("%s (%s %d)%s", base, tag, k, ext)
		}
		if ok, err := free(cand); ok || err != nil {
			return cand, err
		}
	}
	return "", apierr.Conflict(apierr.CodeAlreadyExists, "no free name for %s", name)
}
