package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/store"
)

// finishRetries are the pauses between attempts of a turn's final write:
// a database that restarts or a disk that frees up within a few seconds
// loses no answer, and the wait stays within the door's save timeout.
var finishRetries = []time.Duration{100 * time.Millisecond, 300 * time.Millisecond, time.Second, 3 * time.Second}

// UnsavedMessage explains a stored answer whose final write failed: it is
// settled as failed (interrupted), keeping what the client received; an
// answer that had failed anyway keeps its own error.
const UnsavedMessage = "the answer could not be saved when it ended (the database failed); what it said is kept, retry to answer again"

// unsavedTurns holds the answers whose final write gave up: their turns
// have ended, so nothing else will ever write them, and until they are
// settled their conversations would refuse every question as still
// answering. The zero value is ready.
type unsavedTurns struct {
	mu   sync.Mutex
	byID map[int64]store.ConversationMessage
}

func (u *unsavedTurns) add(m store.ConversationMessage) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byID == nil {
		u.byID = map[int64]store.ConversationMessage{}
	}
	u.byID[m.ID] = m
}

func (u *unsavedTurns) pending() []store.ConversationMessage {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]store.ConversationMessage, 0, len(u.byID))
	for _, m := range u.byID {
		out = append(out, m)
	}
	return out
}

func (u *unsavedTurns) done(id int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.byID, id)
}

// Finish stores what the turn produced with its final status, trying again
// while the database refuses. When it still cannot, the answer is kept to
// be settled as failed (interrupted) by the next request that reaches the
// store, and the error says the outcome was not stored.
func (s *Service) Finish(ctx context.Context, t Turn, o Outcome) error {
	m, err := finalMessage(t, o)
	if err != nil {
		return err
	}
	for attempt := 0; ; attempt++ {
		if err = s.Store.FinishMessage(ctx, m); err == nil {
			return nil
		}
		if attempt == len(finishRetries) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(finishRetries[attempt]):
		}
	}
	if m.Status != store.MessageFailed {
		m.Status, m.ErrorCode, m.ErrorMessage = store.MessageFailed, "interrupted", UnsavedMessage
	}
	s.unsaved.add(m)
	return fmt.Errorf("store the answer of message %d: %w", t.MessageID, err)
}

// settleUnsaved writes the answers whose final write gave up, now that a
// request reaches the store again.
func (s *Service) settleUnsaved(ctx context.Context) {
	for _, m := range s.unsaved.pending() {
		if err := s.Store.FinishMessage(ctx, m); err != nil {
			slog.Warn("settle an unsaved answer", "message", m.ID, "err", err)
			return
		}
		s.unsaved.done(m.ID)
		slog.Info("settled an answer whose final write had failed", "message", m.ID, "status", m.Status, "code", m.ErrorCode)
	}
}

// finalMessage is the row update that records o as the answer of t.
func finalMessage(t Turn, o Outcome) (store.ConversationMessage, error) {
	calls := o.ToolCalls
	if calls == nil {
		calls = []ToolCall{}
	}
	rawCalls, err := json.Marshal(calls)
	if err != nil {
		return store.ConversationMessage{}, err
	}
	m := store.ConversationMessage{ID: t.MessageID, Content: o.Content, Reasoning: o.Reasoning, ToolCalls: string(rawCalls),
		Status: o.Status, Estimate: o.Estimate}
	if o.Error != nil {
		m.ErrorCode, m.ErrorMessage = o.Error.Code, o.Error.Message
	}
	if o.Usage != nil {
		raw, err := json.Marshal(o.Usage)
		if err != nil {
			return store.ConversationMessage{}, err
		}
		if string(raw) != "null" {
			m.Usage = string(raw)
		}
	}
	return m, nil
}
