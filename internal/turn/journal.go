package turn

import (
	"context"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
)

// journal keeps a detached turn's events in order, each with its id (1, 2,
// …), so a client that comes back reads on after the last it saw, and
// knows when nobody has followed for a while.
type journal struct {
	mu        sync.Mutex
	events    []agent.Event
	closed    bool
	changed   chan struct{} // closed and replaced at each add and at close
	followers int
	alone     time.Time // since when nobody follows; zero while someone does
}

// maxJournal bounds the events kept for one turn; the limits of a turn
// (steps, tool calls, output) keep real ones far below it.
const maxJournal = 200_000

func newJournal(now time.Time) *journal {
	return &journal{changed: make(chan struct{}), alone: now}
}

func (j *journal) add(e agent.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed || len(j.events) >= maxJournal && e.Name != agent.EventDone && e.Name != agent.EventError {
		return
	}
	e.ID = len(j.events) + 1
	j.events = append(j.events, e)
	close(j.changed)
	j.changed = make(chan struct{})
}

func (j *journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.closed {
		j.closed = true
		close(j.changed)
	}
}

// since is the events after id after, a channel closed when more come, and
// whether no more will.
func (j *journal) since(after int) ([]agent.Event, <-chan struct{}, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	after = min(max(after, 0), len(j.events))
	return j.events[after:], j.changed, j.closed
}

// follow sends the events after id after, then each new one, until the
// turn ends or ctx does; the channel closes then. Following counts as
// someone watching, which keeps a detached turn alive.
func (j *journal) follow(ctx context.Context, after int) <-chan agent.Event {
	out := make(chan agent.Event, eventQueue)
	j.watch(1, time.Time{})
	go func() {
		defer close(out)
		defer j.watch(-1, time.Now())
		for {
			evs, changed, closed := j.since(after)
			for _, e := range evs {
				select {
				case out <- e:
					after = e.ID
				case <-ctx.Done():
					return
				}
			}
			if closed && len(evs) == 0 {
				return
			}
			if len(evs) == 0 {
				select {
				case <-changed:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}

func (j *journal) watch(delta int, now time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.followers += delta
	if j.followers == 0 {
		j.alone = now
	} else {
		j.alone = time.Time{}
	}
}

// aloneFor is how long nobody has followed (0 while someone does).
func (j *journal) aloneFor(now time.Time) time.Duration {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.followers > 0 || j.alone.IsZero() {
		return 0
	}
	return now.Sub(j.alone)
}
