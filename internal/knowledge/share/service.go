// Package share holds the grants an owner gives on a folder or file: create,
// list, change and revoke. Reading through a share is the authorizer's
// (internal/access) and the tree's; this package only writes the grants.
package share

import "github.com/knowspace/knowspace/internal/knowledge"

// Service manages the shares of one tree.
type Service struct {
	*knowledge.Tree
}

// New builds the service over tree.
func New(tree *knowledge.Tree) *Service { return &Service{Tree: tree} }
