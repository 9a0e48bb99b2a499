package chat

import (
	"context"
	"encoding/json"
	"time"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// ToolCall is what a conversation keeps of one tool call: never its full
// output, only enough to show the card and open what it read.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	OK        bool   `json:"ok"`
	Summary   string `json:"summary"`
	URI       string `json:"uri,omitempty"`
}

// Error is why a turn failed or stopped.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Message is the API view of one message version.
type Message struct {
	ID        int64           `json:"id"`
	Role      string          `json:"role"`
	Content   string          `json:"content"`
	Reasoning string          `json:"reasoning,omitempty"`
	ToolCalls []ToolCall      `json:"tool_calls"`
	Status    string          `json:"status"`
	Error     *Error          `json:"error,omitempty"`
	Usage     json.RawMessage `json:"usage,omitempty"`
	Estimate  int             `json:"estimate,omitempty"`
	ModelID   string          `json:"model_id"`
	CreatedAt time.Time       `json:"created_at"`
	Version   int             `json:"version"`
	Versions  int             `json:"versions"`
	Earlier   []Message       `json:"earlier,omitempty"`
}

func messageView(m store.ConversationMessage, versions int) Message {
	out := Message{ID: m.ID, Role: m.Role, Content: m.Content, Reasoning: m.Reasoning, ToolCalls: []ToolCall{},
		Status: m.Status, Estimate: m.Estimate, ModelID: m.ModelID, CreatedAt: m.CreatedAt, Version: m.Version, Versions: versions}
	_ = json.Unmarshal([]byte(m.ToolCalls), &out.ToolCalls)
	if out.ToolCalls == nil {
		out.ToolCalls = []ToolCall{}
	}
	if m.ErrorCode != "" {
		out.Error = &Error{Code: m.ErrorCode, Message: m.ErrorMessage}
	}
	if m.Usage != "" {
		out.Usage = json.RawMessage(m.Usage)
	}
	return out
}

// Detail is a conversation with its messages.
type Detail struct {
	Conversation
	Messages []Message `json:"messages"`
}

// Detail returns the caller's conversation with its current messages; with
// all, each message carries its earlier versions, oldest first.
func (s *Service) Detail(ctx context.Context, c kb.Caller, id int64, all bool) (Detail, error) {
	s.settleUnsaved(ctx)
	conv, err := s.own(ctx, c, id)
	if err != nil {
		return Detail{}, err
	}
	rows, err := s.Store.Messages(ctx, conv.ID, all)
	if err != nil {
		return Detail{}, err
	}
	counts, err := s.Store.MessageVersions(ctx, conv.ID)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Conversation: view(conv), Messages: []Message{}}
	earlier := map[int][]Message{}
	var slots []int
	for _, m := range rows {
		v := messageView(m, counts[m.Slot])
		if !m.IsCurrent {
			earlier[m.Slot] = append(earlier[m.Slot], v)
			continue
		}
		d.Messages = append(d.Messages, v)
		slots = append(slots, m.Slot)
	}
	for i, slot := range slots {
		d.Messages[i].Earlier = earlier[slot]
	}
	return d, nil
}
