package turn

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
)

// A detached turn's events go to the table in batches: what came within
// flushEvery of the first unwritten one, at most flushEvents per write.
// A turn never waits for the write, and a write's cost is shared by the
// deltas of 100 ms.
const (
	flushEvery  = 100 * time.Millisecond
	flushEvents = 500
	// flushGiveUp bounds the retries of the last writes once the turn ended.
	flushGiveUp = 10 * time.Second
)

// persister writes a detached turn's journal to the table. Its writes run
// from timers, so a turn that waits for its model holds no goroutine for
// them; done closes when every event is written, or, the database
// failing, flushGiveUp after the journal closed.
type persister struct {
	r    *Running
	done chan struct{}

	mu           sync.Mutex
	after        int  // the last id written
	busy         bool // a write is scheduled or running
	finished     bool
	failingSince time.Time
}

func newPersister(r *Running) *persister { return &persister{r: r, done: make(chan struct{})} }

// kick says the journal has new events, or closed: a write is scheduled
// flushEvery from now, at once for a closed journal, unless one is.
func (p *persister) kick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busy || p.finished {
		return
	}
	p.busy = true
	_, _, _, closed := p.r.journal.since(p.after)
	time.AfterFunc(p.delay(closed), p.flush)
}

func (p *persister) delay(closed bool) time.Duration {
	if closed {
		return 0
	}
	return flushEvery
}

// flush writes one batch, then schedules the next while events wait.
func (p *persister) flush() {
	j, id := p.r.journal, p.r.Stored.MessageID
	p.mu.Lock()
	after := p.after
	p.mu.Unlock()
	evs, _, _, closed := j.since(after)
	evs = evs[:min(len(evs), flushEvents)]
	var err error
	if len(evs) > 0 {
		err = p.r.svc.Chat.Store.AppendTurnEvents(context.WithoutCancel(p.r.ctx), encodeEvents(id, evs))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case err != nil:
		if p.failingSince.IsZero() {
			p.failingSince = time.Now()
			slog.Warn("write a turn's events", "message", id, "err", err)
		}
		if closed && time.Since(p.failingSince) > flushGiveUp {
			p.finish()
			return
		}
		time.AfterFunc(flushEvery, p.flush)
		return
	case len(evs) > 0:
		p.failingSince = time.Time{}
		p.after = evs[len(evs)-1].ID
		j.written(p.after)
	}
	rest, _, _, closed := j.since(p.after)
	switch {
	case len(rest) == 0 && closed:
		p.finish()
	case len(rest) == 0:
		p.busy = false
	case len(rest) >= flushEvents:
		time.AfterFunc(0, p.flush)
	default:
		time.AfterFunc(p.delay(closed), p.flush)
	}
}

func (p *persister) finish() {
	p.busy, p.finished = false, true
	close(p.done)
}

// isEnd says e ends a stream.
func isEnd(e agent.Event) bool { return e.Name == agent.EventDone || e.Name == agent.EventError }
