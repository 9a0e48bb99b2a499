// Package kb holds what every part of the product names a resource by: the
// kb:// URI, the caller a request acts for and the scope a conversation may
// explore. It is a leaf: it imports only the error type.
package kb

import "strings"

// SharedURI is the virtual folder listing what others share with the
// caller. It holds no nodes of its own: its entries keep their canonical
// kb://users/<owner>/… URIs.
const SharedURI = Scheme + "shared/"

// IsSharedURI tells whether raw names the virtual shared folder.
func IsSharedURI(raw string) bool { return raw == SharedURI || raw == Scheme+"shared" }

// Caller is the authenticated user a request acts for. A caller from a
// scoped API token (ScopeID non-zero) sees only the folder at ScopePath of
// its own tree and below; ReadOnly forbids every change.
type Caller struct {
	ID       int64
	Username string
	// ScopeID is the scope folder's node id, 0 for an unscoped caller.
	ScopeID   int64
	ScopePath string
	ReadOnly  bool
}

// Scoped tells whether the caller is confined to one folder.
func (c Caller) Scoped() bool { return c.ScopeID != 0 }

// InScope tells whether path (below the caller's own root) is the scope
// folder or below it; every path is in scope for an unscoped caller.
func (c Caller) InScope(path string) bool {
	return !c.Scoped() || path == c.ScopePath || strings.HasPrefix(path, c.ScopePath+"/")
}

// SeesURI tells whether a stored kb:// URI (a conversation's scope, a
// job's file) lies inside the caller's scope; always true when unscoped.
// Listings that are the caller's own rather than the tree's filter by it.
func (c Caller) SeesURI(raw string) bool {
	if !c.Scoped() {
		return true
	}
	u, err := ParseURI(raw, c.Username)
	return err == nil && u.Username == c.Username && u.Path != "" && c.InScope(u.Path)
}

// ScopeURI is the scope folder's kb:// URI, "" for an unscoped caller.
func (c Caller) ScopeURI() string {
	if !c.Scoped() {
		return ""
	}
	return NodeURI(c.Username, c.ScopePath, true)
}

// RootURI is where this caller's view of the tree begins: the scope folder
// of a scoped token, else the caller's own root. Walks that read the store
// directly, and doors that need one folder to start a turn, start here.
func (c Caller) RootURI() string {
	if c.Scoped() {
		return c.ScopeURI()
	}
	return URI{Username: c.Username}.String()
}

// Scope is the node a conversation may explore: the tools reach it and its
// descendants only. NodeID pins the node seen when the turn started (see
// OpenScope); zero means "whatever node the URI names now". The scope
// kb://shared/ reaches whatever is shared with the caller at each call.
type Scope struct {
	URI    string
	NodeID int64
}
