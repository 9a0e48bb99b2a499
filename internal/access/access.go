// Package access is the one authorizer: every read and write of a node, on
// every path the product has, asks it what the caller may do. The answer is
// derived from ownership, shares and group membership at the moment of the
// question; nothing is cached, so a revoke or a removal from a group takes
// effect on the very next call.
package access

import (
	"context"
	"strings"

	"github.com/knowspace/knowspace/internal/store"
)

// Role is what a caller may do with a node; a higher role includes the lower.
type Role int

// Roles, weakest first.
const (
	None Role = iota
	Read
	Write
	Owner
)

// String spells the role as the API does.
func (r Role) String() string {
	switch r {
	case Read:
		return store.ShareRead
	case Write:
		return store.ShareWrite
	case Owner:
		return "owner"
	}
	return "none"
}

// RoleOf parses a share role.
func RoleOf(s string) (Role, bool) {
	switch s {
	case store.ShareRead:
		return Read, true
	case store.ShareWrite:
		return Write, true
	}
	return None, false
}

// Decision is the answer for one node.
type Decision struct {
	Role Role
	// WriteRoot is, for a write grantee, the path of the outermost node a
	// write share reaches them on: a grantee's moves stay below it and it
	// cannot itself be moved or deleted by them.
	WriteRoot string
}

// CanRead tells whether the node is visible at all.
func (d Decision) CanRead() bool { return d.Role >= Read }

// CanWrite tells whether the caller may change the node or create below it.
func (d Decision) CanWrite() bool { return d.Role >= Write }

// Authorizer answers for callers.
type Authorizer struct{ st *store.Store }

// New builds the authorizer over the store.
func New(st *store.Store) *Authorizer { return &Authorizer{st: st} }

// Decide tells what callerID may do with the node at path in owner's tree.
// The owner may do anything; anybody else (admins included) only what a
// share on the node or an ancestor grants them, directly or through a group.
// A disabled owner's tree is visible to nobody else.
func (a *Authorizer) Decide(ctx context.Context, callerID int64, owner store.User, path string) (Decision, error) {
	if callerID == owner.ID {
		return Decision{Role: Owner}, nil
	}
	if owner.Disabled {
		return Decision{}, nil
	}
	grants, err := a.st.GrantsOn(ctx, callerID, owner.ID, Ancestors(path))
	if err != nil {
		return Decision{}, err
	}
	var d Decision
	for _, g := range grants { // outermost first
		r, _ := RoleOf(g.Role)
		if r == Write && d.Role < Write {
			d.WriteRoot = g.Path
		}
		d.Role = max(d.Role, r)
	}
	return d, nil
}

// Ancestors lists path and every ancestor path up to the root (""),
// outermost first: the nodes whose shares reach path.
func Ancestors(path string) []string {
	out := []string{""}
	for i := 0; path != "" && i <= len(path); i++ {
		if i == len(path) || path[i] == '/' {
			out = append(out, path[:i])
		}
	}
	return out
}

// Within tells whether path is root or below it.
func Within(path, root string) bool {
	return root == "" || path == root || strings.HasPrefix(path, root+"/")
}
