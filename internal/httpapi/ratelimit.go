package httpapi

import (
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// rateLimiter allows each key max events per window, counted over a
// sliding window. It is in memory, per replica.
type rateLimiter struct {
	mu     sync.Mutex
	max    int
	window time.Duration
	per    string // the window in words, for the message
	now    func() time.Time
	events map[int64][]time.Time
}

func newRateLimiter(max int, window time.Duration, per string) *rateLimiter {
	return &rateLimiter{max: max, window: window, per: per, now: time.Now, events: map[int64][]time.Time{}}
}

// allow records one event of key, or answers 429 code with Retry-After set
// to when the oldest event of the window leaves it.
func (l *rateLimiter) allow(key int64, code apierr.Code, what string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	kept := l.events[key][:0]
	for _, t := range l.events[key] {
		if now.Sub(t) < l.window {
			kept = append(kept, t)
		}
	}
	if len(kept) >= l.max {
		l.events[key] = kept
		e := apierr.TooMany(code, "at most %d %s %s; try again shortly", l.max, what, l.per)
		e.RetryAfter = kept[0].Add(l.window).Sub(now)
		return e
	}
	l.events[key] = append(kept, now)
	// Idle keys go, so the map holds only recent callers.
	if len(l.events) > 1000 {
		for k, ts := range l.events {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= l.window {
				delete(l.events, k)
			}
		}
	}
	return nil
}
