package fakellm

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Request is one request the server received, as recorded for assertions.
type Request struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	// Chat is the parsed body of a chat completion request (nil otherwise or
	// when the body is not valid JSON).
	Chat     *ChatRequest
	Received time.Time
}

// ChatRequest is the part of a chat completion body tests assert on.
type ChatRequest struct {
	Model               string         `json:"model"`
	Messages            []ChatMessage  `json:"messages"`
	Tools               []ChatTool     `json:"tools"`
	Stream              bool           `json:"stream"`
	StreamOptions       *StreamOptions `json:"stream_options"`
	MaxTokens           int            `json:"max_tokens"`
	MaxCompletionTokens int            `json:"max_completion_tokens"`
	// Fields holds every top-level field raw, including the ones above, so
	// tests can check provider extras such as enable_thinking.
	Fields map[string]json.RawMessage `json:"-"`
}

// StreamOptions is the stream_options request field.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// ChatMessage is one message of a request.
type ChatMessage struct {
	Role             string     `json:"role"`
	Content          Content    `json:"content"`
	ReasoningContent string     `json:"reasoning_content"`
	ToolCalls        []ToolCall `json:"tool_calls"`
	ToolCallID       string     `json:"tool_call_id"`
}

// ToolCall is a call in an assistant message (or a scripted completion).
type ToolCall struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Name         string          `json:"-"`
	Arguments    string          `json:"-"`
	ExtraContent json.RawMessage `json:"extra_content"`
	Function     struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ChatTool is one offered tool.
type ChatTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Content is message content: a string, null, or an array of text parts,
// flattened to text.
type Content string

// UnmarshalJSON accepts a string, null or [{"type":"text","text":...}].
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || string(b) == "null":
		*c = ""
		return nil
	case b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*c = Content(s)
		return err
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	var sb strings.Builder
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	*c = Content(sb.String())
	return nil
}

func parseChat(body []byte) *ChatRequest {
	var cr ChatRequest
	if err := json.Unmarshal(body, &cr); err != nil {
		return nil
	}
	if err := json.Unmarshal(body, &cr.Fields); err != nil {
		return nil
	}
	for i := range cr.Messages {
		for j := range cr.Messages[i].ToolCalls {
			tc := &cr.Messages[i].ToolCalls[j]
			tc.Name, tc.Arguments = tc.Function.Name, tc.Function.Arguments
		}
	}
	return &cr
}

// HasTool reports whether the request offers a tool with that name.
func (c *ChatRequest) HasTool(name string) bool {
	for _, t := range c.Tools {
		if t.Function.Name == name {
			return true
		}
	}
	return false
}

// LastUser returns the index and text of the last user message (-1 if none).
func (c *ChatRequest) LastUser() (int, string) {
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == "user" {
			return i, string(c.Messages[i].Content)
		}
	}
	return -1, ""
}
