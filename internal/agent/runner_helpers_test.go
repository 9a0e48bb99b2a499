package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/fakellm"
)

// fakeTools is a toolbox that records calls and answers ls/read.
type fakeTools struct {
	mu    sync.Mutex
	calls []string
	block chan struct{} // when set, Run waits on it or on ctx
}

func (f *fakeTools) Specs() []llm.Tool {
	schema := json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string"},"offset":{"type":"integer"}},"required":["uri"],"additionalProperties":false}`)
	return []llm.Tool{{Name: "ls", Description: "list", Parameters: schema}, {Name: "read", Description: "read", Parameters: schema}}
}

func (f *fakeTools) Run(ctx context.Context, name string, args json.RawMessage) ToolOutcome {
	f.mu.Lock()
	f.calls = append(f.calls, name+" "+string(args))
	f.mu.Unlock()
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return ToolOutcome{Err: ctx.Err()}
		}
	}
	var a struct {
		URI    string `json:"uri"`
		Offset int64  `json:"offset"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return ToolOutcome{Err: fmt.Errorf("arguments are not valid JSON: %v", err)}
	}
	switch name {
	case "ls":
		return ToolOutcome{Result: map[string]any{"uri": a.URI, "items": []string{"a.md"}}, Summary: "1 item", URI: a.URI}
	case "read":
		if a.URI == "kb://me/big.md" {
			off := a.Offset
			return ToolOutcome{Result: map[string]any{"uri": a.URI, "text": strings.Repeat("hello ", 700)}, URI: a.URI, Offset: &off}
		}
		if a.URI == "kb://me/huge.md" {
			return ToolOutcome{Result: strings.Repeat("x", MaxToolResultBytes+1), URI: a.URI}
		}
		off := a.Offset
		return ToolOutcome{Result: map[string]any{"uri": a.URI, "text": "hello"}, Summary: "5 chars", URI: a.URI, Offset: &off}
	}
	return ToolOutcome{Err: fmt.Errorf("unknown tool %q; available: ls, read", name)}
}

func (f *fakeTools) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

type harness struct {
	fake  *fakellm.Server
	model *llm.Model
	tools *fakeTools
}

func newHarness(t *testing.T, edit ...func(*llm.ModelConfig)) *harness {
	t.Helper()
	fake := fakellm.New(fakellm.Options{})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	mc := llm.ModelConfig{ID: "fake", Profile: "openai-compatible", BaseURL: srv.URL + "/v1", APIKey: "k",
		Model: "fake-model", ContextWindow: 65536, OutputReserve: 4096, NativeTools: true}
	for _, e := range edit {
		e(&mc)
	}
	reg, err := llm.NewRegistry([]llm.ModelConfig{mc}, llm.RegistryOptions{Timeouts: llm.Timeouts{FirstByte: 5 * time.Second, Idle: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := reg.Lookup("fake")
	if err != nil {
		t.Fatal(err)
	}
	return &harness{fake: fake, model: m, tools: &fakeTools{}}
}

// run executes a turn and returns its events.
func (h *harness) run(t *testing.T, ctx context.Context, message string, history ...llm.Message) []Event {
	t.Helper()
	r := &Runner{Model: h.model, Tools: h.tools, Limits: DefaultLimits}
	var mu sync.Mutex
	var events []Event
	r.Run(ctx, Turn{ID: "t1", ScopeURI: "kb://users/alice/", History: history, Message: message}, func(e Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	return events
}

func names(events []Event) string {
	var s []string
	for _, e := range events {
		if len(s) > 0 && s[len(s)-1] == e.Name && (e.Name == EventDelta || e.Name == EventReasoning) {
			continue
		}
		s = append(s, e.Name)
	}
	return strings.Join(s, ",")
}

func last(events []Event) Event { return events[len(events)-1] }

func toolCallStream(calls ...[3]string) fakellm.Response {
	steps := []fakellm.Step{fakellm.Data(fakellm.RoleChunk())}
	for i, c := range calls {
		args := c[2]
		half := len(args) / 2
		steps = append(steps, fakellm.Data(fakellm.ToolCallStart(i, c[0], c[1], args[:half])), fakellm.Data(fakellm.ToolCallArgs(i, args[half:])))
	}
	steps = append(steps, fakellm.Data(fakellm.FinishChunk("tool_calls")), fakellm.Data(fakellm.UsageChunk(100, 10)), fakellm.Done())
	return fakellm.Stream(steps...)
}
