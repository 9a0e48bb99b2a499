package store

import (
	"context"
	"sync/atomic"
	"time"
)

// SQLite has one write lock and no queue: a background writer (the index
// writer, the embedder) that takes it between two uploads makes the next
// upload wait its whole transaction. On SQLite a background transaction
// therefore waits, before it begins, until no foreground transaction has
// run for yieldQuiet, or at most yieldBudget, so that a steady stream of
// writes slows background work down without stopping it.
const (
	yieldQuiet  = 5 * time.Millisecond
	yieldBudget = 250 * time.Millisecond
)

type backgroundKey struct{}

// Background marks ctx as background work: on SQLite its transactions let
// the foreground's go first.
func Background(ctx context.Context) context.Context {
	return context.WithValue(ctx, backgroundKey{}, true)
}

func isBackground(ctx context.Context) bool {
	b, _ := ctx.Value(backgroundKey{}).(bool)
	return b
}

// writeGate counts the foreground transactions running and when the last
// one ended.
type writeGate struct {
	active atomic.Int64
	last   atomic.Int64 // unix nanoseconds
}

func (g *writeGate) enter() func() {
	g.active.Add(1)
	return func() {
		g.last.Store(time.Now().UnixNano())
		g.active.Add(-1)
	}
}

func (g *writeGate) yield(ctx context.Context) {
	give := time.Now().Add(yieldBudget)
	for time.Now().Before(give) {
		if g.active.Load() == 0 && time.Since(time.Unix(0, g.last.Load())) >= yieldQuiet {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// Staging marks a request's write under way outside a transaction (an
// upload's body being stored) until done is called: a background writer
// that took the lock or a core meanwhile would make the write's own
// transaction, a moment later, wait for it.
func (s *Store) Staging() (done func()) {
	if s.gate == nil || s.dialect != DialectSQLite {
		return func() {}
	}
	return s.gate.enter()
}

// Yield waits as a background transaction of ctx would before it begins,
// for background work that is heavy outside its transactions too.
func (s *Store) Yield(ctx context.Context) {
	if s.gate != nil && s.dialect == DialectSQLite && isBackground(ctx) {
		s.gate.yield(ctx)
	}
}

// Pause waits, on SQLite, for as long as a background transaction of ctx
// took (at least a millisecond), so that a request's transaction waiting
// for the lock gets it before the next one; with none waiting or running
// there is nobody to let in.
func (s *Store) Pause(ctx context.Context, took time.Duration) {
	if s.dialect != DialectSQLite || s.gate != nil && s.gate.active.Load() == 0 {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(max(took, time.Millisecond)):
	}
}
