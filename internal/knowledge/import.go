package knowledge

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Import is a folder import's commit.
type Import struct {
	Target     string // folder URI the import lands in
	Top        string // a new folder below Target holding everything; "" for none
	Dirs       [][]string
	Files      []Staged
	OnConflict string
	// Guard runs first inside the transaction and Done last, with the
	// items the commit made; an error of either aborts it.
	Guard func(tx *store.Store) error
	Done  func(tx *store.Store, items []Item) error
}

// CommitImport publishes a whole imported tree in one transaction: the
// folder appears complete or not at all. Files are consumed like an
// upload's.
func (t *Tree) CommitImport(ctx context.Context, c kb.Caller, im Import) ([]Item, error) {
	return t.commitStaged(ctx, c, im.Target, im.Files, im.OnConflict, commitExtra{top: im.Top, dirs: im.Dirs, guard: im.Guard, done: im.Done})
}

// createTop makes the import's own folder, refusing a name already taken.
func createTop(ctx context.Context, tx *store.Store, own kb.Caller, parent store.Node, name string) (store.Node, error) {
	p := parent.ChildPath(name)
	n, err := tx.NodeByPath(ctx, own.ID, p)
	switch {
	case err == nil:
		return store.Node{}, apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists; import into it with into=, or rename the archive",
			kb.NodeURI(own.Username, p, n.IsDir())).WithDetail("uri", kb.NodeURI(own.Username, p, n.IsDir())).WithDetail("existing", ItemOf(own.Username, n))
	case !errors.Is(err, store.ErrNotFound):
		return store.Node{}, err
	}
	n = store.Node{UserID: own.ID, ParentID: &parent.ID, Name: name, Path: p, Kind: store.KindDir}
	if err := tx.CreateNode(ctx, &n); err != nil {
		return store.Node{}, err
	}
	return n, nil
}
