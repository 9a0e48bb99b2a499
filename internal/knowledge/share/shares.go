package share

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// View is the JSON shape of a share (SPEC: /resources/shares).
type View struct {
	ID    int64         `json:"id"`
	URI   string        `json:"uri"`
	User  *store.Member `json:"user,omitempty"`
	Group *ShareGroup   `json:"group,omitempty"`
	Role  string        `json:"role"`
	// Inherited: the share is on an ancestor of the node asked about.
	Inherited bool      `json:"inherited"`
	CreatedAt time.Time `json:"created_at"`
}

// ShareGroup names the group a share is for.
type ShareGroup struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// Request is the body of POST /resources/shares: one of User (a user
// name) and Group (a group name).
type Request struct {
	URI   string `json:"uri"`
	User  string `json:"user"`
	Group string `json:"group"`
	Role  string `json:"role"`
}

// Validate checks the request's shape before any lookup.
func (r *Request) Validate() error {
	if r.URI == "" {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri is required")
	}
	if (r.User == "") == (r.Group == "") {
		return apierr.BadRequest(apierr.CodeInvalidGrantee, "name exactly one of user and group")
	}
	return checkRole(r.Role)
}

func checkRole(role string) error {
	if _, ok := access.RoleOf(role); !ok {
		return apierr.BadRequest(apierr.CodeInvalidRole, "role must be read or write")
	}
	return nil
}

func shareNotFound(id int64) error {
	return apierr.NotFound(apierr.CodeShareNotFound, "no such share: %d", id)
}

// ownedTarget resolves raw for a caller who must own it: only the owner
// shares, changes or revokes, so a grantee cannot re-share.
func (t *Service) ownedTarget(ctx context.Context, c kb.Caller, raw string) (knowledge.Target, error) {
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	if err != nil {
		return knowledge.Target{}, err
	}
	if tg.Dec.Role != access.Owner {
		return knowledge.Target{}, apierr.Forbidden(apierr.CodeNotOwner, "%s belongs to %s; only its owner can see or change who it is shared with", tg.URI, tg.Owner.Username)
	}
	return tg, nil
}

// Share grants a user or a group a role on a node the caller owns and
// everything below it.
func (t *Service) Share(ctx context.Context, c kb.Caller, r Request) (View, error) {
	if err := r.Validate(); err != nil {
		return View{}, err
	}
	tg, err := t.ownedTarget(ctx, c, r.URI)
	if err != nil {
		return View{}, err
	}
	sh := store.Share{OwnerID: c.ID, NodeID: tg.Node.ID, Role: r.Role}
	grantee := r.User
	if r.User != "" {
		u, err := t.Store().UserByUsername(ctx, strings.ToLower(r.User))
		switch {
		case errors.Is(err, store.ErrNotFound) || (err == nil && u.Disabled):
			return View{}, apierr.BadRequest(apierr.CodeInvalidGrantee, "there is no active user named %q", kb.Clip(r.User, 64))
		case err != nil:
			return View{}, apierr.Internal("share: read grantee user", err)
		case u.ID == c.ID:
			return View{}, apierr.BadRequest(apierr.CodeSelfShare, "%s is yours already", tg.URI).WithDetail("uri", tg.URI.String())
		}
		sh.UserID = &u.ID
	} else {
		g, err := t.Store().GroupByName(ctx, strings.ToLower(r.Group))
		if errors.Is(err, store.ErrNotFound) {
			return View{}, apierr.BadRequest(apierr.CodeInvalidGrantee, "there is no group named %q", kb.Clip(r.Group, 64))
		}
		if err != nil {
			return View{}, apierr.Internal("share: read grantee group", err)
		}
		sh.GroupID, grantee = &g.ID, "group "+g.Name
	}
	if err := t.Store().CreateShare(ctx, &sh); errors.Is(err, store.ErrConflict) {
		return View{}, apierr.Conflict(apierr.CodeAlreadyShared, "%s is already shared with %s; change the role of that share instead", tg.URI, grantee)
	} else if errors.Is(err, store.ErrGone) {
		return View{}, knowledge.NotFound(tg.URI.String())
	} else if err != nil {
		return View{}, apierr.Internal("share", err)
	}
	vs, err := t.shareViews(ctx, c, []store.Share{sh}, tg.Node.ID)
	if err != nil {
		return View{}, err
	}
	return vs[0], nil
}

