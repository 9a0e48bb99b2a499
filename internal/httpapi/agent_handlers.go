package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/skill"
)

// Stream request bounds: checked before the first byte of the stream.
const (
	MaxMessageChars = 32_000
	MaxHistoryItems = 200
	MaxHistoryBytes = 512 << 10
	// streamEventQueue lets the runner run ahead of a slow client; the
	// writer sends what is queued in one write, so a short queue costs no
	// throughput, and each open stream holds one.
	streamEventQueue = 16
)

func (h *handlers) options(c echo.Context) error {
	models := []llm.ModelOption{}
	if h.Models != nil {
		models = h.Models.Options()
	}
	profiles := []compile.CLIProfileOption{}
	defaults := compile.OptionDefaults(compile.DefaultDefaults)
	if h.Compile != nil {
		profiles, defaults = h.Compile.CLIProfiles(), h.Compile.OptionDefaults()
	}
	skills, err := h.Skills.List(c.Request().Context(), caller(c))
	if err != nil {
		return err
	}
	defaults["skills"] = skill.Options(skills)
	return c.JSON(http.StatusOK, map[string]any{
		"models":           models,
		"cli_profiles":     profiles,
		"compile_defaults": defaults,
		"limits":           agent.DefaultLimits,
	})
}

type historyItem struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type streamRequest struct {
	URI     string        `json:"uri"`
	ModelID string        `json:"model_id"`
	Message string        `json:"message"`
	History []historyItem `json:"history"`
	// ConversationID continues a stored conversation: its stored messages
	// are the history and History is ignored.
	ConversationID int64 `json:"conversation_id"`
	// Temporary stores nothing: the page keeps the history, as before.
	Temporary  bool  `json:"temporary"`
	Regenerate int64 `json:"regenerate"`
	Edit       int64 `json:"edit"`
}

func (r *streamRequest) Validate() error {
	if r.URI == "" && r.ConversationID == 0 {
		return apierr.BadRequest("invalid_uri", "uri is required: the folder or file the question is about")
	}
	if r.ModelID == "" {
		return apierr.BadRequest("invalid_model", "model_id is required; GET /api/v1/knowledge-agent/options lists the models")
	}
	switch {
	case r.Regenerate != 0 && r.Edit != 0:
		return apierr.BadRequest("invalid_request", "regenerate and edit cannot be asked together")
	case (r.Regenerate != 0 || r.Edit != 0) && r.ConversationID == 0:
		return apierr.BadRequest("invalid_request", "regenerate and edit need the conversation_id of the message")
	case r.Temporary && r.ConversationID != 0:
		return apierr.BadRequest("invalid_request", "a temporary chat is not stored, so it cannot continue conversation %d", r.ConversationID)
	case r.Regenerate != 0:
		if r.Message != "" {
			return apierr.BadRequest("invalid_message", "regenerate answers the stored question again; send no message")
		}
		return nil
	}
	if strings.TrimSpace(r.Message) == "" {
		return apierr.BadRequest("invalid_message", "message must not be empty")
	}
	if utf8.RuneCountInString(r.Message) > MaxMessageChars {
		return apierr.BadRequest("invalid_message", "message is longer than %d characters", MaxMessageChars)
	}
	if len(r.History) > MaxHistoryItems {
		return apierr.BadRequest("invalid_history", "history has %d messages; at most %d are accepted", len(r.History), MaxHistoryItems)
	}
	size := 0
	for i, m := range r.History {
		if m.Role != "user" && m.Role != "assistant" {
			return apierr.BadRequest("invalid_history", "history[%d].role must be user or assistant", i)
		}
		size += len(m.Content)
	}
	if size > MaxHistoryBytes {
		return apierr.BadRequest("invalid_history", "history is %d bytes; at most %d are accepted", size, MaxHistoryBytes)
	}
	return nil
}

