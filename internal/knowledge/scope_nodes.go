package knowledge

import (
	"context"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// ScopeHolds tells which of the nodes lie in the caller's scope: the scope
// folder or below it, found from the scope's node id and each node's
// parents, never from paths — a rename frees a path for another folder,
// and a token scoped to that one must not inherit what the first one held.
// Every node is in an unscoped caller's scope.
func (t *Tree) ScopeHolds(ctx context.Context, c kb.Caller, ids []int64) (map[int64]bool, error) {
	return ScopeHoldsIn(ctx, t.st, c, ids)
}

// ScopeHoldsIn is ScopeHolds read through st, which may be a transaction.
func ScopeHoldsIn(ctx context.Context, st *store.Store, c kb.Caller, ids []int64) (map[int64]bool, error) {
	if c.Scoped() {
		return st.NodesWithin(ctx, c.ID, c.ScopeID, ids)
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}
