package turn

import (
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
)

// journal keeps a detached turn's events in order, each with its id (1, 2,
// …), so a client that comes back reads on after the last it saw, and
// knows when nobody has followed for a while. It holds at most about
// maxBytes of them in memory: once an event is in the events table
// (persisted), it may be dropped from the front, and a follower that needs
// it reads it from the table. An event not yet written is never dropped,
// so while the database is down the journal grows, up to maxJournal events.
type journal struct {
	mu        sync.Mutex
	events    []agent.Event
	base      int // the id before events[0]
	bytes     int // the estimated size of events
	maxBytes  int
	persisted int // the last id written to the table
	closed    bool
	changed   chan struct{} // closed and replaced at each add and at close
	done      chan struct{} // closed at close
	followers int
	alone     time.Time // since when nobody follows; zero while someone does
	listeners []func()  // called once at the next add or close
}

// maxJournal bounds the events of one turn; the limits of a turn (steps,
// tool calls, output) keep real ones far below it.
const maxJournal = 200_000

// DefaultJournalBytes is how much of a detached turn's events a replica
// keeps in memory (Service.JournalBytes).
const DefaultJournalBytes = 256 << 10

func newJournal(now time.Time, maxBytes int) *journal {
	if maxBytes <= 0 {
		maxBytes = DefaultJournalBytes
	}
	return &journal{changed: make(chan struct{}), done: make(chan struct{}), alone: now, maxBytes: maxBytes}
}

// eventSize estimates what an event holds in memory.
func eventSize(e agent.Event) int {
	const overhead = 96
	switch d := e.Data.(type) {
	case agent.TextData:
		return overhead + len(d.Text)
	case agent.ToolResultData:
		return overhead + 256 + d.Bytes
	case agent.ToolCallData:
		return overhead + len(d.Arguments)
	}
	return overhead + 256
}

func (j *journal) add(e agent.Event) {
	j.mu.Lock()
	defer j.mu.Unlock()
	last := j.base + len(j.events)
	if j.closed || last >= maxJournal && e.Name != agent.EventDone && e.Name != agent.EventError {
		return
	}
	e.ID = last + 1
	j.events = append(j.events, e)
	j.bytes += eventSize(e)
	j.trim()
	close(j.changed)
	j.changed = make(chan struct{})
	j.tell()
}

// tell calls the listeners, each once, outside the lock (a listener may
// read the journal).
func (j *journal) tell() {
	if len(j.listeners) == 0 {
		return
	}
	ls := j.listeners
	j.listeners = nil
	j.mu.Unlock()
	defer j.mu.Lock()
	for _, fn := range ls {
		fn()
	}
}

// onChange calls fn once there are events after id after, or the journal
// has closed: at once when there already are.
func (j *journal) onChange(after int, fn func()) {
	j.mu.Lock()
	ready := j.closed || j.base+len(j.events) > after
	if !ready {
		j.listeners = append(j.listeners, fn)
	}
	j.mu.Unlock()
	if ready {
		fn()
	}
}

// trim drops written events from the front down to half the bound, into a
// new slice so the old array is freed; halving makes the copies rare.
func (j *journal) trim() {
	if j.bytes <= j.maxBytes {
		return
	}
	n := 0
	for n < len(j.events) && j.bytes > j.maxBytes/2 && j.events[n].ID <= j.persisted {
		j.bytes -= eventSize(j.events[n])
		n++
	}
	if n == 0 {
		return
	}
	j.base += n
	j.events = append(make([]agent.Event, 0, len(j.events)-n+64), j.events[n:]...)
}

// written records that the events up to id are in the table.
func (j *journal) written(id int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.persisted = max(j.persisted, id)
	j.trim()
}

func (j *journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.closed {
		j.closed = true
		close(j.changed)
		close(j.done)
		j.tell()
	}
}

// since is the events after id after still in memory, a channel closed
// when more come, and whether no more will. gone says events after after
// were dropped from memory: read them from the table first.
func (j *journal) since(after int) (evs []agent.Event, gone bool, changed <-chan struct{}, closed bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if after < j.base {
		return nil, true, j.changed, j.closed
	}
	after = min(after-j.base, len(j.events))
	return j.events[after:], false, j.changed, j.closed
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

// aloneFor is how long nobody has followed here (0 while someone does).
func (j *journal) aloneFor(now time.Time) time.Duration {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.followers > 0 || j.alone.IsZero() {
		return 0
	}
	return now.Sub(j.alone)
}
