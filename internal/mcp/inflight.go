package mcp

import (
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// inflight bounds each user's requests running at once, so one client in a
// loop cannot take every database connection from the others.
type inflight struct {
	max int
	mu  sync.Mutex
	n   map[int64]int
}

func newInflight(max int) *inflight { return &inflight{max: max, n: map[int64]int{}} }

func (f *inflight) acquire(user int64) (func(), error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[user] >= f.max {
		e := apierr.TooMany(apierr.CodeTooManyRequests, "you have %d MCP requests running; wait for one to finish", f.max)
		e.RetryAfter = time.Second
		return nil, e
	}
	f.n[user]++
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.n[user]--; f.n[user] == 0 {
			delete(f.n, user)
		}
	}, nil
}
