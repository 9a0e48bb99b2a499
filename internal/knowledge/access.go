package knowledge

import (
	"context"
	"errors"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// SharedURI is the virtual folder listing what others share with the
// caller. It holds no nodes of its own: its entries keep their canonical
// kb://users/<owner>/… URIs.
const SharedURI = Scheme + "shared/"

// IsSharedURI tells whether raw names the virtual shared folder.
func IsSharedURI(raw string) bool { return raw == SharedURI || raw == Scheme+"shared" }

// target is a node looked up for a caller, with its tree's owner and what
// the authorizer says the caller may do with it.
type target struct {
	uri   URI
	node  store.Node
	owner Caller
	dec   access.Decision
}

// resolve parses raw and looks the node up for the caller; see find.
func (t *Tree) resolve(ctx context.Context, c Caller, raw string, need access.Role) (target, error) {
	u, err := ParseURI(raw, c.Username)
	if err != nil {
		return target{}, err
	}
	return t.find(ctx, c, u, need)
}

// find asks the authorizer before reading the node, so a node the caller
// may not see answers exactly like a missing one (404), and a visible node
// the caller may not change answers 403 read_only.
func (t *Tree) find(ctx context.Context, c Caller, u URI, need access.Role) (target, error) {
	owner, dec, err := t.decide(ctx, c, u)
	if err != nil {
		return target{}, err
	}
	var n store.Node
	if u.Path == "" && owner.ID == c.ID {
		n, err = t.st.EnsureRoot(ctx, c.ID)
	} else {
		n, err = t.st.NodeByPath(ctx, owner.ID, u.Path)
	}
	if errors.Is(err, store.ErrNotFound) {
		return target{}, notFound(u.String())
	}
	if err != nil {
		return target{}, apierr.Internal(err)
	}
	u.Dir = n.IsDir()
	if need >= access.Write && !dec.CanWrite() {
		return target{}, readOnly(u)
	}
	return target{uri: u, node: n, owner: owner, dec: dec}, nil
}

// decide names the owner of u's tree and what the caller may do at u's
// path, which need not exist yet. An invisible path is not_found.
func (t *Tree) decide(ctx context.Context, c Caller, u URI) (Caller, access.Decision, error) {
	if u.Username == c.Username {
		return c, access.Decision{Role: access.Owner}, nil
	}
	owner, err := t.st.UserByUsername(ctx, u.Username)
	if errors.Is(err, store.ErrNotFound) {
		return Caller{}, access.Decision{}, notFound(u.String())
	}
	if err != nil {
		return Caller{}, access.Decision{}, apierr.Internal(err)
	}
	dec, err := t.acc.Decide(ctx, c.ID, owner, u.Path)
	if err != nil {
		return Caller{}, access.Decision{}, apierr.Internal(err)
	}
	if !dec.CanRead() {
		return Caller{}, access.Decision{}, notFound(u.String())
	}
	return Caller{ID: owner.ID, Username: owner.Username}, dec, nil
}

// decideWrite is decide for a path about to be created or changed.
func (t *Tree) decideWrite(ctx context.Context, c Caller, u URI) (Caller, access.Decision, error) {
	owner, dec, err := t.decide(ctx, c, u)
	if err == nil && !dec.CanWrite() {
		return Caller{}, access.Decision{}, readOnly(u)
	}
	return owner, dec, err
}

func readOnly(u URI) error {
	return apierr.Forbidden("read_only", "%s is shared with you read-only; ask its owner for write access", u)
}

// guardShareRoot refuses a grantee moving or deleting the shared folder
// itself: the share is the owner's, and so is the node it is on.
func guardShareRoot(tg target, what string) error {
	if tg.dec.Role == access.Owner || tg.node.Path != tg.dec.WriteRoot {
		return nil
	}
	return apierr.Forbidden("share_root", "%s is the folder its owner shared with you; only %s can %s it", tg.uri, tg.owner.Username, what)
}

// author is the id a version or trash item records as the one who acted:
// nil when the owner did.
func author(c Caller, owner Caller) *int64 {
	if c.ID == owner.ID {
		return nil
	}
	id := c.ID
	return &id
}

// sharedURIError explains kb://shared/ to a caller using it where a real
// node is needed.
func sharedURIError(raw string) error {
	return invalidURI("%s is the virtual folder of what others share with you: it can be listed, and each entry has its own kb://users/<owner>/… uri to use instead", strings.TrimSuffix(truncate(raw, 40), "/")+"/")
}

// nameOr is the name of the account id names, or owner when id is nil (the
// owner acted) or the account is gone.
func nameOr(names map[int64]string, id *int64, owner string) string {
	if id == nil {
		return owner
	}
	if n, ok := names[*id]; ok {
		return n
	}
	return owner
}
