package turn

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
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

// follow sends the events after id after, then each new one, until the
// turn ends or ctx does; the channel closes then. Following counts as
// someone watching, which keeps a detached turn alive. Events the journal
// no longer holds come from the table.
func (r *Running) follow(ctx context.Context, after int) <-chan agent.Event {
	out := make(chan agent.Event, eventQueue)
	j := r.journal
	j.watch(1, time.Time{})
	go func() {
		defer close(out)
		defer j.watch(-1, time.Now())
		for {
			evs, gone, changed, closed := j.since(after)
			if gone {
				rows, err := r.svc.Chat.Store.TurnEventsAfter(ctx, r.Stored.MessageID, after, tablePage)
				if err != nil || len(rows) == 0 {
					// Dropped events are written first, so only a database
					// failure gets here: the follower reconnects later.
					slog.Warn("read a turn's events", "message", r.Stored.MessageID, "err", err)
					return
				}
				evs = decodeEvents(rows)
			}
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

// followTable follows a detached turn through the events table: one
// running on another replica, or one ended whose journal is gone. It ends
// at the turn's done or error; when the table has none (the replica
// running it died, or the last write failed), at the stored answer's end.
func (s *Service) followTable(ctx context.Context, messageID int64, after int) <-chan agent.Event {
	out := make(chan agent.Event, eventQueue)
	wake := s.wakers.add(messageID)
	st := s.Chat.Store
	go func() {
		defer close(out)
		defer s.wakers.remove(messageID, wake)
		poll, watch := time.NewTicker(remotePoll), time.NewTicker(s.watchEvery())
		defer poll.Stop()
		defer watch.Stop()
		// Someone follows: the running replica's timeout waits.
		_ = st.WatchRunningTurn(ctx, messageID)
		checkEnd := false
		for {
			rows, err := st.TurnEventsAfter(ctx, messageID, after, tablePage)
			if err == nil {
				for _, e := range decodeEvents(rows) {
					select {
					case out <- e:
						after = e.ID
					case <-ctx.Done():
						return
					}
					if isEnd(e) {
						return
					}
				}
				if len(rows) == tablePage {
					continue
				}
				if checkEnd && len(rows) == 0 {
					if e, ended := s.endedWithout(ctx, messageID, after); ended {
						select {
						case out <- e:
						case <-ctx.Done():
						}
						return
					}
				}
			}
			checkEnd = false
			for woke := false; !woke; {
				select {
				case <-ctx.Done():
					return
				case <-watch.C:
					_ = st.WatchRunningTurn(ctx, messageID)
				case <-wake:
					woke = true
				case <-poll.C:
					woke, checkEnd = true, true
				}
			}
		}
	}()
	return out
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
