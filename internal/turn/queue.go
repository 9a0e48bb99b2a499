package turn

import (
	"context"
	"sync"

	"github.com/knowspace/knowspace/internal/agent"
)

// queue carries an attached turn's events to its one writer, which pulls
// them (an agent.Feed, and a Notifier for a writer that holds no
// goroutine). The runner waits while eventQueue events are unread, so a
// slow client slows its turn rather than filling the server; the writer
// takes all that waits at once, so a fast model costs one write per
// batch. The writer's Close is the client gone: it ends the turn.
type queue struct {
	mu     sync.Mutex
	evs    []agent.Event
	spare  []agent.Event // the slice the writer had, reused
	closed bool          // the turn has said its last
	left   bool          // the writer closed the feed
	ready  chan struct{} // closed at the next put or close; nil if nobody waits
	space  chan struct{} // closed when the writer takes events; nil if the runner does not wait
	listen func()        // called once at the next put or close
	leave  func()        // ends the turn
}

func newQueue(leave func()) *queue { return &queue{leave: leave} }

// put queues e for the writer, waiting while the queue is full, until
// the writer takes some, leaves, or ctx ends; an event put after ctx
// ended (the turn's last word on why it stopped) is queued all the same.
func (q *queue) put(ctx context.Context, e agent.Event) {
	q.mu.Lock()
	for len(q.evs) >= eventQueue && !q.left && ctx.Err() == nil {
		if q.space == nil {
			q.space = make(chan struct{})
		}
		space := q.space
		q.mu.Unlock()
		select {
		case <-space:
		case <-ctx.Done():
		}
		q.mu.Lock()
	}
	if q.left || q.closed {
		q.mu.Unlock()
		return
	}
	q.evs = append(q.evs, e)
	q.wake()
}

// close says the turn has said its last.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.wake()
}

// wake tells whoever waits for events, and unlocks.
func (q *queue) wake() {
	ready, listen := q.ready, q.listen
	q.ready, q.listen = nil, nil
	q.mu.Unlock()
	if ready != nil {
		close(ready)
	}
	if listen != nil {
		listen()
	}
}

// Next hands the writer every event queued, or a channel ready when
// there are more.
func (q *queue) Next(context.Context) ([]agent.Event, <-chan struct{}, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.left {
		return nil, nil, true
	}
	if len(q.evs) > 0 || q.closed {
		evs := q.evs
		clear(q.spare)
		q.evs, q.spare = q.spare[:0], evs
		if q.space != nil {
			close(q.space)
			q.space = nil
		}
		return evs, nil, q.closed
	}
	if q.ready == nil {
		q.ready = make(chan struct{})
	}
	return nil, q.ready, false
}

// OnReady calls fn once there are events or the end: at once if there
// already are.
func (q *queue) OnReady(fn func()) {
	q.mu.Lock()
	if len(q.evs) > 0 || q.closed || q.left {
		q.mu.Unlock()
		fn()
		return
	}
	q.listen = fn
	q.mu.Unlock()
}

// Close is the writer done, at the turn's end or because its client
// left; the turn ends with it.
func (q *queue) Close() {
	q.mu.Lock()
	if q.left {
		q.mu.Unlock()
		return
	}
	q.left, q.evs, q.spare = true, nil, nil
	if q.space != nil {
		close(q.space)
		q.space = nil
	}
	q.mu.Unlock()
	q.leave()
}
