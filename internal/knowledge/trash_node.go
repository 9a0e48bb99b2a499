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

// TrashedNode is one node of a trash item's payload: enough to put it back
// with its whole history. Path is relative to the item ("" for its root).
type TrashedNode struct {
	Path      string              `json:"path"`
	Kind      string              `json:"kind"`
	Generated bool                `json:"generated"`
	Size      int64               `json:"size"`
	CreatedAt time.Time           `json:"created_at"`
	Versions  []store.FileVersion `json:"versions"`
	// Kept is the folder's auto-compile setting, so a restored folder is
	// kept compiled again with the same choices.
	Kept *KeptCompiled `json:"kept_compiled,omitempty"`
}

// KeptCompiled is a trashed folder's auto-compile request and quiet time.
type KeptCompiled struct {
	RequestJSON string `json:"request"`
	QuietS      int    `json:"quiet_s"`
}

// TrashNode moves n and its subtree to own's trash inside tx, which holds
// the tree lock; a copy or move over an existing node uses it to replace
// the node in the same transaction.
func TrashNode(ctx context.Context, tx *store.Store, c, own kb.Caller, n store.Node) error {
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
	payload := make([]TrashedNode, len(nodes))
	var size int64
	for i, x := range nodes {
		payload[i] = TrashedNode{Path: strings.TrimPrefix(strings.TrimPrefix(x.Path, n.Path), "/"),
			Kind: x.Kind, Generated: x.Generated, Size: x.Size, CreatedAt: x.CreatedAt, Versions: byNode[x.ID]}
		if a, ok := kept[x.ID]; ok {
			payload[i].Kept = &KeptCompiled{RequestJSON: a.RequestJSON, QuietS: a.QuietS}
		}
		size += x.Size
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	it := store.TrashItem{UserID: own.ID, Path: n.Path, ParentID: n.ParentID, Name: n.Name, Kind: n.Kind, Size: size,
		PayloadJSON: string(raw), DeletedBy: Author(c, own), DeletedAt: time.Now().UTC()}
	if err := tx.AddTrash(ctx, &it, hashes); err != nil {
		return err
	}
	if err := tx.CancelJobsOf(ctx, ids); err != nil {
		return err
	}
	if err := MarkChanged(ctx, tx, own, n); err != nil {
		return err
	}
	return tx.DeleteNode(ctx, n)
}

// FreeName picks a free name below dir. With a tag (restoring) the name
// itself comes first, then "base (tag).ext", "base (tag 2).ext"…; without
// one (an upload that keeps both) "base (2).ext", "base (3).ext"…
func FreeName(ctx context.Context, tx *store.Store, c kb.Caller, dir store.Node, name string, isDir bool, tag string) (string, error) {
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

// Delete moves a node and its subtree to the owner's trash in one
// transaction: from then on the tree, listings and every tool no longer see
// it, and its compile jobs are cancelled. Its bytes stay until the item is
// purged or expires.
func (t *Tree) Delete(ctx context.Context, c kb.Caller, raw string) error {
	tg, err := t.Lookup(ctx, c, raw, access.Write)
	if err != nil {
		return err
	}
	u, n, own := tg.URI, tg.Node, tg.Owner
	if n.Path == "" {
		return apierr.BadRequest(apierr.CodeInvalidDelete, "the root folder cannot be deleted")
	}
	if err := GuardShareRoot(tg, "delete"); err != nil {
		return err
	}
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		n, err := Fresh(ctx, tx, own, u, n)
		if err != nil {
			return err
		}
		return TrashNode(ctx, tx, c, own, n)
	})
	if err != nil {
		return WrapStoreErr("delete", err)
	}
	return nil
}
