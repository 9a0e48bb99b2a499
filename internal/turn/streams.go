package turn

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/observe"
)

func tooMany(max int) error {
	return apierr.TooMany(apierr.CodeTooManyStreams, "you already have %d answers streaming, the most one user may have; stop one or wait for it to finish", max).WithDetail("max", max)
}

// DefaultStreamsPerUser is limits.streams_per_user unless configured.
const DefaultStreamsPerUser = 4

// streamRegistry counts each user's open chat streams, so one user cannot
// hold every model connection, and can end them all when the account is
// disabled.
type streamRegistry struct {
	mu   sync.Mutex
	max  int
	next uint64 // stream keys; pointers to empty structs may all be equal
	open map[int64]map[uint64]context.CancelFunc
}

func newStreamRegistry(max int) *streamRegistry {
	if max <= 0 {
		max = DefaultStreamsPerUser
	}
	return &streamRegistry{max: max, open: map[int64]map[uint64]context.CancelFunc{}}
}

// enter registers a stream of the user; the returned release must be called
// when it ends. Past the limit it answers 429 too_many_streams.
func (r *streamRegistry) enter(userID int64, cancel context.CancelFunc) (release func(), err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	mine := r.open[userID]
	if len(mine) >= r.max {
		return nil, tooMany(len(mine))
	}
	if mine == nil {
		mine = map[uint64]context.CancelFunc{}
		r.open[userID] = mine
	}
	r.next++
	key := r.next
	mine[key] = cancel
	observe.StreamOpened()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if _, ok := mine[key]; ok {
			observe.StreamClosed()
		}
		delete(mine, key)
		if len(mine) == 0 {
			delete(r.open, userID)
		}
	}, nil
}

// mine is the number of the user's streams open on this replica.
func (r *streamRegistry) mine(userID int64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.open[userID])
}

// endUser cancels every open stream of the user.
func (r *streamRegistry) endUser(userID int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, cancel := range r.open[userID] {
		cancel()
	}
}

// drainPoll is how often Drain looks whether the turns have ended.
const drainPoll = 10 * time.Millisecond

// Drain waits until no turn runs on this replica (after Shutdown has
// closed, each is ending), or ctx ends.
func (s *Service) Drain(ctx context.Context) error {
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for s.streams.count() > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d turns still running: %w", s.streams.count(), ctx.Err())
		case <-tick.C:
		}
	}
	return nil
}

// count is the number of streams open on this replica.
func (r *streamRegistry) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, mine := range r.open {
		n += len(mine)
	}
	return n
}
