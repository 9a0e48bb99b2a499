package knowledge

import (
	"context"
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

// Copy copies the node raw names, with its whole subtree, to newRaw in one
// transaction: the copy appears complete or not at all. Each copied file
// starts a new history from the source's current bodies (the bytes are
// shared by content, not duplicated). With replace, a node already at
// newRaw goes to the trash in the same transaction; replaced tells whether
// there was one. A copy stays within the tree it is in, as a move does.
func (t *Tree) Copy(ctx context.Context, c kb.Caller, raw, newRaw string, replace bool) (it Item, replaced bool, err error) {
	return t.copy(ctx, c, raw, newRaw, replace, false)
}

// CopyShallow is Copy of the node alone: a folder arrives empty (WebDAV's
// COPY with Depth: 0).
func (t *Tree) CopyShallow(ctx context.Context, c kb.Caller, raw, newRaw string, replace bool) (it Item, replaced bool, err error) {
	return t.copy(ctx, c, raw, newRaw, replace, true)
}

func (t *Tree) copy(ctx context.Context, c kb.Caller, raw, newRaw string, replace, shallow bool) (it Item, replaced bool, err error) {
	src, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return Item{}, false, err
	}
	to, err := kb.ParseURI(newRaw, c.Username)
	if err != nil {
		return Item{}, false, err
	}
	own, dec, err := t.decideWrite(ctx, c, to)
	if err != nil {
		return Item{}, false, err
	}
	if own.ID != src.Owner.ID {
		return Item{}, false, apierr.BadRequest(apierr.CodeInvalidCopy, "%s is in %s's tree; a copy stays within one tree (download and upload instead)", src.URI, src.Owner.Username)
	}
	if to.Path == "" {
		return Item{}, false, apierr.Conflict(apierr.CodeAlreadyExists, "the root folder already exists")
	}
	n := src.Node
	if n.IsDir() && (to.Path == n.Path || strings.HasPrefix(to.Path, n.Path+"/")) {
		return Item{}, false, apierr.BadRequest(apierr.CodeInvalidCopy, "a folder cannot be copied into itself")
	}
	dst := Target{URI: to, Owner: own, Dec: dec, Scoped: c.Scoped()}
	var made store.Node
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		n, err := Fresh(ctx, tx, own, src.URI, n)
		if err != nil {
			return err
		}
		parent, err := t.parentFolder(ctx, tx, own, to)
		if err != nil {
			return err
		}
		replaced = false
		if old, err := tx.NodeByPath(ctx, own.ID, to.Path); err == nil {
			if !replace {
				return apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists", to).WithDetail("uri", to.String())
			}
			if err := t.replaceable(dst, old, n); err != nil {
				return err
			}
			if err := TrashNode(ctx, tx, c, own, old); err != nil {
				return err
			}
			replaced = true
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		if made, err = t.copySubtree(ctx, tx, c, own, n, parent, to.Name(), shallow); err != nil {
			return err
		}
		// A folder kept compiled gains the copied files.
		return MarkChanged(ctx, tx, own, made)
	})
	if err != nil {
		return Item{}, false, WrapStoreErr("copy", err)
	}
	return ItemOf(own.Username, made), replaced, nil
}

