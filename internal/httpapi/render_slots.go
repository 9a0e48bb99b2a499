package httpapi

import (
	"context"
	"sync"
)

// renderSlots hands out the server's render slots (a child process each),
// at most half of them to one user at a time: a preview asks for a few
// pages together, and one user asking for many must not take every slot
// from the others. A request waits for its user's turn before the
// server's, holding no copy of the file.
type renderSlots struct {
	all     chan struct{}
	perUser int

	mu    sync.Mutex
	users map[int64]chan struct{}
}

func newRenderSlots(n int) *renderSlots {
	return &renderSlots{all: make(chan struct{}, n), perUser: max(1, n/2), users: map[int64]chan struct{}{}}
}

// acquire waits for a slot for user; release it with the returned func.
// It fails only when ctx ends first.
func (r *renderSlots) acquire(ctx context.Context, user int64) (func(), error) {
	r.mu.Lock()
	mine, ok := r.users[user]
	if !ok {
		mine = make(chan struct{}, r.perUser)
		r.users[user] = mine
	}
	r.mu.Unlock()
	select {
	case mine <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r.all <- struct{}{}:
	case <-ctx.Done():
		<-mine
		return nil, ctx.Err()
	}
	return func() { <-r.all; <-mine }, nil
}
