package knowledge

import (
	"context"
	"time"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// MarkChanged tells the folders kept compiled above the nodes, inside the
// write's transaction, that their content changed: the change is durable
// with the write itself, whatever front door made it. Generated nodes are
// compile output, never compile input, and mark nothing.
func MarkChanged(ctx context.Context, tx *store.Store, owner kb.Caller, nodes ...store.Node) error {
	paths := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if !IsGenerated(n) {
			paths = append(paths, n.Path)
		}
	}
	return tx.MarkChanged(ctx, owner.ID, paths, time.Now())
}
