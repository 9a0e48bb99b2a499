package turn

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/store"
)

// Reading the events table: a page of events; how often a follower of a
// turn on another replica reads it when no notification came (the whole
// of it on SQLite, which has none, and the fallback on PostgreSQL).
const (
	tablePage  = 1000
	remotePoll = 500 * time.Millisecond
)

// journalFeed follows a turn running on this replica through its
// journal; events the journal no longer holds come from the table. While
// it is open it counts as someone watching, which keeps a detached turn
// alive.
type journalFeed struct {
	r     *Running
	after int
	done  atomic.Bool
}

func (r *Running) follow(after int) *journalFeed {
	r.journal.watch(1, time.Time{})
	return &journalFeed{r: r, after: after}
}

func (f *journalFeed) Next(ctx context.Context) ([]agent.Event, <-chan struct{}, bool) {
	if f.done.Load() {
		return nil, nil, true
	}
	evs, gone, changed, closed := f.r.journal.since(f.after)
	if gone {
		rows, err := f.r.svc.Chat.Store.TurnEventsAfter(ctx, f.r.Stored.MessageID, f.after, tablePage)
		if err != nil || len(rows) == 0 {
			// Dropped events are written first, so only a database
			// failure gets here: the follower reconnects later.
			slog.Warn("read a turn's events", "message", f.r.Stored.MessageID, "err", err)
			return nil, nil, true
		}
		evs, closed = decodeEvents(rows), false
	}
	if len(evs) > 0 {
		f.after = evs[len(evs)-1].ID
		return evs, nil, false
	}
	return nil, changed, closed
}

func (f *journalFeed) Close() {
	if f.done.CompareAndSwap(false, true) {
		f.r.journal.watch(-1, time.Now())
	}
}

// OnReady calls fn once the journal holds events after those Next
// returned, or has closed: at once if it already does.
func (f *journalFeed) OnReady(fn func()) { f.r.journal.onChange(f.after, fn) }

// tableFeed follows a detached turn through the events table: one running
// on another replica, or one ended whose journal is gone. It ends at the
// turn's done or error; when the table has none (the replica running it
// died, or the last write failed), at the stored answer's end. A
// notification wakes it, and a poll when none comes: every remotePoll, or
// more often when it must say it watches more often.
type tableFeed struct {
	s         *Service
	id        int64
	after     int
	wake      chan struct{}
	poll      *time.Timer
	polled    atomic.Bool
	nextWatch time.Time
	done      bool
}

func (s *Service) followTable(messageID int64, after int) *tableFeed {
	f := &tableFeed{s: s, id: messageID, after: after, wake: s.wakers.add(messageID)}
	f.poll = time.AfterFunc(f.every(), func() {
		f.polled.Store(true)
		select {
		case f.wake <- struct{}{}:
		default:
		}
	})
	return f
}

func (f *tableFeed) Next(ctx context.Context) ([]agent.Event, <-chan struct{}, bool) {
	if f.done {
		return nil, nil, true
	}
	st := f.s.Chat.Store
	if now := time.Now(); now.After(f.nextWatch) {
		// Someone follows: the running replica's timeout waits.
		_ = st.WatchRunningTurn(ctx, f.id)
		f.nextWatch = now.Add(f.s.watchEvery())
	}
	checkEnd := f.polled.Swap(false)
	rows, err := st.TurnEventsAfter(ctx, f.id, f.after, tablePage)
	if err == nil && len(rows) > 0 {
		evs := decodeEvents(rows)
		for i, e := range evs {
			if isEnd(e) {
				evs, f.done = evs[:i+1], true
				break
			}
		}
		f.after = evs[len(evs)-1].ID
		return evs, nil, f.done
	}
	if err == nil && checkEnd {
		if e, ended := f.s.endedWithout(ctx, f.id, f.after); ended {
			f.done = true
			return []agent.Event{e}, nil, true
		}
	}
	f.poll.Reset(f.every())
	return nil, f.wake, false
}

func (f *tableFeed) every() time.Duration { return min(remotePoll, f.s.watchEvery()) }

func (f *tableFeed) Close() {
	f.poll.Stop()
	f.s.wakers.remove(f.id, f.wake)
}

// endedWithout tells whether a turn followed through the table ended with
// no end written there (all its events were read): its replica died, or
// its writes failed. The stored answer's end is then its end.
func (s *Service) endedWithout(ctx context.Context, messageID int64, after int) (agent.Event, bool) {
	st := s.Chat.Store
	row, err := st.RunningTurnOf(ctx, messageID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return agent.Event{}, false
	}
	live := err == nil && row.Ended == 0 && row.Beat >= store.Millis(time.Now().Add(-Lease))
	if live {
		return agent.Event{}, false
	}
	if rows, err := st.TurnEventsAfter(ctx, messageID, after, 1); err != nil || len(rows) > 0 {
		return agent.Event{}, false // written meanwhile: read on
	}
	m, err := st.MessageOnly(ctx, messageID)
	if err != nil {
		return agent.Event{}, false
	}
	var e agent.Event
	if m.Status == store.MessageStreaming {
		e = agent.Event{Name: agent.EventError, Data: agent.ErrorData{Code: "interrupted", Message: interruptedMessage}}
	} else {
		a := chat.Answer{Message: chat.Message{Status: m.Status, Estimate: m.Estimate}}
		if m.ErrorCode != "" {
			a.Error = &chat.Error{Code: m.ErrorCode, Message: m.ErrorMessage}
		}
		if m.Usage != "" {
			a.Usage = json.RawMessage(m.Usage)
		}
		e = storedEnd(a)
	}
	e.ID = after + 1
	return e, true
}

// encodeEvents is events as the table keeps them.
func encodeEvents(messageID int64, evs []agent.Event) []store.TurnEvent {
	out := make([]store.TurnEvent, 0, len(evs))
	for _, e := range evs {
		data, err := json.Marshal(e.Data)
		if err != nil {
			data = []byte(`{}`)
		}
		out = append(out, store.TurnEvent{MessageID: messageID, ID: e.ID, Name: e.Name, Data: string(data)})
	}
	return out
}

// decodeEvents is rows as events again: text is decoded, so the writer
// joins queued deltas as it does live; the rest is sent as it was kept.
func decodeEvents(rows []store.TurnEvent) []agent.Event {
	out := make([]agent.Event, 0, len(rows))
	for _, r := range rows {
		e := agent.Event{Name: r.Name, ID: r.ID, Data: json.RawMessage(r.Data)}
		if r.Name == agent.EventDelta || r.Name == agent.EventReasoning {
			var d agent.TextData
			if json.Unmarshal([]byte(r.Data), &d) == nil {
				e.Data = d
			}
		}
		out = append(out, e)
	}
	return out
}
