package knowledge

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/store"
)

// RemoveGenerated deletes generated files of the caller's tree (a summary
// whose source was deleted or moved away, an overview of a folder left
// empty) in one transaction under the tree lock; guard runs first, as in
// Publish. A user's own file is never removed, and a node already gone is
// skipped. The bytes go with the blob sweep: generated text is remade, not
// restored, so it skips the trash.
func (t *Tree) RemoveGenerated(ctx context.Context, c Caller, ids []int64, guard func(*store.Store) error) error {
	if len(ids) == 0 {
		return nil
	}
	return t.st.InTx(ctx, func(tx *store.Store) error {
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
			if !n.Generated || n.IsDir() {
				continue
			}
			if err := tx.DeleteNode(ctx, n); err != nil {
				return err
			}
		}
		return nil
	})
}
