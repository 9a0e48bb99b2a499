package turn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// DefaultDetachedTimeout is how long a detached turn runs with nobody
// following it (turns.detached_timeout).
const DefaultDetachedTimeout = 10 * time.Minute

// keepFinished is how long a finished detached turn's events stay for a
// client that comes back to read its end.
const keepFinished = 2 * time.Minute

// detachedTurns finds a detached turn by its answer message.
type detachedTurns struct {
	mu        sync.Mutex
	byMessage map[int64]*Running
	sweeping  bool // the sweeper runs
}

// running is the detached turns still running; nil when there are none,
// and then the sweeper, which called it, is taken to stop.
func (d *detachedTurns) running() []*Running {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*Running
	for _, r := range d.byMessage {
		if r.ctx.Err() == nil {
			out = append(out, r)
		}
	}
	if out == nil {
		d.sweeping = false
	}
	return out
}

func (d *detachedTurns) add(messageID int64, r *Running) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.byMessage[messageID] = r
}

func (d *detachedTurns) forget(messageID int64, r *Running) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byMessage[messageID] == r {
		delete(d.byMessage, messageID)
	}
}

// find is the caller's detached turn writing (or lately written) the
// message; another user's is not found, as one that does not exist.
func (s *Service) find(c kb.Caller, messageID int64) (*Running, error) {
	s.detached.mu.Lock()
	r := s.detached.byMessage[messageID]
	s.detached.mu.Unlock()
	if r == nil || r.req.Caller.ID != c.ID || c.Scoped() && !c.SeesURI(r.Scope.URI) {
		return nil, noAnswer(messageID)
	}
	return r, nil
}

// Follow reads a detached turn's events after id after (the SSE
// Last-Event-ID), then each new one until the turn ends or ctx does:
// from this replica's journal when it runs here, else from the events
// table. A turn whose events are gone answers with its stored message.
func (s *Service) Follow(ctx context.Context, c kb.Caller, messageID int64, after int) (agent.Feed, error) {
	if r, err := s.find(c, messageID); err == nil {
		return r.follow(after), nil
	}
	a, row, err := s.elsewhere(ctx, c, messageID)
	if err != nil {
		return nil, err
	}
	if row != nil {
		return s.followTable(messageID, after), nil
	}
	if a.Status == store.MessageStreaming {
		return nil, noAnswer(messageID)
	}
	return sendAll(storedEvents(a), after), nil
}

// elsewhere loads the caller's answer not running here, and its detached
// turn's row when there is one (running on another replica, or ended with
// its events still kept).
func (s *Service) elsewhere(ctx context.Context, c kb.Caller, messageID int64) (chat.Answer, *store.RunningTurn, error) {
	if s.Chat == nil {
		return chat.Answer{}, nil, noAnswer(messageID)
	}
	s.startReplica()
	a, err := s.Chat.AnswerOf(ctx, c, messageID)
	if errors.Is(err, chat.ErrNoAnswer) {
		return a, nil, noAnswer(messageID)
	}
	if err != nil {
		return a, nil, err
	}
	row, err := s.Chat.Store.RunningTurnOf(ctx, messageID)
	if errors.Is(err, store.ErrNotFound) || err == nil && !row.Detached {
		return a, nil, nil
	}
	if err != nil {
		return a, nil, err
	}
	return a, &row, nil
}

// Stop ends a detached turn at once, as Stop in the web app does; one
// running on another replica is asked to stop through the database.
func (s *Service) Stop(ctx context.Context, c kb.Caller, messageID int64) error {
	if r, err := s.find(c, messageID); err == nil {
		r.cancel()
		return nil
	}
	_, row, err := s.elsewhere(ctx, c, messageID)
	if err != nil {
		return err
	}
	if row == nil {
		return noAnswer(messageID)
	}
	if row.Ended != 0 {
		return nil
	}
	return s.Chat.Store.RequestTurnStop(ctx, messageID)
}

// runDetached runs the turn to its end without a door, then ends it as a
// door would: counted, stored, its stream freed.
func (r *Running) runDetached(runner *agent.Runner, t agent.Turn) {
	r.run(runner, t, func(e agent.Event) {
		r.journal.add(e)
		r.persist.kick()
	})
	r.end(r.shutdown.Load())
	r.journal.close()
	r.persist.kick()
	<-r.persist.done
	r.endRunning()
	messageID := t.Stored.MessageID
	time.AfterFunc(keepFinished, func() { r.svc.detached.forget(messageID, r) })
}

// watchedElsewhere says a client on another replica followed the turn
// within the timeout.
func (r *Running) watchedElsewhere(now time.Time, timeout time.Duration) bool {
	row, err := r.svc.Chat.Store.RunningTurnOf(r.ctx, r.Stored.MessageID)
	return err == nil && row.Watched >= store.Millis(now.Add(-timeout))
}

// sweepDetached makes sure the sweeper runs: one goroutine for all of this
// replica's detached turns, while any runs, rather than one per turn.
func (s *Service) sweepDetached() {
	s.detached.mu.Lock()
	defer s.detached.mu.Unlock()
	if !s.detached.sweeping {
		s.detached.sweeping = true
		go s.sweep()
	}
}

// sweep ends each detached turn nobody has followed for the timeout, and
// every one when the server stops; it returns when none runs.
func (s *Service) sweep() {
	timeout := s.detachedTimeout()
	tick := time.NewTicker(min(max(timeout/10, 50*time.Millisecond), 5*time.Second))
	defer tick.Stop()
	shutdown, stopping := s.Shutdown, false
	for {
		select {
		case <-shutdown:
			shutdown, stopping = nil, true
		case <-tick.C:
		}
		now := time.Now()
		running := s.detached.running()
		if running == nil {
			return
		}
		for _, r := range running {
			switch {
			case stopping:
				r.shutdown.Store(true)
				r.cancel()
			case r.journal.aloneFor(now) >= timeout && !r.watchedElsewhere(now, timeout):
				r.stopReason = &chat.Error{Code: "stopped", Message: fmt.Sprintf("no client followed this answer for %v (turns.detached_timeout), so it was stopped", timeout)}
				r.cancel()
			}
		}
	}
}
