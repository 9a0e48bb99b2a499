// Package trash holds what can be undone: deleting to the trash, restoring
// and purging its items, and a file's earlier versions. It works on the
// tree through its exported seam, in the same transactions and locks.
package trash

import "github.com/knowspace/knowspace/internal/knowledge"

// Service is the trash and the version history of one tree.
type Service struct {
	*knowledge.Tree
}

// New builds the service over tree.
func New(tree *knowledge.Tree) *Service { return &Service{Tree: tree} }
