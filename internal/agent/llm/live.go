package llm

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"

	"github.com/knowspace/knowspace/internal/agent/llm/h1"
)

// Access tells whether a user may use a model. A refused user is answered
// as for an unknown model, so a restricted model's id is not revealed.
type Access func(ctx context.Context, userID int64, modelID string) (bool, error)

// live is the state a live registry shares with every holder of it: the
// registry they see now and the access rule that goes with it.
type live struct {
	cur atomic.Pointer[snapshot]
}

type snapshot struct {
	reg    *Registry
	access Access
}

// NewLive wraps initial in a registry whose models change with Swap
// without a restart: the services given it at start keep the same
// *Registry and see each swap at once. A model found before a swap stays
// usable by the call that found it.
func NewLive(initial *Registry) *Registry {
	l := &live{}
	l.cur.Store(&snapshot{reg: initial.now()})
	return &Registry{live: l}
}

// Swap makes next (and access, which may be nil: everyone may use every
// model) what the live registry answers from now on.
func (r *Registry) Swap(next *Registry, access Access) error {
	if r.live == nil {
		return errors.New("llm: Swap on a registry that is not live (NewLive)")
	}
	r.live.cur.Store(&snapshot{reg: next.now(), access: access})
	return nil
}

// now is the registry that answers: the current snapshot of a live
// registry, the registry itself otherwise.
func (r *Registry) now() *Registry {
	reg, _ := r.current()
	return reg
}

// current is the registry that answers and its access rule, read together
// so a swap between them cannot pair one snapshot's models with another's
// rule.
func (r *Registry) current() (*Registry, Access) {
	if r.live == nil {
		return r, nil
	}
	s := r.live.cur.Load()
	return s.reg, s.access
}

// LookupFor is Lookup for a user: a model the access rule refuses them is
// an *UnknownModelError, word for word the one of an absent id.
func (r *Registry) LookupFor(ctx context.Context, userID int64, id string) (*Model, error) {
	snap, access := r.current()
	m, err := snap.Lookup(id)
	if err != nil || access == nil {
		return m, err
	}
	ok, err := access(ctx, userID, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &UnknownModelError{ID: id}
	}
	return m, nil
}

// OptionsFor is Options for a user: the models the access rule refuses
// them are left out.
func (r *Registry) OptionsFor(ctx context.Context, userID int64) ([]ModelOption, error) {
	snap, access := r.current()
	all := snap.Options()
	if access == nil {
		return all, nil
	}
	out := all[:0]
	for _, o := range all {
		ok, err := access(ctx, userID, o.ID)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, o)
		}
	}
	return out, nil
}

// Combine is a registry of base's models followed by extra's whose id
// base lacks; shadowed names the extra ids base won. Neither is changed.
func Combine(base, extra *Registry) (combined *Registry, shadowed []string) {
	base, extra = base.now(), extra.now()
	out := &Registry{byID: make(map[string]*Model, len(base.models)+len(extra.models))}
	for _, list := range [][]*Model{base.models, extra.models} {
		for _, m := range list {
			if _, dup := out.byID[m.ID()]; dup {
				shadowed = append(shadowed, m.ID())
				continue
			}
			out.models = append(out.models, m)
			out.byID[m.ID()] = m
		}
	}
	return out, shadowed
}

// NewHTTPClient is the provider client NewRegistry makes when given none;
// a caller that builds registries again and again shares one, so each
// does not open its own connections. Its transport keeps no goroutine
// for an open stream (h1); what it cannot carry, a SOCKS proxy, goes
// through net/http's.
func NewHTTPClient() *http.Client {
	fallback := http.DefaultTransport.(*http.Transport).Clone()
	fallback.ReadBufferSize, fallback.WriteBufferSize = upstreamBufSize, upstreamBufSize
	return &http.Client{Transport: &h1.Transport{BufSize: upstreamBufSize, Fallback: fallback}}
}
