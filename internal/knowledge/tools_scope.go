package knowledge

import (
	"context"
	"errors"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Scope is the node a conversation may explore: the tools reach it and its
// descendants only. NodeID pins the node seen when the turn started (see
// OpenScope); zero means "whatever node the URI names now".
type Scope struct {
	URI    string
	NodeID int64
}

// OpenScope resolves raw for the caller and pins the node it names, so a
// later call notices when the path was deleted and re-created or another
// node was moved into its place.
func (t *Tree) OpenScope(ctx context.Context, c Caller, raw string) (Scope, error) {
	u, n, err := t.Resolve(ctx, c, raw)
	if err != nil {
		return Scope{}, err
	}
	return Scope{URI: u.String(), NodeID: n.ID}, nil
}

// resolvedScope is a scope re-read from the database for one call.
type resolvedScope struct {
	uri  URI
	node store.Node
}

// resolveScope re-reads the scope's node on every call: visibility is never
// cached between calls (SPEC §3).
func (t *Tree) resolveScope(ctx context.Context, c Caller, sc Scope) (resolvedScope, error) {
	u, n, err := t.Resolve(ctx, c, sc.URI)
	if e, ok := apierr.As(err); ok && e.Code == "not_found" {
		return resolvedScope{}, apierr.NotFound("scope_not_found",
			"the scope %s no longer exists: it was deleted, moved or renamed since the conversation started; select it again in the tree", sc.URI)
	}
	if err != nil {
		return resolvedScope{}, err
	}
	if sc.NodeID != 0 && n.ID != sc.NodeID {
		return resolvedScope{}, apierr.NotFound("scope_not_found",
			"the scope %s was replaced by another resource since the conversation started; select it again in the tree", u)
	}
	return resolvedScope{uri: u, node: n}, nil
}

// contains tells whether target is the scope's node or below it. A file
// scope contains only itself; the root contains the caller's whole tree.
func (s resolvedScope) contains(target URI) bool {
	if target.Username != s.uri.Username {
		return false
	}
	p := s.node.Path
	switch {
	case target.Path == p:
		return true
	case !s.node.IsDir():
		return false
	case p == "":
		return true
	}
	return strings.HasPrefix(target.Path, p+"/")
}

// resolveTarget parses a tool's uri argument, checks it lies inside the
// scope before looking anything up (so nothing outside leaks, not even its
// existence), then reads the node.
func (t *Tree) resolveTarget(ctx context.Context, c Caller, s resolvedScope, raw string) (URI, store.Node, error) {
	u, err := ParseURI(raw, c.Username)
	if err != nil {
		return URI{}, store.Node{}, err
	}
	if !s.contains(u) {
		if !s.node.IsDir() {
			return URI{}, store.Node{}, apierr.BadRequest("outside_scope",
				"%s is outside the scope: this conversation is about the file %s alone; use that uri", truncate(raw, 200), s.uri)
		}
		return URI{}, store.Node{}, apierr.BadRequest("outside_scope",
			"%s is outside the scope: this conversation may use %s and what is below it only", truncate(raw, 200), s.uri)
	}
	if u.Path == s.node.Path {
		return s.uri, s.node, nil
	}
	n, err := t.st.NodeByPath(ctx, c.ID, u.Path)
	if errors.Is(err, store.ErrNotFound) {
		return URI{}, store.Node{}, apierr.NotFound("not_found",
			"no such resource: %s (it may have been deleted, moved or renamed; ls its folder to see what exists)", u)
	}
	if err != nil {
		return URI{}, store.Node{}, apierr.Internal(err)
	}
	u.Dir = n.IsDir()
	return u, n, nil
}
