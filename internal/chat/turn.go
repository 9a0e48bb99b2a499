package chat

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// TurnRequest is what the stream asks of the store before a turn runs.
type TurnRequest struct {
	ConversationID int64  // 0: a new conversation in URI
	URI            string // the scope as the client sent it; must match the conversation's
	Message        string // the question; for Edit the replacement
	Regenerate     int64  // assistant message to answer again
	Edit           int64  // user message to replace
	ModelID        string
	// Seed is the page's history of a conversation not stored yet: a new
	// conversation starts with it, so the model sees what the page showed
	// and the stored conversation holds it too. Ignored with ConversationID.
	Seed []HistoryItem
}

// HistoryItem is one earlier message the model sees.
type HistoryItem struct {
	Role    string
	Content string
}

// Turn is a started turn: the stored user message and the assistant
// message in flight.
type Turn struct {
	Conversation  Conversation
	Scope         kb.Scope
	UserMessageID int64
	MessageID     int64
	Message       string
	History       []HistoryItem
}

// Outcome is what a turn produced, stored when it ends.
type Outcome struct {
	Content   string
	Reasoning string
	ToolCalls []ToolCall
	Status    string
	Error     *Error
	Usage     any
	Estimate  int
}

// Begin authorizes the scope, stores the user message and opens the
// assistant message as streaming. The history comes from the stored
// messages before the answered one; a client's own history plays no part.
func (s *Service) Begin(ctx context.Context, c kb.Caller, r TurnRequest) (Turn, error) {
	// An answer whose final write failed would read as still streaming
	// below and refuse the question.
	s.settleUnsaved(ctx)
	var seed []HistoryItem
	if r.ConversationID == 0 {
		if r.Regenerate != 0 || r.Edit != 0 {
			return Turn{}, apierr.BadRequest(apierr.CodeInvalidRequest, "regenerate and edit need the conversation_id of the message")
		}
		title := r.Message
		if len(r.Seed) > 0 {
			title = r.Seed[0].Content
		}
		conv, err := s.Create(ctx, c, r.URI, AutoTitle(title))
		if err != nil {
			return Turn{}, err
		}
		r.ConversationID, seed = conv.ID, r.Seed
	}
	conv, err := s.own(ctx, c, r.ConversationID)
	if err != nil {
		return Turn{}, err
	}
	// The scope is asked of the authorizer again: a share revoked since the
	// conversation began ends it here.
	scope, err := s.Tree.OpenScope(ctx, c, conv.URI)
	if err != nil {
		return Turn{}, err
	}
	if r.URI != "" && r.URI != conv.URI {
		asked, err := s.Tree.OpenScope(ctx, c, r.URI)
		if err != nil {
			return Turn{}, err
		}
		if asked.URI != conv.URI {
			return Turn{}, apierr.BadRequest(apierr.CodeURIMismatch, "conversation %d is about %s, not %s; start a new conversation for another folder", conv.ID, conv.URI, asked.URI)
		}
	}
	t := Turn{Conversation: view(conv), Scope: scope, Message: r.Message}
	err = s.Store.InTx(ctx, func(tx *store.Store) error {
		for i, h := range seed {
			m := store.ConversationMessage{ConversationID: conv.ID, Slot: i, Role: h.Role, Content: h.Content, Status: store.MessageComplete}
			if err := tx.AddMessage(ctx, &m); err != nil {
				return err
			}
		}
		msgs, err := tx.Messages(ctx, conv.ID, false)
		if err != nil {
			return err
		}
		if n := len(msgs); n > 0 && msgs[n-1].Status == store.MessageStreaming {
			return apierr.Conflict(apierr.CodeTurnInProgress, "conversation %d is still answering; wait for it or stop it first", conv.ID)
		}
		userSlot, history, err := placeTurn(msgs, r, &t)
		if err != nil {
			return err
		}
		t.History = history
		if r.Regenerate == 0 {
			um := store.ConversationMessage{ConversationID: conv.ID, Slot: userSlot, Role: "user", Content: t.Message, Status: store.MessageComplete, ModelID: r.ModelID}
			if err := tx.AddMessage(ctx, &um); err != nil {
				return err
			}
			t.UserMessageID = um.ID
		}
		am := store.ConversationMessage{ConversationID: conv.ID, Slot: userSlot + 1, Role: "assistant", Status: store.MessageStreaming, ModelID: r.ModelID}
		if err := tx.AddMessage(ctx, &am); err != nil {
			return err
		}
		t.MessageID = am.ID
		return tx.TouchConversation(ctx, conv.ID, r.ModelID)
	})
	if errors.Is(err, store.ErrConflict) {
		return Turn{}, apierr.Conflict(apierr.CodeTurnInProgress, "conversation %d changed while this turn started; load it again", conv.ID)
	}
	if err != nil {
		return Turn{}, err
	}
	t.Conversation.ModelID = r.ModelID
	return t, nil
}

// placeTurn finds the slot of the user message the turn answers and the
// history before it. Regenerate and edit apply to the latest turn only.
func placeTurn(msgs []store.ConversationMessage, r TurnRequest, t *Turn) (int, []HistoryItem, error) {
	n := len(msgs)
	userSlot := 0
	before := msgs
	switch {
	case r.Regenerate != 0:
		if n < 2 || msgs[n-1].ID != r.Regenerate || msgs[n-1].Role != "assistant" {
			return 0, nil, apierr.BadRequest(apierr.CodeInvalidRegenerate, "message %d is not the latest answer of this conversation; only the latest answer can be regenerated", r.Regenerate)
		}
		userSlot, before = msgs[n-2].Slot, msgs[:n-2]
		t.Message, t.UserMessageID = msgs[n-2].Content, msgs[n-2].ID
	case r.Edit != 0:
		if n < 2 || msgs[n-2].ID != r.Edit || msgs[n-2].Role != "user" {
			return 0, nil, apierr.BadRequest(apierr.CodeInvalidEdit, "message %d is not the latest question of this conversation; only the latest question can be edited", r.Edit)
		}
		userSlot, before = msgs[n-2].Slot, msgs[:n-2]
	case n > 0:
		userSlot = msgs[n-1].Slot + 1
	}
	var history []HistoryItem
	for _, m := range before {
		// A failed or stopped answer keeps what it said; one that said
		// nothing would only confuse the model.
		if m.Role == "assistant" && m.Content == "" {
			continue
		}
		history = append(history, HistoryItem{Role: m.Role, Content: m.Content})
	}
	return userSlot, history, nil
}
