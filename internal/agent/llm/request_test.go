package llm

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
)

// turnTwo is a follow-up request after a tool call, as the turn runner
// sends it: the assistant's call, then the paired tool result.
func turnTwo() Request {
	return Request{
		System: "You explore kb://notes.",
		Messages: []Message{
			{Role: RoleUser, Content: "what is in notes?"},
			{Role: RoleAssistant, Reasoning: "I should list.", ToolCalls: []ToolCall{{ID: "call_1", Name: "ls",
				Arguments: `{"uri":"kb://notes"}`, Extra: json.RawMessage(`{"google":{"thought_signature":"SIG=="}}`)}}},
			{Role: RoleTool, ToolCallID: "call_1", Content: `{"items":[]}`},
		},
		Tools: []Tool{{Name: "ls", Description: "list", Parameters: json.RawMessage(
			`{"type":"object","properties":{"uri":{"type":"string"}},"required":["uri"]}`)}, {Name: "status"}},
	}
}

func TestRequestShape(t *testing.T) {
	t.Parallel()
	off := false
	cases := []struct {
		profile     string
		edit        func(*ModelConfig)
		usage       bool
		completion  bool // max_completion_tokens instead of max_tokens
		reasoning   bool // reasoning_content echoed
		extra       bool // extra_content echoed
		checkFields map[string]string
	}{
		{profile: ProfileOpenAI, usage: true, completion: true},
		{profile: ProfileDeepSeek, usage: true, reasoning: true},
		{profile: ProfileQwen, usage: true, edit: func(c *ModelConfig) {
			c.ExtraBody = map[string]any{"enable_thinking": true, "thinking_budget": 512}
		}, checkFields: map[string]string{"enable_thinking": "true", "thinking_budget": "512"}},
		{profile: ProfileOllama, usage: true},
		{profile: ProfileGemini, usage: true, extra: true},
		{profile: ProfileOpenAICompatible, usage: false, edit: func(c *ModelConfig) {
			c.StreamUsage = &off
			c.Headers = map[string]string{"X-Relay-Route": "route-secret-value"}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.profile, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			var edits []func(*ModelConfig)
			if tc.edit != nil {
				edits = append(edits, tc.edit)
			}
			m := f.model(t, tc.profile, edits...)
			f.fake.Push(fakellm.TextStream("ok"))
			if r := drain(t, m, turnTwo()); r.err != nil {
				t.Fatal(r.err)
			}
			reqs := f.fake.Requests()
			rec := reqs[len(reqs)-1]
			chat := rec.Chat
			if rec.Path != "/v1/chat/completions" || !chat.Stream || chat.Model != "upstream-"+tc.profile {
				t.Fatalf("path %s stream %v model %s", rec.Path, chat.Stream, chat.Model)
			}
			if got := rec.Header.Get("Authorization"); got != "Bearer "+testKey {
				t.Fatalf("authorization %q", got)
			}
			if got := chat.StreamOptions != nil && chat.StreamOptions.IncludeUsage; got != tc.usage {
				t.Fatalf("include_usage %v, want %v", got, tc.usage)
			}
			if tc.completion != (chat.MaxCompletionTokens == 4096) || tc.completion == (chat.MaxTokens == 4096) {
				t.Fatalf("max_tokens %d max_completion_tokens %d", chat.MaxTokens, chat.MaxCompletionTokens)
			}
			if len(chat.Messages) != 4 || chat.Messages[0].Role != "system" {
				t.Fatalf("messages %+v", chat.Messages)
			}
			asst, tool := chat.Messages[2], chat.Messages[3]
			if len(asst.ToolCalls) != 1 || asst.ToolCalls[0].ID != "call_1" || asst.ToolCalls[0].Name != "ls" ||
				tool.ToolCallID != "call_1" || tool.Role != "tool" {
				t.Fatalf("tool call and result not paired: %+v / %+v", asst, tool)
			}
			if got := asst.ReasoningContent != ""; got != tc.reasoning {
				t.Fatalf("reasoning echoed %v, want %v", got, tc.reasoning)
			}
			if got := len(asst.ToolCalls[0].ExtraContent) > 0; got != tc.extra {
				t.Fatalf("extra_content echoed %v, want %v", got, tc.extra)
			}
			if len(chat.Tools) != 2 || chat.Tools[0].Function.Name != "ls" ||
				string(chat.Tools[1].Function.Parameters) != `{"type":"object","properties":{}}` {
				t.Fatalf("tools %+v", chat.Tools)
			}
			for k, v := range tc.checkFields {
				if string(chat.Fields[k]) != v {
					t.Fatalf("field %s = %s, want %s", k, chat.Fields[k], v)
				}
			}
			if tc.profile == ProfileOpenAICompatible && rec.Header.Get("X-Relay-Route") != "route-secret-value" {
				t.Fatalf("extra header not sent")
			}
		})
	}
}

