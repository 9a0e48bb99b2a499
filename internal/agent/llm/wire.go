package llm

import (
	"bytes"
	"encoding/json"
	"strings"
)

// wireChunk is one chat.completion.chunk as providers really send it. It is
// decoded from go-openai's RecvRaw because the typed structs drop fields we
// need (Ollama's delta.reasoning, DeepSeek's cache counts, Gemini's
// extra_content, OpenRouter's top-level error). Unknown fields are ignored.
type wireChunk struct {
	Choices []wireChoice    `json:"choices"`
	Usage   *wireUsage      `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type wireChoice struct {
	Index        int       `json:"index"`
	Delta        wireDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

// wireDelta uses plain strings: null and "" mean the same here, and
// pointers would cost an allocation per chunk.
type wireDelta struct {
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content"`
	Reasoning        string         `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
}

type wireToolCall struct {
	// Index is a pointer because Gemini and very old Ollama omit it.
	Index    *int   `json:"index"`
	ID       string `json:"-"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	ExtraContent json.RawMessage `json:"extra_content"`
}

// UnmarshalJSON tolerates "id": null and numeric ids from odd relays.
func (t *wireToolCall) UnmarshalJSON(b []byte) error {
	type plain wireToolCall
	var v struct {
		plain
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = wireToolCall(v.plain)
	t.ID = ""
	if len(v.ID) > 0 && v.ID[0] == '"' {
		_ = json.Unmarshal(v.ID, &t.ID)
	} else if len(v.ID) > 0 && string(v.ID) != "null" {
		t.ID = string(v.ID)
	}
	return nil
}

type wireUsage struct {
	PromptTokens         int `json:"prompt_tokens"`
	CompletionTokens     int `json:"completion_tokens"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"` // DeepSeek
	PromptTokensDetails  *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

func (u *wireUsage) normalize() Usage {
	out := Usage{InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens,
		CachedTokens: u.PromptCacheHitTokens}
	if u.PromptTokensDetails != nil && out.CachedTokens == 0 {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if u.CompletionTokensDetails != nil {
		out.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
	}
	return out
}

// hasError reports a top-level error object (OpenRouter's mid-stream shape,
// or an error line go-openai did not recognise because of its spacing).
func (c *wireChunk) hasError() bool {
	e := bytes.TrimSpace(c.Error)
	return len(e) > 0 && !bytes.Equal(e, []byte("null")) && !bytes.Equal(e, []byte("{}"))
}

// errorMessage extracts error.message (or the error string itself).
func errorMessage(raw json.RawMessage) string {
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &obj) == nil && obj.Message != "" {
		return obj.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return s
	}
	return "provider reported an error"
}

// normalizeFinish maps provider spellings to the normalized reasons.
func normalizeFinish(raw string) FinishReason {
	switch r := strings.ToLower(strings.TrimSpace(raw)); r {
	case "stop", "eos", "end_turn", "stop_sequence":
		return FinishStop
	case "tool_calls", "function_call", "tool_use":
		return FinishToolCalls
	case "length", "max_tokens":
		return FinishLength
	case "content_filter", "safety":
		return FinishContentFilter
	default:
		return FinishReason(r)
	}
}
