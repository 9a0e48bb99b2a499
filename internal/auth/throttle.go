package auth

import (
	"sync"
	"time"
)

// Throttle slows down password guessing per account and per address: once a
// key has failed a few times, each failure locks it for a period that doubles
// with every further failure, up to a ceiling.
// It is in memory, per process; replicas each apply it.
type Throttle struct {
	mu      sync.Mutex
	entries map[string]*throttleEntry
	now     func() time.Time
}

type throttleEntry struct {
	failures int
	last     time.Time
	until    time.Time
}

// Throttle tuning.
const (
	accountFailuresBeforeLock = 5
	addressFailuresBeforeLock = 20
	maxLockout                = 5 * time.Minute
	forgetAfter               = 15 * time.Minute
	maxThrottleEntries        = 100_000
)

// NewThrottle builds an empty throttle.
func NewThrottle() *Throttle {
	return &Throttle{entries: map[string]*throttleEntry{}, now: time.Now}
}

// Wait reports how long the key must still wait before its next attempt.
func (t *Throttle) Wait(key string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	e := t.entries[key]
	if e == nil {
		return 0
	}
	if d := e.until.Sub(t.now()); d > 0 {
		return d
	}
	return 0
}

// Fail records a failed attempt; from the limit-th failure on, key is locked.
func (t *Throttle) Fail(key string, limit int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.entries) > maxThrottleEntries {
		t.prune(now)
	}
	e := t.entries[key]
	if e == nil || now.Sub(e.last) > forgetAfter {
		e = &throttleEntry{}
		t.entries[key] = e
	}
	e.failures++
	e.last = now
	if over := e.failures - limit; over >= 0 {
		d := time.Second << min(over, 16)
		e.until = now.Add(min(d, maxLockout))
	}
}

// Reset forgets a key after a successful login.
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.entries, key)
}

func (t *Throttle) prune(now time.Time) {
	for k, e := range t.entries {
		if now.Sub(e.last) > forgetAfter {
			delete(t.entries, k)
		}
	}
}