// stream answers a question as SSE (SPEC §5). Everything that can be
// refused is refused with a JSON error before the first byte.
func (h *handlers) stream(c echo.Context) error {
	var req streamRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	if h.Models == nil || h.Models.Len() == 0 {
		return apierr.BadRequest("no_models", "no model is configured: add one under models: in the config file, or set OPENAI_API_KEY, DEEPSEEK_API_KEY, DASHSCOPE_API_KEY or GEMINI_API_KEY, or run Ollama locally, then restart")
	}
	model, err := h.Models.Lookup(req.ModelID)
	if err != nil {
		return apierr.BadRequest("unknown_model", "unknown model %q; GET /api/v1/knowledge-agent/options lists the models", req.ModelID)
	}
	ctx, cancel := context.WithCancel(c.Request().Context())
	defer cancel()
	release, err := h.streams.enter(currentUser(c).ID, cancel)
	if err != nil {
		return err
	}
	defer release()
	who := caller(c)
	turn := agent.Turn{ID: newTurnID(), Message: req.Message}
	var (
		scope  knowledge.Scope
		stored *chat.Turn
	)
	if h.Chat != nil && !req.Temporary {
		// The user message is stored, and the answer opened as streaming,
		// before the first byte: a refusal is still a JSON error.
		tr := chat.TurnRequest{ConversationID: req.ConversationID, URI: req.URI,
			Message: req.Message, Regenerate: req.Regenerate, Edit: req.Edit, ModelID: model.Meta().ID}
		if req.ConversationID == 0 {
			for _, m := range req.History {
				tr.Seed = append(tr.Seed, chat.HistoryItem{Role: m.Role, Content: m.Content})
			}
		}
		st, err := h.Chat.Begin(ctx, who, tr)
		if err != nil {
			return err
		}
		stored, scope, turn.Message = &st, st.Scope, st.Message
		turn.Stored = agent.StoredTurn{ConversationID: st.Conversation.ID, UserMessageID: st.UserMessageID, MessageID: st.MessageID}
		for _, m := range st.History {
			turn.History = append(turn.History, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
		}
	} else {
		if req.ConversationID != 0 {
			return conversationsOff()
		}
		scope, err = h.Tree.OpenScope(ctx, who, req.URI)
		if err != nil {
			return err
		}
		for _, m := range req.History {
			turn.History = append(turn.History, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
		}
	}
	turn.ScopeURI = scope.URI
	tools := agent.KnowledgeTools{Tree: h.Tree, Caller: who, Scope: scope}
	runner := &agent.Runner{Model: model, Limits: agent.DefaultLimits}
	if model.Meta().NativeTools {
		runner.Tools = tools
	} else {
		turn.Material = tools.Material(ctx)
	}

	w := c.Response()
	agent.SSEHeaders(w)
	events := make(chan agent.Event, streamEventQueue)
	finished := make(chan struct{})
	var record turnRecord
	go func() {
		defer close(finished)
		defer close(events)
		runner.Run(ctx, turn, func(e agent.Event) {
			record.observe(e)
			select {
			case events <- e:
			case <-ctx.Done():
			}
		})
	}()
	err = agent.WriteSSE(ctx, w, events, h.Shutdown, agent.HeartbeatInterval)
	// Whatever ended the stream (client gone, shutdown, write failure), the
	// turn, its upstream request and any running tool stop with it.
	cancel()
	<-finished
	if err != nil && ctx.Err() == nil {
		slog.Debug("stream ended", "request_id", currentRequestID(c), "turn_id", turn.ID, "err", err)
	}
	outcome := record.outcome(errors.Is(err, agent.ErrShutdown))
	record.report(currentRequestID(c), turn.ID, model.Meta().ID, who.ID, outcome)
	if stored != nil {
		// The request is over; the answer is stored all the same.
		saveCtx, done := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer done()
		if err := h.Chat.Finish(saveCtx, *stored, outcome); err != nil {
			slog.Error("store the answer", "conversation", stored.Conversation.ID, "message", stored.MessageID, "err", err)
		}
	}
	return nil
}

func newTurnID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "turn_" + hex.EncodeToString(b)
}