// CopyToEdit copies the file raw names into the nearest folder above it
// that compile did not make (its own folder, for an ordinary file), named
// "<name> (copy)<ext>" or the first free name after that: an ordinary
// file with the same bytes and no provenance, which is how a generated
// file is edited.
func (t *Tree) CopyToEdit(ctx context.Context, c kb.Caller, raw string) (Item, error) {
	src, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return Item{}, err
	}
	n := src.Node
	if n.IsDir() {
		return Item{}, apierr.BadRequest(apierr.CodeNotAFile, "%s is a folder; copy to edit copies one file", src.URI).WithDetail("uri", src.URI.String())
	}
	dir, err := t.editableFolder(ctx, src.Owner, n)
	if err != nil {
		return Item{}, WrapStoreErr("copy to edit: find folder", err)
	}
	own, _, err := t.decideWrite(ctx, c, kb.URI{Username: src.Owner.Username, Path: dir.Path, Dir: true})
	if err != nil {
		return Item{}, err
	}
	if own.ID != src.Owner.ID {
		return Item{}, apierr.BadRequest(apierr.CodeInvalidCopy, "%s is in %s's tree; a copy stays within one tree (download and upload instead)", src.URI, src.Owner.Username)
	}
	var made store.Node
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		n, err := Fresh(ctx, tx, own, src.URI, n)
		if err != nil {
			return err
		}
		dir, err := Fresh(ctx, tx, own, kb.URI{Username: own.Username, Path: dir.Path, Dir: true}, dir)
		if err != nil {
			return err
		}
		name, err := copyName(ctx, tx, own, dir, n.Name)
		if err != nil {
			return err
		}
		if made, err = t.copySubtree(ctx, tx, c, own, n, dir, name, true); err != nil {
			return err
		}
		return MarkChanged(ctx, tx, own, made)
	})
	if err != nil {
		return Item{}, WrapStoreErr("copy to edit", err)
	}
	return ItemOf(own.Username, made), nil
}

