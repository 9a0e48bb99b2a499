package knowledge

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// RemoveGenerated deletes generated files of the caller's tree (a summary
// whose source was deleted or moved away, an overview of a folder left
// empty) in one transaction under the tree lock; guard runs first, as in
// Publish. A generated folder among ids goes only if it is empty by then,
// so ids list children before their folders. A user's own file or folder
// is never removed, and a node already gone is skipped. The bytes go with
// the blob sweep: generated text is remade, not restored, so it skips the
// trash. removed counts what went.
func (t *Tree) RemoveGenerated(ctx context.Context, c kb.Caller, ids []int64, guard func(*store.Store) error) (removed int, err error) {
	if len(ids) == 0 {
		return 0, nil
	}
	err = t.st.InTx(ctx, func(tx *store.Store) error {
		removed = 0
		if err := tx.LockTree(ctx, c.ID); err != nil {
			return err
		}
		if guard != nil {
			if err := guard(tx); err != nil {
				return err
			}
		}
		for _, id := range ids {
			n, err := tx.NodeByID(ctx, c.ID, id)
			if errors.Is(err, store.ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			if !n.Generated {
				continue
			}
			if n.IsDir() {
				kids, err := tx.Children(ctx, n.ID, 0, 1)
				if err != nil {
					return err
				}
				if len(kids) > 0 {
					continue
				}
			}
			if err := tx.DeleteNode(ctx, n); err != nil {
				return err
			}
			removed++
		}
		return nil
	})
	return removed, err
}
