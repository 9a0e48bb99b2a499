// Package chat keeps each user's conversations: who had them, in which
// scope, and every message with its true status. A conversation is private
// to the user who had it — never shared, not even with the owner of the
// folder it is about — and the scope itself is authorized by knowledge.Tree
// each time a turn starts.
package chat

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Bounds of the API.
const (
	MaxTitleRunes    = 200
	AutoTitleRunes   = 80
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// Service is the conversation store seen through the caller.
type Service struct {
	Store *store.Store
	Tree  *knowledge.Tree

	unsaved unsavedTurns
}

// Conversation is the API view of a conversation.
type Conversation struct {
	ID        int64     `json:"id"`
	URI       string    `json:"uri"`
	Title     string    `json:"title"`
	ModelID   string    `json:"model_id"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// ActiveAt is the last activity (a question asked, an answer stored):
	// the list's order. A rename changes UpdatedAt, not this.
	ActiveAt time.Time `json:"active_at"`
	// AnsweringMessageID is the answer being written right now, in lists:
	// another tab follows it at /knowledge-agent/stream/{id}.
	AnsweringMessageID *int64 `json:"answering_message_id,omitempty"`
}

func view(c store.Conversation) Conversation {
	return Conversation{
		ID: c.ID, URI: c.URI, Title: c.Title, ModelID: c.ModelID,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt, ActiveAt: time.UnixMicro(c.Touched).UTC(),
	}
}

// NotFound is the one answer for a missing conversation and for another
// user's: the two cannot be told apart.
func NotFound(id int64) error {
	return apierr.NotFound(apierr.CodeConversationNotFound, "conversation %d does not exist or is not yours", id).WithDetail("conversation_id", id)
}

// own loads the caller's conversation.
func (s *Service) own(ctx context.Context, c kb.Caller, id int64) (store.Conversation, error) {
	conv, err := s.Store.ConversationOf(ctx, c.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Conversation{}, NotFound(id)
	}
	if err != nil {
		return store.Conversation{}, err
	}
	vis, err := s.visible(ctx, c, []store.Conversation{conv})
	if err != nil {
		return store.Conversation{}, err
	}
	if len(vis) == 0 {
		return store.Conversation{}, NotFound(id)
	}
	return conv, nil
}

// visible keeps the conversations a scoped token may see: those about a
// node in its scope now, matched by node identity (knowledge.Tree.ScopeHolds),
// so a folder renamed away keeps its conversations from a new folder of
// its old name. A conversation whose node is gone, or one from before
// nodes were recorded, is no scoped token's.
func (s *Service) visible(ctx context.Context, c kb.Caller, convs []store.Conversation) ([]store.Conversation, error) {
	if !c.Scoped() {
		return convs, nil
	}
	var ids []int64
	for _, conv := range convs {
		if conv.NodeID != nil {
			ids = append(ids, *conv.NodeID)
		}
	}
	holds, err := s.Tree.ScopeHolds(ctx, c, ids)
	if err != nil {
		return nil, err
	}
	out := convs[:0:0]
	for _, conv := range convs {
		if conv.NodeID != nil && holds[*conv.NodeID] {
			out = append(out, conv)
		}
	}
	return out, nil
}

// Create opens an empty conversation in a scope the caller can see.
func (s *Service) Create(ctx context.Context, c kb.Caller, uri, title string) (Conversation, error) {
	scope, err := s.Tree.OpenScope(ctx, c, uri)
	if err != nil {
		return Conversation{}, err
	}
	title, err = cleanTitle(title)
	if err != nil {
		return Conversation{}, err
	}
	conv := store.Conversation{UserID: c.ID, URI: scope.URI, Title: title}
	if scope.NodeID != 0 {
		conv.NodeID = &scope.NodeID
	}
	if err := s.Store.CreateConversation(ctx, &conv); err != nil {
		return Conversation{}, err
	}
	return view(conv), nil
}

func cleanTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if utf8.RuneCountInString(title) > MaxTitleRunes {
		return "", apierr.BadRequest(apierr.CodeInvalidTitle, "title is longer than %d characters", MaxTitleRunes).WithDetail("max", MaxTitleRunes)
	}
	if strings.ContainsAny(title, "\r\n\x00") {
		return "", apierr.BadRequest(apierr.CodeInvalidTitle, "title must be one line of text")
	}
	return title, nil
}

// AutoTitle is the title a conversation gets from its first message: its
// first line, cut at a word near AutoTitleRunes characters.
func AutoTitle(message string) string {
	line := strings.TrimSpace(message)
	if i := strings.IndexAny(line, "\r\n"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	r := []rune(line)
	if len(r) <= AutoTitleRunes {
		return line
	}
	cut := string(r[:AutoTitleRunes])
	if i := strings.LastIndex(cut, " "); i > AutoTitleRunes/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "…"
}

// Page is one page of the list.
type Page struct {
	Items      []Conversation `json:"items"`
	NextCursor *string        `json:"next_cursor"`
	Stored     bool           `json:"stored"`
}

// ListRequest filters the caller's list.
type ListRequest struct {
	URI    string
	Query  string
	Cursor string
	Limit  int
}

// List pages through the caller's conversations, most recently active
// first. uri filters to one scope, written as the caller would write it.
func (s *Service) List(ctx context.Context, c kb.Caller, r ListRequest) (Page, error) {
	q := store.ConversationQuery{UserID: c.ID, Text: strings.TrimSpace(r.Query), Limit: r.Limit}
	if q.Limit == 0 {
		q.Limit = DefaultListLimit
	}
	if q.Limit < 1 || q.Limit > MaxListLimit {
		return Page{}, apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d", MaxListLimit).WithDetail("max", MaxListLimit)
	}
	if r.URI != "" {
		uri, err := s.normalize(ctx, c, r.URI)
		if err != nil {
			return Page{}, err
		}
		q.URI = uri
	}
	if r.Cursor != "" {
		t, id, err := decodeCursor(r.Cursor)
		if err != nil {
			return Page{}, err
		}
		q.AfterTouch, q.AfterID = t, id
	}
	q.Limit++
	rows, err := s.Store.ListConversations(ctx, q)
	if err != nil {
		return Page{}, err
	}
	p := Page{Items: []Conversation{}, Stored: true}
	if len(rows) == q.Limit {
		rows = rows[:len(rows)-1]
		last := rows[len(rows)-1]
		cur := encodeCursor(last.Touched, last.ID)
		p.NextCursor = &cur
	}
	// A scoped token's page may come out short; the cursor still pages on.
	if rows, err = s.visible(ctx, c, rows); err != nil {
		return Page{}, err
	}
	ids := make([]int64, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	answering, err := s.Store.AnsweringMessages(ctx, ids)
	if err != nil {
		return Page{}, err
	}
	for _, row := range rows {
		v := view(row)
		if id, ok := answering[row.ID]; ok {
			v.AnsweringMessageID = &id
		}
		p.Items = append(p.Items, v)
	}
	return p, nil
}

// normalize spells a scope URI the way conversations store it. A scope that
// no longer resolves (deleted, unshared) still filters by its spelling, so
// its old conversations stay listable.
func (s *Service) normalize(ctx context.Context, c kb.Caller, raw string) (string, error) {
	if scope, err := s.Tree.OpenScope(ctx, c, raw); err == nil {
		return scope.URI, nil
	}
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

func encodeCursor(touched, id int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d.%d", touched, id)))
}

func decodeCursor(s string) (int64, int64, error) {
	bad := apierr.BadRequest(apierr.CodeInvalidCursor, "cursor is not one this API returned; start again without it")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return 0, 0, bad
	}
	a, b, ok := strings.Cut(string(raw), ".")
	if !ok {
		return 0, 0, bad
	}
	t, err1 := strconv.ParseInt(a, 10, 64)
	id, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || id <= 0 {
		return 0, 0, bad
	}
	return t, id, nil
}

// Get returns the caller's conversation.
func (s *Service) Get(ctx context.Context, c kb.Caller, id int64) (Conversation, error) {
	conv, err := s.own(ctx, c, id)
	return view(conv), err
}

// Rename sets the title of the caller's conversation.
func (s *Service) Rename(ctx context.Context, c kb.Caller, id int64, title string) (Conversation, error) {
	conv, err := s.own(ctx, c, id)
	if err != nil {
		return Conversation{}, err
	}
	title, err = cleanTitle(title)
	if err != nil {
		return Conversation{}, err
	}
	if title == "" {
		return Conversation{}, apierr.BadRequest(apierr.CodeInvalidTitle, "title must not be empty")
	}
	if err := s.Store.RenameConversation(ctx, conv.ID, title); err != nil {
		return Conversation{}, err
	}
	return s.Get(ctx, c, id)
}

// Delete removes the caller's conversation and all its messages.
func (s *Service) Delete(ctx context.Context, c kb.Caller, id int64) error {
	conv, err := s.own(ctx, c, id)
	if err != nil {
		return err
	}
	return s.Store.DeleteConversation(ctx, conv.ID)
}

// Interrupt marks the turns a previous run of the server left in flight:
// those no live replica runs (none recorded, or its replica has not
// renewed its lease since liveSince). Other replicas' turns run on.
func (s *Service) Interrupt(ctx context.Context, liveSince time.Time) (int64, error) {
	return s.Store.InterruptStreaming(ctx, "the server restarted while this answer was being written; retry to answer again", liveSince)
}
