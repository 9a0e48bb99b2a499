package store

import (
	"context"
	"strings"
	"time"
)

// Message statuses; streaming is a turn still in flight.
const (
	MessageStreaming = "streaming"
	MessageComplete  = "complete"
	MessageStopped   = "stopped"
	MessageFailed    = "failed"
)

// Conversation is one user's chat in a scope. UserID is always the user
// who had it, even when the scope is in a tree shared with them.
type Conversation struct {
	ID     int64 `gorm:"primaryKey"`
	UserID int64
	URI    string
	// NodeID is the node the conversation is about while it exists; a
	// scoped token matches conversations to its folder by it.
	NodeID    *int64
	Title     string
	ModelID   string
	Touched   int64 // unix microseconds of the last activity; list order
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ConversationMessage is one version of one message of a conversation.
type ConversationMessage struct {
	ID             int64 `gorm:"primaryKey"`
	ConversationID int64
	Slot           int
	Version        int
	IsCurrent      bool
	Role           string
	Content        string
	Reasoning      string
	ToolCalls      string // JSON array
	Status         string
	ErrorCode      string
	ErrorMessage   string
	Usage          string // JSON object or ""
	Estimate       int
	ModelID        string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// ConversationQuery filters a user's conversation list; After is the
// (touched, id) of the last item of the previous page.
type ConversationQuery struct {
	UserID     int64
	URI        string
	Text       string
	AfterTouch int64
	AfterID    int64
	Limit      int
}

func touchNow() int64 { return time.Now().UnixMicro() }

// CreateConversation inserts c for its user.
func (s *Store) CreateConversation(ctx context.Context, c *Conversation) error {
	c.Touched = touchNow()
	return translate(s.db.WithContext(ctx).Create(c).Error)
}

// ConversationOf finds the user's conversation; ErrNotFound for anyone
// else's, so another user's id cannot be told from a missing one.
func (s *Store) ConversationOf(ctx context.Context, userID, id int64) (Conversation, error) {
	var c Conversation
	err := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Take(&c).Error
	return c, translate(err)
}

// likePattern matches text anywhere, with LIKE's wildcards taken literally.
func likePattern(text string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(text)) + "%"
}

// ListConversations returns a page of the user's conversations, most
// recently active first.
func (s *Store) ListConversations(ctx context.Context, q ConversationQuery) ([]Conversation, error) {
	db := s.db.WithContext(ctx).Where("user_id = ?", q.UserID)
	if q.URI != "" {
		db = db.Where("uri = ?", q.URI)
	}
	if q.Text != "" {
		p := likePattern(q.Text)
		db = db.Where(`(LOWER(title) LIKE ? ESCAPE '\' OR EXISTS (SELECT 1 FROM conversation_messages m
			WHERE m.conversation_id = conversations.id AND LOWER(m.content) LIKE ? ESCAPE '\'))`, p, p)
	}
	if q.AfterID != 0 {
		db = db.Where("(touched < ? OR (touched = ? AND id < ?))", q.AfterTouch, q.AfterTouch, q.AfterID)
	}
	var out []Conversation
	err := db.Order("touched DESC, id DESC").Limit(q.Limit).Find(&out).Error
	return out, translate(err)
}

// AnsweringMessages maps each of the conversations with an answer still
// being written to that answer's message id.
func (s *Store) AnsweringMessages(ctx context.Context, conversationIDs []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	if len(conversationIDs) == 0 {
		return out, nil
	}
	var rows []ConversationMessage
	err := s.db.WithContext(ctx).Select("id", "conversation_id").
		Where("conversation_id IN ? AND status = ? AND is_current", conversationIDs, MessageStreaming).Find(&rows).Error
	for _, m := range rows {
		out[m.ConversationID] = m.ID
	}
	return out, translate(err)
}

// RenameConversation sets the title.
func (s *Store) RenameConversation(ctx context.Context, id int64, title string) error {
	return translate(s.db.WithContext(ctx).Model(&Conversation{}).Where("id = ?", id).
		Updates(map[string]any{"title": title, "updated_at": now()}).Error)
}

// DeleteConversation removes a conversation and its messages.
func (s *Store) DeleteConversation(ctx context.Context, id int64) error {
	return translate(s.db.WithContext(ctx).Where("id = ?", id).Delete(&Conversation{}).Error)
}

// TouchConversation marks activity (and the model last used).
func (s *Store) TouchConversation(ctx context.Context, id int64, modelID string) error {
	return translate(s.db.WithContext(ctx).Model(&Conversation{}).Where("id = ?", id).
		Updates(map[string]any{"touched": touchNow(), "model_id": modelID, "updated_at": now()}).Error)
}

// Messages returns a conversation's messages by slot; all=false keeps only
// the current version of each slot, all=true returns every version, each
// slot's oldest first.
func (s *Store) Messages(ctx context.Context, conversationID int64, all bool) ([]ConversationMessage, error) {
	db := s.db.WithContext(ctx).Where("conversation_id = ?", conversationID)
	if !all {
		db = db.Where("is_current = ?", true)
	}
	var out []ConversationMessage
	err := db.Order("slot, version").Find(&out).Error
	return out, translate(err)
}

// MessageVersions counts the versions of each slot of a conversation.
func (s *Store) MessageVersions(ctx context.Context, conversationID int64) (map[int]int, error) {
	var rows []struct {
		Slot int
		N    int
	}
	err := s.db.WithContext(ctx).Model(&ConversationMessage{}).Select("slot, COUNT(*) AS n").
		Where("conversation_id = ?", conversationID).Group("slot").Scan(&rows).Error
	out := map[int]int{}
	for _, r := range rows {
		out[r.Slot] = r.N
	}
	return out, translate(err)
}

// AddMessage inserts m as the current version of its slot, the slot's
// earlier versions becoming earlier ones.
func (s *Store) AddMessage(ctx context.Context, m *ConversationMessage) error {
	db := s.db.WithContext(ctx)
	var top int
	if err := db.Model(&ConversationMessage{}).Select("COALESCE(MAX(version), 0)").
		Where("conversation_id = ? AND slot = ?", m.ConversationID, m.Slot).Scan(&top).Error; err != nil {
		return translate(err)
	}
	if err := db.Model(&ConversationMessage{}).Where("conversation_id = ? AND slot = ?", m.ConversationID, m.Slot).
		Update("is_current", false).Error; err != nil {
		return translate(err)
	}
	m.Version, m.IsCurrent = top+1, true
	if m.ToolCalls == "" {
		m.ToolCalls = "[]"
	}
	return translate(db.Create(m).Error)
}

// DropSlotsFrom takes every slot at or after slot out of the current view
// (the versions stay stored).
func (s *Store) DropSlotsFrom(ctx context.Context, conversationID int64, slot int) error {
	return translate(s.db.WithContext(ctx).Model(&ConversationMessage{}).
		Where("conversation_id = ? AND slot >= ?", conversationID, slot).Update("is_current", false).Error)
}

// FinishMessage stores what a turn produced and its final status.
func (s *Store) FinishMessage(ctx context.Context, m ConversationMessage) error {
	return translate(s.db.WithContext(ctx).Model(&ConversationMessage{}).Where("id = ?", m.ID).
		Updates(map[string]any{
			"content": m.Content, "reasoning": m.Reasoning, "tool_calls": m.ToolCalls, "status": m.Status,
			"error_code": m.ErrorCode, "error_message": m.ErrorMessage, "usage": m.Usage,
			"estimate": m.Estimate, "updated_at": now(),
		}).Error)
}

// MessageByID finds one message of a conversation.
func (s *Store) MessageByID(ctx context.Context, conversationID, id int64) (ConversationMessage, error) {
	var m ConversationMessage
	err := s.db.WithContext(ctx).Where("conversation_id = ? AND id = ?", conversationID, id).Take(&m).Error
	return m, translate(err)
}

// MessageOnly finds a message by its id alone; the caller checks whose
// conversation it is.
func (s *Store) MessageOnly(ctx context.Context, id int64) (ConversationMessage, error) {
	var m ConversationMessage
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&m).Error
	return m, translate(err)
}
