package fakellm

import (
	"encoding/json"
	"fmt"
)

// The helpers below build the JSON payloads of "data:" lines the way OpenAI
// sends them; provider-specific shapes (DeepSeek, Qwen, Ollama, Gemini) are
// best written as literal JSON in the test that needs them.

// ChunkID and ChunkModel fill the envelope of every chunk built here.
const (
	ChunkID    = "chatcmpl-fake"
	ChunkModel = "fake-model"
)

type envelope struct {
	ID      string   `json:"id"`
	Object  string   `json:"object"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Choices []choice `json:"choices"`
	Usage   *Usage   `json:"usage,omitempty"`
}

type choice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Role             string     `json:"role,omitempty"`
	Content          *string    `json:"content,omitempty"`
	ReasoningContent string     `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCall `json:"tool_calls,omitempty"`
}

type toolCall struct {
	Index    *int     `json:"index,omitempty"`
	ID       string   `json:"id,omitempty"`
	Type     string   `json:"type,omitempty"`
	Function function `json:"function"`
}

type function struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// Usage is the usage object of a chunk or completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func chunk(d delta, finish *string) string {
	return marshal(envelope{ID: ChunkID, Object: "chat.completion.chunk", Created: 1, Model: ChunkModel,
		Choices: []choice{{Delta: d, FinishReason: finish}}})
}

func marshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("fakellm: marshal chunk: %v", err))
	}
	return string(b)
}

// RoleChunk is the usual first chunk: role "assistant" and empty content.
func RoleChunk() string {
	empty := ""
	return chunk(delta{Role: "assistant", Content: &empty}, nil)
}

// TextChunk is a content delta.
func TextChunk(text string) string { return chunk(delta{Content: &text}, nil) }

// ReasoningChunk is a DeepSeek/Qwen style reasoning_content delta.
func ReasoningChunk(text string) string { return chunk(delta{ReasoningContent: text}, nil) }

// ToolCallStart is the first fragment of a call: index, id, type, name and
// the first piece of the arguments.
func ToolCallStart(index int, id, name, args string) string {
	return chunk(delta{ToolCalls: []toolCall{{Index: &index, ID: id, Type: "function",
		Function: function{Name: name, Arguments: args}}}}, nil)
}

// ToolCallArgs is a later fragment: only the index and an arguments piece.
func ToolCallArgs(index int, args string) string {
	return chunk(delta{ToolCalls: []toolCall{{Index: &index, Function: function{Arguments: args}}}}, nil)
}

// FinishChunk is the chunk with an empty delta and the finish reason.
func FinishChunk(reason string) string { return chunk(delta{}, &reason) }

// UsageChunk is the include_usage chunk: no choices, only usage.
func UsageChunk(prompt, completion int) string {
	return marshal(envelope{ID: ChunkID, Object: "chat.completion.chunk", Created: 1, Model: ChunkModel,
		Choices: []choice{}, Usage: &Usage{PromptTokens: prompt, CompletionTokens: completion,
			TotalTokens: prompt + completion}})
}

// ErrorObject is {"error":{"message","type","code"}}, the OpenAI error shape
// used both for HTTP error bodies and for errors inside a 200 stream.
func ErrorObject(message, typ string, code any) string {
	e := map[string]any{"message": message, "type": typ}
	if code != nil {
		e["code"] = code
	}
	return marshal(map[string]any{"error": e})
}

// OpenRouterErrorChunk is a normal chunk carrying a top-level error object
// and finish_reason "error", as OpenRouter sends mid-stream failures.
func OpenRouterErrorChunk(message string) string {
	return marshal(map[string]any{
		"id": ChunkID, "object": "chat.completion.chunk", "created": 1, "model": ChunkModel,
		"error":   map[string]any{"code": 502, "message": message},
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": ""}, "finish_reason": "error"}},
	})
}

// Completion is a non-streaming chat.completion body.
func Completion(content string, calls []ToolCall, finish string, usage Usage) string {
	msg := map[string]any{"role": "assistant", "content": content}
	if len(calls) > 0 {
		tc := make([]map[string]any, len(calls))
		for i, c := range calls {
			tc[i] = map[string]any{"id": c.ID, "type": "function",
				"function": map[string]any{"name": c.Name, "arguments": c.Arguments}}
		}
		msg["tool_calls"] = tc
	}
	return marshal(map[string]any{
		"id": ChunkID, "object": "chat.completion", "created": 1, "model": ChunkModel,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   usage,
	})
}
