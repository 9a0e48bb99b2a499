package chat

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Answer is an assistant message with what names it in a stream.
type Answer struct {
	Message
	ConversationID int64
	URI            string // the conversation's scope
	// UserMessageID is the current question before it (0 when the answer
	// is no longer current).
	UserMessageID int64
}

// ErrNoAnswer is the answer to a message that is not the caller's
// assistant message: missing, a question, another user's, or outside a
// scoped token's folder alike.
var ErrNoAnswer = errors.New("no such answer of the caller")

// AnswerOf loads the caller's assistant message by its id alone.
func (s *Service) AnswerOf(ctx context.Context, c kb.Caller, messageID int64) (Answer, error) {
	m, err := s.Store.MessageOnly(ctx, messageID)
	if errors.Is(err, store.ErrNotFound) || err == nil && m.Role != "assistant" {
		return Answer{}, ErrNoAnswer
	}
	if err != nil {
		return Answer{}, err
	}
	conv, err := s.own(ctx, c, m.ConversationID)
	if e, ok := apierr.As(err); ok && e.Code == apierr.CodeConversationNotFound {
		return Answer{}, ErrNoAnswer
	}
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Message: messageView(m, 0), ConversationID: conv.ID, URI: conv.URI}
	if m.IsCurrent {
		msgs, err := s.Store.Messages(ctx, conv.ID, false)
		if err != nil {
			return Answer{}, err
		}
		for _, q := range msgs {
			if q.Slot == m.Slot-1 && q.Role == "user" {
				a.UserMessageID = q.ID
			}
		}
	}
	return a, nil
}