func TestComplete(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	m := f.model(t, ProfileDeepSeek)
	f.fake.Push(fakellm.Stream(
		fakellm.Data(fakellm.ReasoningChunk("thinking")),
		fakellm.Data(fakellm.TextChunk("Sum")), fakellm.Data(fakellm.TextChunk("mary")),
		fakellm.Data(fakellm.ToolCallStart(0, "call_9", "read", `{"uri":"kb://a"}`)),
		fakellm.Data(fakellm.FinishChunk("tool_calls")), fakellm.Data(fakellm.UsageChunk(3, 4)), fakellm.Done()))
	resp, err := m.Complete(context.Background(), userHi)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Summary" || resp.Reasoning != "thinking" || resp.Finish != FinishToolCalls ||
		len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "call_9" || resp.Usage == nil || resp.Usage.OutputTokens != 4 {
		t.Fatalf("got %+v", resp)
	}

	// A truncated answer is an error, never a short success.
	f.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("Sum"))))
	if _, err := m.Complete(context.Background(), userHi); err == nil {
		t.Fatal("truncated completion succeeded")
	}
}

func TestDefaultScriptThroughClient(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	m := f.model(t, ProfileOpenAICompatible)
	req := Request{Messages: []Message{{Role: RoleUser, Content: "please use ls on kb://notes"}},
		Tools: []Tool{{Name: "ls"}}}
	r := drain(t, m, req)
	if r.err != nil || len(r.calls) != 1 || r.calls[0].Name != "ls" || r.calls[0].Arguments != `{"uri":"kb://notes"}` {
		t.Fatalf("tool turn: %+v", r)
	}
	req.Messages = append(req.Messages, Message{Role: RoleAssistant, ToolCalls: r.calls},
		Message{Role: RoleTool, ToolCallID: r.calls[0].ID, Content: "a.md b.md"})
	r = drain(t, m, req)
	if r.err != nil || r.finish != FinishStop || r.text == "" || r.usage == nil {
		t.Fatalf("answer turn: %+v", r)
	}
	r = drain(t, m, Request{Messages: []Message{{Role: RoleUser, Content: "echo 你好"}}})
	if r.text != "echo 你好" {
		t.Fatalf("echo: %q", r.text)
	}
}

// TestReasoningEffortOnlyForReasoningModels: the field is sent to models
// configured with reasoning: true and left out elsewhere.
func TestReasoningEffortOnlyForReasoningModels(t *testing.T) {
	t.Parallel()
	for _, reasoning := range []bool{true, false} {
		f := newFake(t)
		m := f.model(t, ProfileOpenAI, func(c *ModelConfig) { c.Reasoning = reasoning })
		f.fake.Push(fakellm.TextStream("ok"))
		req := userHi
		req.ReasoningEffort = "high"
		if r := drain(t, m, req); r.err != nil {
			t.Fatal(r.err)
		}
		got, sent := f.fake.LastChat().Fields["reasoning_effort"]
		if sent != reasoning || (reasoning && string(got) != `"high"`) {
			t.Fatalf("reasoning %v: reasoning_effort sent=%v value=%s", reasoning, sent, got)
		}
	}
}
