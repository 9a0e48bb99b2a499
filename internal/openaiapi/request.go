package openaiapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/turn"
)

// completionRequest is the part of OpenAI's chat completion request a
// KnowAgent turn uses; other fields (temperature, tools, n …) are accepted
// and ignored, since the agent chooses its own.
type completionRequest struct {
	Model         string    `json:"model"`
	Messages      []message `json:"messages"`
	Stream        bool      `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	// KnowspaceTools false leaves the one line per tool call out of the
	// answer text; our extension, absent from OpenAI's API.
	KnowspaceTools *bool `json:"knowspace_tools"`
}

type message struct {
	Role    string  `json:"role"`
	Content content `json:"content"`
}

// content is a message's text: OpenAI allows a string or a list of parts,
// of which only text parts mean anything to the agent.
type content string

func (c *content) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err == nil {
		if s != nil {
			*c = content(*s)
		}
		return nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return errors.New("content must be a string or a list of parts")
	}
	var sb strings.Builder
	for _, p := range parts {
		if p.Type != "text" {
			return errors.New("only text parts are supported in content")
		}
		sb.WriteString(p.Text)
	}
	*c = content(sb.String())
	return nil
}

func (r *completionRequest) includeUsage() bool {
	return r.Stream && r.StreamOptions != nil && r.StreamOptions.IncludeUsage
}

func (r *completionRequest) toolLines() bool { return r.KnowspaceTools == nil || *r.KnowspaceTools }

func badRequest(param, format string, args ...any) error {
	return apierr.BadRequest(apierr.CodeInvalidRequest, format, args...).WithDetail("param", param)
}

func decodeRequest(r *http.Request) (completionRequest, error) {
	var req completionRequest
	body := http.MaxBytesReader(nil, r.Body, MaxBodyBytes)
	dec := json.NewDecoder(body)
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return req, apierr.TooLarge(apierr.CodeBodyTooLarge, "the request body is larger than %d bytes", MaxBodyBytes)
		}
		if errors.Is(err, io.EOF) {
			return req, badRequest("", "the request body is empty; send a JSON chat completion request")
		}
		return req, badRequest("", "the request body is not valid JSON: %s", jsonProblem(err))
	}
	return req, req.validate()
}

// jsonProblem says what is wrong without echoing the client's bytes.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return te.Field + " has the wrong type"
	}
	if msg := err.Error(); strings.Contains(msg, "content must be") || strings.Contains(msg, "only text parts") {
		return msg
	}
	return "it could not be parsed"
}

// validate checks what the turn needs: a model, and a last message from
// the user, with history within the turn's bounds.
func (r *completionRequest) validate() error {
	if r.Model == "" {
		return badRequest("model", "model is required; GET /v1/models lists the models")
	}
	if len(r.Messages) == 0 {
		return badRequest("messages", "messages must hold at least the question, a user message")
	}
	last := r.Messages[len(r.Messages)-1]
	if last.Role != "user" {
		return badRequest("messages", "the last message must be the user's question, not %q", last.Role)
	}
	if strings.TrimSpace(string(last.Content)) == "" {
		return badRequest("messages", "the question (the last user message) is empty")
	}
	if utf8.RuneCountInString(string(last.Content)) > turn.MaxMessageChars {
		return badRequest("messages", "the question is longer than %d characters", turn.MaxMessageChars)
	}
	history := 0
	size := 0
	for i, m := range r.Messages[:len(r.Messages)-1] {
		switch m.Role {
		case "user", "assistant":
			history++
			size += len(m.Content)
		case "system", "developer":
			// KnowAgent's own system prompt governs the turn.
		default:
			return badRequest("messages", "messages[%d].role %q is not supported; use system, user or assistant", i, m.Role)
		}
	}
	if history > turn.MaxHistoryItems {
		return badRequest("messages", "the history has %d messages; at most %d are accepted", history, turn.MaxHistoryItems)
	}
	if size > turn.MaxHistoryBytes {
		return badRequest("messages", "the history is %d bytes; at most %d are accepted", size, turn.MaxHistoryBytes)
	}
	return nil
}

// question and history split the messages as the turn takes them.
func (r *completionRequest) question() (string, []chat.HistoryItem) {
	n := len(r.Messages) - 1
	var history []chat.HistoryItem
	for _, m := range r.Messages[:n] {
		if m.Role == "user" || m.Role == "assistant" {
			history = append(history, chat.HistoryItem{Role: m.Role, Content: string(m.Content)})
		}
	}
	return string(r.Messages[n].Content), history
}
