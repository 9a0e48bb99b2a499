package turn

import (
	"context"
	"log/slog"
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

// persist writes the journal's events to the table until it is closed
// and all are written (or, the database failing, flushGiveUp after).
func (r *Running) persist() {
	defer close(r.persisted)
	j, st, id := r.journal, r.svc.Chat.Store, r.Stored.MessageID
	ctx := context.WithoutCancel(r.ctx)
	after := 0
	var failingSince time.Time
	for {
		evs, _, changed, closed := j.since(after)
		if len(evs) == 0 {
			if closed {
				return
			}
			<-changed
			continue
		}
		if !closed {
			// Gather what comes in the next moment into the same write.
			select {
			case <-time.After(flushEvery):
			case <-j.done:
			}
			evs, _, _, _ = j.since(after)
		}
		evs = evs[:min(len(evs), flushEvents)]
		if err := st.AppendTurnEvents(ctx, encodeEvents(id, evs)); err != nil {
			if failingSince.IsZero() {
				failingSince = time.Now()
				slog.Warn("write a turn's events", "message", id, "err", err)
			}
			if closed && time.Since(failingSince) > flushGiveUp {
				return
			}
			time.Sleep(flushEvery)
			continue
		}
		failingSince = time.Time{}
		after = evs[len(evs)-1].ID
		j.written(after)
	}
}

// isEnd says e ends a stream.
func isEnd(e agent.Event) bool { return e.Name == agent.EventDone || e.Name == agent.EventError }