// copyName is the first free name of "base (copy).ext", "base (copy
// 2).ext"… below dir, base without leading dots.
func copyName(ctx context.Context, tx *store.Store, own kb.Caller, dir store.Node, name string) (string, error) {
	base, ext := name, path.Ext(name)
	if ext != "" && ext != name {
		base = strings.TrimSuffix(name, ext)
	} else {
		ext = ""
	}
	// A folder's .overview.md copied out is the user's now: a leading dot
	// would hide it from file managers that mount the tree.
	if b := strings.TrimLeft(base, "."); b != "" {
		base = b
	}
	for k := 1; k < 1000; k++ {
		cand := base + " (copy)" + ext
		if k > 1 {
			cand = fmt.Sprintf("%s (copy %d)%s", base, k, ext)
		}
		_, err := tx.NodeByPath(ctx, own.ID, dir.ChildPath(cand))
		if errors.Is(err, store.ErrNotFound) {
			return cand, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", apierr.Conflict(apierr.CodeAlreadyExists, "no free name for a copy of %s", name)
}

// editableFolder is the nearest folder above n, in owner's tree, that is
// not compile output.
func (t *Tree) editableFolder(ctx context.Context, owner kb.Caller, n store.Node) (store.Node, error) {
	for p := path.Dir("/" + n.Path)[1:]; ; p = path.Dir("/" + p)[1:] {
		if p == "" {
			return t.st.EnsureRoot(ctx, owner.ID)
		}
		dir, err := t.st.NodeByPath(ctx, owner.ID, p)
		if err != nil {
			return store.Node{}, err
		}
		if !IsGenerated(dir) {
			return dir, nil
		}
	}
}

// parentFolder is the existing folder a new node at to goes in.
func (t *Tree) parentFolder(ctx context.Context, tx *store.Store, own kb.Caller, to kb.URI) (store.Node, error) {
	pu := to.Parent()
	var parent store.Node
	var err error
	if pu.Path == "" {
		parent, err = tx.EnsureRoot(ctx, own.ID)
	} else {
		parent, err = tx.NodeByPath(ctx, own.ID, pu.Path)
	}
	if errors.Is(err, store.ErrNotFound) {
		return store.Node{}, NotFound(pu.String())
	}
	if err != nil {
		return store.Node{}, err
	}
	if !parent.IsDir() {
		return store.Node{}, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", kb.NodeURI(own.Username, parent.Path, false)).WithDetail("uri", kb.NodeURI(own.Username, parent.Path, false))
	}
	return parent, nil
}

// replaceable refuses replacing old when that would take the source with
// it, when old is a folder the caller may not remove (a scope or share
// root), or when compile made it.
func (t *Tree) replaceable(dst Target, old, src store.Node) error {
	if old.ID == src.ID {
		return apierr.BadRequest(apierr.CodeInvalidMove, "source and destination are the same resource")
	}
	if old.IsDir() && strings.HasPrefix(src.Path, old.Path+"/") {
		return apierr.Conflict(apierr.CodeHoldsSource, "%s holds the source; it cannot be replaced by it", kb.NodeURI(dst.Owner.Username, old.Path, true))
	}
	if err := GuardGenerated(dst.Owner, old); err != nil {
		return err
	}
	return GuardShareRoot(Target{URI: kb.URI{Username: dst.Owner.Username, Path: old.Path, Dir: old.IsDir()},
		Node: old, Owner: dst.Owner, Dec: dst.Dec, Scoped: dst.Scoped}, "replace")
}

// copySubtree creates the copy of n named name below parent, parents
// before children (n alone when shallow), with each file's current bodies.
func (t *Tree) copySubtree(ctx context.Context, tx *store.Store, c, own kb.Caller, n, parent store.Node, name string, shallow bool) (store.Node, error) {
	nodes := []store.Node{n}
	if !shallow {
		var err error
		if nodes, err = tx.Subtree(ctx, n); err != nil { // by path: every folder before its children
			return store.Node{}, err
		}
	}
	var files []int64
	for _, x := range nodes {
		if !x.IsDir() {
			files = append(files, x.ID)
		}
	}
	bodies, err := tx.LatestBodies(ctx, files)
	if err != nil {
		return store.Node{}, err
	}
	var hashes []string
	for _, bs := range bodies {
		for _, v := range bs {
			hashes = append(hashes, v.BlobHash)
		}
	}
	// New rows name the bytes: lock them against a concurrent collection.
	if err := tx.LockBlobs(ctx, hashes); err != nil {
		return store.Node{}, err
	}
	root := parent.ChildPath(name)
	made := map[string]store.Node{} // by source path
	var created []int64
	for _, x := range nodes {
		cp := store.Node{UserID: own.ID, Kind: x.Kind, Size: x.Size}
		if x.ID == n.ID {
			cp.ParentID, cp.Name, cp.Path = &parent.ID, name, root
		} else {
			up, ok := made[path.Dir(x.Path)]
			if !ok {
				return store.Node{}, store.ErrGone
			}
			cp.ParentID, cp.Name, cp.Path = &up.ID, x.Name, up.ChildPath(x.Name)
		}
		if err := tx.CreateNode(ctx, &cp); err != nil {
			return store.Node{}, err
		}
		made[x.Path] = cp
		if x.IsDir() {
			continue
		}
		if err := copyBodies(ctx, tx, cp.ID, bodies[x.ID], Author(c, own)); err != nil {
			return store.Node{}, err
		}
		created = append(created, cp.ID)
	}
	if _, err := t.MarkForIndex(ctx, tx, created...); err != nil {
		return store.Node{}, err
	}
	return made[n.Path], nil
}

// copyBodies gives a copied file version 1 of each of the source's current
// bodies, the L2 body pointing at the copied raw one.
func copyBodies(ctx context.Context, tx *store.Store, nodeID int64, bs map[string]store.FileVersion, by *int64) error {
	var rawID *int64
	for _, body := range []string{store.BodyRaw, store.BodyL2} {
		v, ok := bs[body]
		if !ok {
			continue
		}
		if body == store.BodyL2 {
			// Listings leave the page starts out; the copy keeps them.
			starts, err := tx.PageStartsOf(ctx, v.ID)
			if err != nil {
				return err
			}
			v.SourceVersionID, v.PageStarts = rawID, starts
		}
		v.ID, v.NodeID, v.Version, v.AuthorID, v.CreatedAt = 0, nodeID, 1, by, time.Time{}
		if err := tx.ReinsertVersion(ctx, &v); err != nil {
			return err
		}
		if body == store.BodyRaw {
			id := v.ID
			rawID = &id
		}
	}
	return nil
}
