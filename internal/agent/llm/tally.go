package llm

import (
	"context"
	"sync"
)

// Tally adds up the usage of every call made with one context: what one
// turn or job spent, for the budget it was admitted under to settle.
type Tally struct {
	mu     sync.Mutex
	tokens int64
	cost   float64
}

// Spent is the tokens (input and output) and cost added so far.
func (t *Tally) Spent() (tokens int64, cost float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tokens, t.cost
}

func (t *Tally) add(u CallUsage) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.tokens += int64(u.InputTokens + u.OutputTokens)
	t.cost += u.Cost
	t.mu.Unlock()
}

type tallyKey struct{}

// WithTally counts the calls made with ctx in t.
func WithTally(ctx context.Context, t *Tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

// TallyOf is the tally of ctx; nil when none counts its calls.
func TallyOf(ctx context.Context) *Tally {
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}
