package httpapi

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/turn"
)

// Stream request bounds: checked before the first byte of the stream, the
// same for every door.
const (
	MaxMessageChars = turn.MaxMessageChars
	MaxHistoryItems = turn.MaxHistoryItems
	MaxHistoryBytes = turn.MaxHistoryBytes
	// DefaultStreamsPerUser is limits.streams_per_user unless configured.
	DefaultStreamsPerUser = turn.DefaultStreamsPerUser
)

func (h *handlers) options(c echo.Context) error {
	models := []llm.ModelOption{}
	if h.Models != nil {
		var err error
		if models, err = h.Models.OptionsFor(c.Request().Context(), currentUser(c).ID); err != nil {
			return err
		}
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
	search := map[string]any{"modes": []string{"literal", "ranked"}, "question_mode": "ranked"}
	if m := h.Tree.Meaning(); m != nil {
		search = map[string]any{"modes": []string{"literal", "ranked", "hybrid", "meaning"}, "question_mode": "hybrid", "embedding_model": m.ID()}
	}
	return c.JSON(http.StatusOK, map[string]any{
		"search":           search,
		"models":           models,
		"cli_profiles":     profiles,
		"compile_defaults": defaults,
		"limits":           agent.DefaultLimits,
		// A client checks files against these before sending, so a file
		// too large is named as such instead of failing the whole request.
		"upload": map[string]int64{
			"max_file_bytes":    h.Tree.MaxUpload(),
			"max_request_bytes": h.MaxUploadRequest,
			"max_files":         knowledge.MaxUploadFiles,
		},
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
	// Detach keeps the turn running when this request ends; it is followed
	// again at GET /knowledge-agent/stream/{message_id}.
	Detach bool `json:"detach"`
}

func (r *streamRequest) Validate() error {
	if r.URI == "" && r.ConversationID == 0 {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri is required: the folder or file the question is about")
	}
	if r.ModelID == "" {
		return apierr.BadRequest(apierr.CodeInvalidModel, "model_id is required; GET /api/v1/knowledge-agent/options lists the models")
	}
	switch {
	case r.Regenerate != 0 && r.Edit != 0:
		return apierr.BadRequest(apierr.CodeInvalidRequest, "regenerate and edit cannot be asked together")
	case (r.Regenerate != 0 || r.Edit != 0) && r.ConversationID == 0:
		return apierr.BadRequest(apierr.CodeInvalidRequest, "regenerate and edit need the conversation_id of the message")
	case r.Temporary && r.ConversationID != 0:
		return apierr.BadRequest(apierr.CodeInvalidRequest, "a temporary chat is not stored, so it cannot continue conversation %d", r.ConversationID)
	case r.Regenerate != 0:
		if r.Message != "" {
			return apierr.BadRequest(apierr.CodeInvalidMessage, "regenerate answers the stored question again; send no message")
		}
		return nil
	}
	if strings.TrimSpace(r.Message) == "" {
		return apierr.BadRequest(apierr.CodeInvalidMessage, "message must not be empty")
	}
	if utf8.RuneCountInString(r.Message) > MaxMessageChars {
		return apierr.BadRequest(apierr.CodeInvalidMessage, "message is longer than %d characters", MaxMessageChars).WithDetail("max", MaxMessageChars)
	}
	if len(r.History) > MaxHistoryItems {
		return apierr.BadRequest(apierr.CodeInvalidHistory, "history has %d messages; at most %d are accepted", len(r.History), MaxHistoryItems)
	}
	size := 0
	for i, m := range r.History {
		if m.Role != "user" && m.Role != "assistant" {
			return apierr.BadRequest(apierr.CodeInvalidHistory, "history[%d].role must be user or assistant", i)
		}
		size += len(m.Content)
	}
	if size > MaxHistoryBytes {
		return apierr.BadRequest(apierr.CodeInvalidHistory, "history is %d bytes; at most %d are accepted", size, MaxHistoryBytes)
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
		return apierr.BadRequest(apierr.CodeNoModels, "no model is configured: an admin can add one in the admin screens (Models), or under models: in the config file, or set OPENAI_API_KEY, DEEPSEEK_API_KEY, DASHSCOPE_API_KEY or GEMINI_API_KEY, or run Ollama locally, then restart")
	}
	model, err := h.Models.LookupFor(c.Request().Context(), currentUser(c).ID, req.ModelID)
	if err != nil && !llm.IsUnknownModel(err) {
		return err
	}
	if err != nil {
		return apierr.BadRequest(apierr.CodeUnknownModel, "unknown model %q; GET /api/v1/knowledge-agent/options lists the models", req.ModelID).WithDetail("model", req.ModelID)
	}
	tr := turn.Request{Caller: caller(c), RequestID: currentRequestID(c), Model: model, URI: req.URI, Message: req.Message,
		ConversationID: req.ConversationID, Temporary: req.Temporary, Regenerate: req.Regenerate, Edit: req.Edit, Detach: req.Detach}
	for _, m := range req.History {
		tr.History = append(tr.History, chat.HistoryItem{Role: m.Role, Content: m.Content})
	}
	run, err := h.Turns.Start(c.Request().Context(), tr)
	if err != nil {
		return err
	}
	return h.writeStream(c, run.Feed())
}

// writeStream writes a turn's events until it ends or the client leaves:
// an attached turn ends then too, a detached one runs on.
func (h *handlers) writeStream(c echo.Context, feed agent.Feed) error {
	// Over HTTP/1.1 the connection is taken from the server and written as
	// the turn makes events: an idle stream then holds no goroutine but
	// its turn's.
	if err := agent.PushSSE(c.Response(), c.Request(), feed, agent.HeartbeatInterval); !errors.Is(err, agent.ErrNotPushable) {
		return err
	}
	agent.SSEHeaders(c.Response())
	err := agent.WriteFeed(c.Request().Context(), c.Response(), feed, h.Shutdown, agent.HeartbeatInterval, nil)
	if err != nil && c.Request().Context().Err() == nil {
		slog.Debug("stream ended", "request_id", currentRequestID(c), "err", err)
	}
	return nil
}

// followTurn resumes a detached turn: the events after Last-Event-ID (the
// header, or ?after=), then live until it ends.
func (h *handlers) followTurn(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	last := c.Request().Header.Get("Last-Event-ID")
	if last == "" {
		last = c.QueryParam("after")
	}
	after := 0
	if last != "" {
		if after, err = strconv.Atoi(last); err != nil || after < 0 {
			return apierr.BadRequest(apierr.CodeInvalidRequest, "Last-Event-ID (or after) must be an event id this stream sent")
		}
	}
	events, err := h.Turns.Follow(c.Request().Context(), caller(c), id, after)
	if err != nil {
		return err
	}
	return h.writeStream(c, events)
}

// stopTurn ends a detached turn at once.
func (h *handlers) stopTurn(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := h.Turns.Stop(c.Request().Context(), caller(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
