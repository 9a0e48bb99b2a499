package knowledge

import (
	"context"
	"errors"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Mkdir creates the folder raw names and any missing parents; the folder
// itself must not exist yet.
func (t *Tree) Mkdir(ctx context.Context, c kb.Caller, raw string) (Item, error) {
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return Item{}, err
	}
	own, _, err := t.decideWrite(ctx, c, u)
	if err != nil {
		return Item{}, err
	}
	if u.Path == "" {
		return Item{}, apierr.Conflict(apierr.CodeAlreadyExists, "the root folder always exists")
	}
	var created store.Node
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		parent, err := tx.EnsureRoot(ctx, own.ID)
		if err != nil {
			return err
		}
		segs := strings.Split(u.Path, "/")
		for i, name := range segs {
			path := parent.ChildPath(name)
			n, err := tx.NodeByPath(ctx, own.ID, path)
			switch {
			case err == nil && i == len(segs)-1:
				return apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists", kb.NodeURI(own.Username, path, n.IsDir())).WithDetail("uri", kb.NodeURI(own.Username, path, n.IsDir()))
			case err == nil && !n.IsDir():
				return apierr.Conflict(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(own.Username, path, false)).WithDetail("uri", kb.NodeURI(own.Username, path, false))
			case errors.Is(err, store.ErrNotFound):
				n = store.Node{UserID: own.ID, ParentID: &parent.ID, Name: name, Path: path, Kind: store.KindDir}
				if err := tx.CreateNode(ctx, &n); err != nil {
					return err
				}
			case err != nil:
				return err
			}
			parent = n
		}
		created = parent
		return nil
	})
	if err != nil {
		return Item{}, WrapStoreErr("mkdir", err)
	}
	return ItemOf(own.Username, created), nil
}

// Move renames or moves a node (with its subtree) to newRaw, which must not
// exist and whose parent folder must.
func (t *Tree) Move(ctx context.Context, c kb.Caller, raw, newRaw string) (Item, error) {
	it, _, err := t.move(ctx, c, raw, newRaw, false)
	return it, err
}

// MoveReplacing is Move onto a node that may exist: that node goes to the
// trash in the same transaction as the move (WebDAV's Overwrite: T), and
// replaced tells whether there was one.
func (t *Tree) MoveReplacing(ctx context.Context, c kb.Caller, raw, newRaw string) (it Item, replaced bool, err error) {
	return t.move(ctx, c, raw, newRaw, true)
}

func (t *Tree) move(ctx context.Context, c kb.Caller, raw, newRaw string, replace bool) (Item, bool, error) {
	src, err := t.Lookup(ctx, c, raw, access.Write)
	if err != nil {
		return Item{}, false, err
	}
	from, n, own := src.URI, src.Node, src.Owner
	if n.Path == "" {
		return Item{}, false, apierr.BadRequest(apierr.CodeInvalidMove, "the root folder cannot be moved")
	}
	if err := GuardShareRoot(src, "move or rename"); err != nil {
		return Item{}, false, err
	}
	to, err := kb.ParseURI(newRaw, c.Username)
	if err != nil {
		return Item{}, false, err
	}
	if to.Username != own.Username {
		// A tree the caller cannot see answers as missing, as everywhere.
		if _, _, err := t.decide(ctx, c, to); err != nil {
			return Item{}, false, err
		}
		return Item{}, false, outsideTree(src, to)
	}
	if !access.Within(to.Path, src.Dec.WriteRoot) {
		return Item{}, false, outsideTree(src, to)
	}
	if to.Path == "" {
		return Item{}, false, apierr.Conflict(apierr.CodeAlreadyExists, "the root folder already exists")
	}
	var moved store.Node
	var replaced bool
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		// Re-read under the tree lock: another move may have changed the
		// path of n since Resolve, and the subtree follows the fresh one.
		n, err := Fresh(ctx, tx, own, from, n)
		if err != nil {
			return err
		}
		if err := GuardGenerated(own, n); err != nil {
			return err
		}
		if to.Dir && !n.IsDir() {
			return apierr.BadRequest(apierr.CodeInvalidMove, "new_uri ends with / but %s is a file", from)
		}
		if n.IsDir() && (to.Path == n.Path || strings.HasPrefix(to.Path, n.Path+"/")) {
			return apierr.BadRequest(apierr.CodeInvalidMove, "a folder cannot be moved into itself")
		}
		parentURI := to.Parent()
		var parent store.Node
		if parentURI.Path == "" {
			parent, err = tx.EnsureRoot(ctx, own.ID)
		} else {
			parent, err = tx.NodeByPath(ctx, own.ID, parentURI.Path)
		}
		if errors.Is(err, store.ErrNotFound) {
			return NotFound(parentURI.String())
		}
		if err != nil {
			return err
		}
		if !parent.IsDir() {
			return apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(own.Username, parent.Path, false)).WithDetail("uri", kb.NodeURI(own.Username, parent.Path, false))
		}
		replaced = false
		if old, err := tx.NodeByPath(ctx, own.ID, to.Path); err == nil {
			if !replace {
				return apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists", to).WithDetail("uri", to.String())
			}
			if err := t.replaceable(src, old, n); err != nil {
				return err
			}
			if err := TrashNode(ctx, tx, c, own, old); err != nil {
				return err
			}
			replaced = true
		}
		if moved, err = tx.MoveNode(ctx, n, parent, to.Name()); err != nil {
			return err
		}
		if !n.IsDir() && moved.Name != n.Name {
			if err := remarkRenamed(ctx, tx, n.ID); err != nil {
				return err
			}
		}
		// Both folders changed: one lost the node, the other gained it.
		return MarkChanged(ctx, tx, own, n, moved)
	})
	if err != nil {
		return Item{}, false, WrapStoreErr("move", err)
	}
	return ItemOf(own.Username, moved), replaced, nil
}

// outsideTree refuses a move that would leave the tree it is in, or for a
// grantee the folder shared with them: a node never changes owner by a
// rename, and a grantee cannot carry the owner's files away.
func outsideTree(src Target, to kb.URI) error {
	if src.Dec.Role == access.Owner {
		return apierr.BadRequest(apierr.CodeInvalidMove, "%s is in %s's tree; a move stays within one tree (upload a copy instead)", src.URI, src.Owner.Username)
	}
	shared := kb.URI{Username: src.Owner.Username, Path: src.Dec.WriteRoot, Dir: true}
	return apierr.Forbidden(apierr.CodeOutsideShare, "%s may only move within %s, the folder shared with you; %s is outside it", src.URI, shared, to)
}