// Shares lists the shares covering the node raw names (on it and on its
// ancestors), or with raw empty every share the caller made.
func (t *Service) Shares(ctx context.Context, c kb.Caller, raw string) ([]View, error) {
	if raw == "" {
		shs, err := t.Store().SharesBy(ctx, c.ID)
		if err != nil {
			return nil, apierr.Internal("list shares by owner", err)
		}
		return t.shareViews(ctx, c, shs, 0)
	}
	tg, err := t.ownedTarget(ctx, c, raw)
	if err != nil {
		return nil, err
	}
	nodes, err := t.Store().NodesByPaths(ctx, c.ID, access.Ancestors(tg.Node.Path))
	if err != nil {
		return nil, apierr.Internal("list shares: read ancestors", err)
	}
	ids := make([]int64, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	shs, err := t.Store().SharesOn(ctx, ids)
	if err != nil {
		return nil, apierr.Internal("list shares on nodes", err)
	}
	return t.shareViews(ctx, c, shs, tg.Node.ID)
}

// SetShareRole changes the role of one of the caller's shares.
func (t *Service) SetShareRole(ctx context.Context, c kb.Caller, id int64, role string) (View, error) {
	if err := checkRole(role); err != nil {
		return View{}, err
	}
	sh, err := t.ownShare(ctx, c, id)
	if err != nil {
		return View{}, err
	}
	if err := t.Store().SetShareRole(ctx, id, role); err != nil {
		return View{}, apierr.Internal("set share role", err)
	}
	sh.Role = role
	vs, err := t.shareViews(ctx, c, []store.Share{sh}, sh.NodeID)
	if err != nil {
		return View{}, err
	}
	return vs[0], nil
}

// Unshare revokes one of the caller's shares; the grantee's next request,
// tool call or compile step no longer sees the node.
func (t *Service) Unshare(ctx context.Context, c kb.Caller, id int64) error {
	if _, err := t.ownShare(ctx, c, id); err != nil {
		return err
	}
	if err := t.Store().DeleteShare(ctx, id); err != nil {
		return apierr.Internal("unshare", err)
	}
	return nil
}

// OwnShare is one of the caller's shares as Shares lists it.
func (t *Service) OwnShare(ctx context.Context, c kb.Caller, id int64) (View, error) {
	sh, err := t.ownShare(ctx, c, id)
	if err != nil {
		return View{}, err
	}
	vs, err := t.shareViews(ctx, c, []store.Share{sh}, sh.NodeID)
	if err != nil {
		return View{}, err
	}
	return vs[0], nil
}

// ownShare reads a share the caller made; anybody else's is not found.
func (t *Service) ownShare(ctx context.Context, c kb.Caller, id int64) (store.Share, error) {
	sh, err := t.Store().ShareByID(ctx, c.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Share{}, shareNotFound(id)
	}
	if err != nil {
		return store.Share{}, apierr.Internal("read own share", err)
	}
	return sh, nil
}

// shareViews spells shares of the caller's nodes; at is the node asked
// about (0: none), which marks shares on other nodes as inherited.
func (t *Service) shareViews(ctx context.Context, c kb.Caller, shs []store.Share, at int64) ([]View, error) {
	var nodeIDs, userIDs []int64
	for _, sh := range shs {
		nodeIDs = append(nodeIDs, sh.NodeID)
		if sh.UserID != nil {
			userIDs = append(userIDs, *sh.UserID)
		}
	}
	nodes, err := t.Store().NodesByIDs(ctx, nodeIDs)
	if err != nil {
		return nil, apierr.Internal("view shares: read nodes", err)
	}
	byID := map[int64]store.Node{}
	for _, n := range nodes {
		byID[n.ID] = n
	}
	names, err := t.Store().Usernames(ctx, userIDs)
	if err != nil {
		return nil, apierr.Internal("view shares: read user names", err)
	}
	groups, err := t.Store().ListGroups(ctx)
	if err != nil {
		return nil, apierr.Internal("view shares: read groups", err)
	}
	groupName := map[int64]string{}
	for _, g := range groups {
		groupName[g.ID] = g.Name
	}
	out := make([]View, 0, len(shs))
	for _, sh := range shs {
		n := byID[sh.NodeID]
		v := View{ID: sh.ID, URI: kb.NodeURI(c.Username, n.Path, n.IsDir()), Role: sh.Role,
			Inherited: at != 0 && sh.NodeID != at, CreatedAt: sh.CreatedAt}
		if sh.UserID != nil {
			v.User = &store.Member{ID: *sh.UserID, Username: names[*sh.UserID]}
		} else if sh.GroupID != nil {
			v.Group = &ShareGroup{ID: *sh.GroupID, Name: groupName[*sh.GroupID]}
		}
		out = append(out, v)
	}
	return out, nil
}
