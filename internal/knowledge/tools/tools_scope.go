package tools

import (
	"context"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// resolvedScope is a scope re-read from the database for one call: its
// node, or for kb://shared/ the roots shared with the caller now.
type resolvedScope struct {
	knowledge.Target
	shared bool
	roots  []store.SharedRoot
}

// resolveScope re-reads the scope's node, and asks the authorizer again, on
// every call: visibility is never cached between calls (SPEC §3), so a
// revoked share ends a running turn at its next tool call.
func (t *Service) resolveScope(ctx context.Context, c kb.Caller, sc kb.Scope) (resolvedScope, error) {
	if c.Scoped() && kb.IsSharedURI(sc.URI) {
		return resolvedScope{}, knowledge.NotFound(kb.SharedURI)
	}
	if kb.IsSharedURI(sc.URI) {
		roots, err := t.SharedRoots(ctx, c)
		return resolvedScope{shared: true, roots: roots}, err
	}
	tg, err := t.Lookup(ctx, c, sc.URI, access.Read)
	if e, ok := apierr.As(err); ok && e.Code == apierr.CodeNotFound {
		return resolvedScope{}, apierr.NotFound(apierr.CodeScopeNotFound,
			"the scope %s no longer exists or is no longer visible to you: it was deleted, moved or renamed since the conversation started, or its owner stopped sharing it with you; select a folder again in the tree", sc.URI)
	}
	if err != nil {
		return resolvedScope{}, err
	}
	if sc.NodeID != 0 && tg.Node.ID != sc.NodeID {
		return resolvedScope{}, apierr.NotFound(apierr.CodeScopeNotFound,
			"the scope %s was replaced by another resource since the conversation started; select it again in the tree", tg.URI)
	}
	return resolvedScope{Target: tg}, nil
}

// contains tells whether u is the scope's node or below it. A file scope
// contains only itself; the root contains its whole tree; kb://shared/
// contains every shared root and what is below them.
func (s resolvedScope) contains(u kb.URI) bool {
	if s.shared {
		for _, r := range s.roots {
			if r.Owner == u.Username && access.Within(u.Path, r.Path) {
				return true
			}
		}
		return false
	}
	if u.Username != s.URI.Username {
		return false
	}
	if !s.Node.IsDir() {
		return u.Path == s.Node.Path
	}
	return access.Within(u.Path, s.Node.Path)
}

// layersContain tells whether u lies in the caller's compiled layers of a
// folder scope (its mirror below their wiki/, where ls's overview_uri and
// summary_uri point): digests of the scope's own files, in the caller's own
// tree, so the agent can read an overview before the raw files.
func (s resolvedScope) layersContain(c kb.Caller, u kb.URI) bool {
	if s.shared || !s.Node.IsDir() || u.Username != c.Username {
		return false
	}
	return access.Within(u.Path, knowledge.OutputFolder(c, s.Owner.Username, s.Node.Path))
}

// name spells the scope for messages.
func (s resolvedScope) name() string {
	if s.shared {
		return kb.SharedURI
	}
	return s.URI.String()
}

// resolveTarget parses a tool's uri argument, checks it lies inside the
// scope before looking anything up (so nothing outside leaks, not even its
// existence), then reads the node through the authorizer.
func (t *Service) resolveTarget(ctx context.Context, c kb.Caller, s resolvedScope, raw string) (knowledge.Target, error) {
	raw, err := knowledge.NarrowScope(c, raw)
	if err != nil {
		return knowledge.Target{}, err
	}
	if kb.IsSharedURI(raw) {
		if !s.shared {
			return knowledge.Target{}, outsideScope(s, raw)
		}
		return knowledge.Target{}, nil // the virtual folder itself: only ls takes it
	}
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return knowledge.Target{}, err
	}
	if !s.contains(u) && !s.layersContain(c, u) {
		return knowledge.Target{}, outsideScope(s, raw)
	}
	if !s.shared && u.Path == s.Node.Path {
		return s.Target, nil
	}
	tg, err := t.Find(ctx, c, u, access.Read)
	if e, ok := apierr.As(err); ok && e.Code == apierr.CodeNotFound {
		return knowledge.Target{}, apierr.NotFound(apierr.CodeNotFound,
			"no such resource: %s (it may have been deleted, moved or renamed; ls its folder to see what exists)", u)
	}
	return tg, err
}

func outsideScope(s resolvedScope, raw string) error {
	if !s.shared && !s.Node.IsDir() {
		return apierr.BadRequest(apierr.CodeOutsideScope,
			"%s is outside the scope: this conversation is about the file %s alone; use that uri", kb.Clip(raw, 200), s.URI)
	}
	return apierr.BadRequest(apierr.CodeOutsideScope,
		"%s is outside the scope: this conversation may use %s and what is below it only", kb.Clip(raw, 200), s.name())
}
