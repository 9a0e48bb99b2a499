package knowledge

import (
	"context"
	"errors"
	"fmt"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Target is a node looked up for a caller, with its tree's owner and what
// the authorizer says the caller may do with it.
type Target struct {
	URI    kb.URI
	Node   store.Node
	Owner  kb.Caller
	Dec    access.Decision
	Scoped bool
}

// Lookup parses raw and looks the node up for the caller; see Find.
func (t *Tree) Lookup(ctx context.Context, c kb.Caller, raw string, need access.Role) (Target, error) {
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return Target{}, err
	}
	return t.Find(ctx, c, u, need)
}

// Find asks the authorizer before reading the node, so a node the caller
// may not see answers exactly like a missing one (404), and a visible node
// the caller may not change answers 403 read_only.
func (t *Tree) Find(ctx context.Context, c kb.Caller, u kb.URI, need access.Role) (Target, error) {
	owner, dec, err := t.decide(ctx, c, u)
	if err != nil {
		return Target{}, err
	}
	var n store.Node
	if u.Path == "" && owner.ID == c.ID {
		n, err = t.st.EnsureRoot(ctx, c.ID)
	} else {
		n, err = t.st.NodeByPath(ctx, owner.ID, u.Path)
	}
	if errors.Is(err, store.ErrNotFound) {
		return Target{}, NotFound(u.String())
	}
	if err != nil {
		return Target{}, apierr.Internal("find node", err)
	}
	u.Dir = n.IsDir()
	if need >= access.Write && !dec.CanWrite() {
		return Target{}, readOnlyFor(c, u)
	}
	return Target{URI: u, Node: n, Owner: owner, Dec: dec, Scoped: c.Scoped()}, nil
}

// decide names the owner of u's tree and what the caller may do at u's
// path, which need not exist yet. An invisible path is not_found.
func (t *Tree) decide(ctx context.Context, c kb.Caller, u kb.URI) (kb.Caller, access.Decision, error) {
	if c.Scoped() {
		return decideScoped(c, u)
	}
	if u.Username == c.Username {
		return c, access.Decision{Role: access.Owner}, nil
	}
	owner, err := t.st.UserByUsername(ctx, u.Username)
	if errors.Is(err, store.ErrNotFound) {
		return kb.Caller{}, access.Decision{}, NotFound(u.String())
	}
	if err != nil {
		return kb.Caller{}, access.Decision{}, apierr.Internal("decide access: read owner", err)
	}
	dec, err := t.acc.Decide(ctx, c.ID, owner, u.Path)
	if err != nil {
		return kb.Caller{}, access.Decision{}, apierr.Internal("decide access", err)
	}
	if !dec.CanRead() {
		return kb.Caller{}, access.Decision{}, NotFound(u.String())
	}
	return kb.Caller{ID: owner.ID, Username: owner.Username}, dec, nil
}

// decideWrite is decide for a path about to be created or changed.
func (t *Tree) decideWrite(ctx context.Context, c kb.Caller, u kb.URI) (kb.Caller, access.Decision, error) {
	owner, dec, err := t.decide(ctx, c, u)
	if err == nil && !dec.CanWrite() {
		return kb.Caller{}, access.Decision{}, readOnlyFor(c, u)
	}
	return owner, dec, err
}

// decideScoped is decide for a scoped token: the scope folder and below are
// the caller's (read or write as the token says, never the scope folder
// itself moved or deleted: it is the WriteRoot); its own root is readable
// only to be listed as holding the scope folder; everything else, shared
// trees included, is invisible. ParseURI has already cleaned the path, so
// every spelling of a URI reaches this one comparison.
func decideScoped(c kb.Caller, u kb.URI) (kb.Caller, access.Decision, error) {
	if u.Username != c.Username {
		return kb.Caller{}, access.Decision{}, NotFound(u.String())
	}
	if u.Path == "" {
		return c, access.Decision{Role: access.Read}, nil
	}
	if !c.InScope(u.Path) {
		return kb.Caller{}, access.Decision{}, NotFound(u.String())
	}
	role := access.Write
	if c.ReadOnly {
		role = access.Read
	}
	return c, access.Decision{Role: role, WriteRoot: c.ScopePath}, nil
}

func readOnlyFor(c kb.Caller, u kb.URI) error {
	if err := access.Allow(c, access.FolderWrite, fmt.Sprintf("it may read %s but not change it", u)); err != nil {
		return err
	}
	if c.Scoped() && u.Path == "" {
		return apierr.Forbidden(apierr.CodeReadOnly, "this API token only sees %s; %s can be listed, not changed", c.ScopeURI(), u)
	}
	return readOnly(u)
}

func readOnly(u kb.URI) error {
	return apierr.Forbidden(apierr.CodeReadOnly, "%s is shared with you read-only; ask its owner for write access", u).WithDetail("uri", u.String())
}

// GuardShareRoot refuses a grantee moving or deleting the shared folder
// itself: the share is the owner's, and so is the node it is on.
func GuardShareRoot(tg Target, what string) error {
	if tg.Scoped && tg.Node.Path == tg.Dec.WriteRoot {
		return apierr.Forbidden(apierr.CodeScopeRoot, "%s is this API token's scope folder; the token cannot %s it", tg.URI, what)
	}
	if tg.Dec.Role == access.Owner || tg.Node.Path != tg.Dec.WriteRoot {
		return nil
	}
	return apierr.Forbidden(apierr.CodeShareRoot, "%s is the folder its owner shared with you; only %s can %s it", tg.URI, tg.Owner.Username, what)
}

// Author is the id a version or trash item records as the one who acted:
// nil when the owner did.
func Author(c kb.Caller, owner kb.Caller) *int64 {
	if c.ID == owner.ID {
		return nil
	}
	id := c.ID
	return &id
}

// NameOr is the name of the account id names, or owner when id is nil (the
// owner acted) or the account is gone.
func NameOr(names map[int64]string, id *int64, owner string) string {
	if id == nil {
		return owner
	}
	if n, ok := names[*id]; ok {
		return n
	}
	return owner
}

// NarrowScope is the scope a scoped caller's search, command or
// conversation really gets: its own root means the scope folder (the root
// holds nothing else it may see) and kb://shared/ is outside any scope.
// Other URIs pass unchanged; resolving them refuses what is outside.
func NarrowScope(c kb.Caller, raw string) (string, error) {
	if !c.Scoped() || raw == "" {
		return raw, nil
	}
	if kb.IsSharedURI(raw) {
		return "", NotFound(kb.SharedURI)
	}
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return "", err
	}
	if u.Username == c.Username && u.Path == "" {
		return c.ScopeURI(), nil
	}
	return raw, nil
}

// OpenScope resolves raw for the caller and pins the node it names, so a
// later call notices when the path was deleted and re-created or another
// node was moved into its place.
func (t *Tree) OpenScope(ctx context.Context, c kb.Caller, raw string) (kb.Scope, error) {
	raw, err := NarrowScope(c, raw)
	if err != nil {
		return kb.Scope{}, err
	}
	if kb.IsSharedURI(raw) {
		return kb.Scope{URI: kb.SharedURI}, nil
	}
	u, n, err := t.Resolve(ctx, c, raw)
	if err != nil {
		return kb.Scope{}, err
	}
	return kb.Scope{URI: u.String(), NodeID: n.ID}, nil
}
