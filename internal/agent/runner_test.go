package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/fakellm"
)

func TestPlainAnswer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fake.Push(fakellm.TextStream("Hel", "lo 世", "界"))
	ev := h.run(t, context.Background(), "hi")
	if got := names(ev); got != "start,context,delta,done" {
		t.Fatalf("events %s", got)
	}
	var text strings.Builder
	for _, e := range ev {
		if e.Name == EventDelta {
			text.WriteString(e.Data.(TextData).Text)
		}
	}
	if text.String() != "Hello 世界" {
		t.Fatalf("text %q", text.String())
	}
	d := last(ev).Data.(DoneData)
	if d.FinishReason != "stop" || d.Steps != 1 || d.ModelCalls != 1 || d.Usage == nil || d.Usage.InputTokens != 10 || d.Estimate <= 0 {
		t.Fatalf("done %+v", d)
	}
	c := ev[1].Data.(ContextData)
	if c.InputLimit != 65536-4096-1024 || c.EstimateKind != EstimateKind || c.Breakdown.Tools == 0 || c.Breakdown.System == 0 {
		t.Fatalf("context %+v", c)
	}
}

func TestToolLoopPairsResults(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fake.Push(
		toolCallStream([3]string{"call_1", "ls", `{"uri":"kb://me/"}`}, [3]string{"call_2", "read", `{"uri":"kb://me/a.md","offset":0}`}),
		fakellm.TextStream("The folder has a.md."),
	)
	ev := h.run(t, context.Background(), "what is here?")
	if got := names(ev); got != "start,context,tool_call,tool_result,tool_call,tool_result,context,delta,done" {
		t.Fatalf("events %s", got)
	}
	res := ev[5].Data.(ToolResultData)
	if !res.OK || res.Name != "read" || res.URI != "kb://me/a.md" || res.Offset == nil || res.Bytes == 0 {
		t.Fatalf("read result %+v", res)
	}
	req := h.fake.LastChat()
	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,tool" {
		t.Fatalf("second request roles %v", roles)
	}
	if req.Messages[3].ToolCallID != "call_1" || req.Messages[4].ToolCallID != "call_2" || len(req.Messages[2].ToolCalls) != 2 {
		t.Fatalf("results not paired: %+v", req.Messages)
	}
	if d := last(ev).Data.(DoneData); d.ToolCalls != 2 || d.Steps != 2 || d.Usage.InputTokens != 110 {
		t.Fatalf("done %+v", d)
	}
}

func TestLoopGuardAndIDs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fake.Push(
		toolCallStream([3]string{"", "ls", `{"uri":"kb://me/"}`}, [3]string{"", "ls", `{ "uri" : "kb://me/" }`}),
		toolCallStream([3]string{"dup", "nosuch", `{}`}),
		toolCallStream([3]string{"dup", "read", `{"uri":"kb://me/huge.md"}`}),
		fakellm.TextStream("done"),
	)
	ev := h.run(t, context.Background(), "go")
	var results []ToolResultData
	ids := map[string]bool{}
	for _, e := range ev {
		switch d := e.Data.(type) {
		case ToolCallData:
			if d.ID == "" || ids[d.ID] {
				t.Fatalf("call id %q empty or repeated", d.ID)
			}
			ids[d.ID] = true
		case ToolResultData:
			results = append(results, d)
		}
	}
	if len(results) != 4 {
		t.Fatalf("results %d: %s", len(results), names(ev))
	}
	if !results[0].OK || results[1].OK || !strings.Contains(results[1].Error, "identical to "+results[0].ID) {
		t.Fatalf("loop guard: %+v", results[1])
	}
	if results[2].OK || !strings.Contains(results[2].Error, "unknown tool") {
		t.Fatalf("unknown tool: %+v", results[2])
	}
	if results[3].OK || !strings.Contains(results[3].Error, "over the") {
		t.Fatalf("oversized result: %+v", results[3])
	}
	if h.tools.count() != 3 {
		t.Fatalf("the repeated call ran: %d runs", h.tools.count())
	}
	if last(ev).Name != EventDone {
		t.Fatalf("ended with %s", last(ev).Name)
	}
}

func TestLimitsEndWithError(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		perStep   int
		wantCode  string
		wantSteps int
	}{
		{"steps", 1, "limit_steps", 12},
		{"tool calls", 3, "limit_tool_calls", 9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			n := 0
			h.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
				var calls [][3]string
				for i := 0; i < tc.perStep; i++ {
					n++
					calls = append(calls, [3]string{fmt.Sprintf("c%d", n), "read", fmt.Sprintf(`{"uri":"kb://me/a.md","offset":%d}`, n)})
				}
				return toolCallStream(calls...)
			})
			ev := h.run(t, context.Background(), "loop forever")
			e := last(ev)
			if e.Name != EventError || e.Data.(ErrorData).Code != tc.wantCode {
				t.Fatalf("ended with %s %+v", e.Name, e.Data)
			}
			steps := 0
			for _, e := range ev {
				if e.Name == EventContext {
					steps++
				}
			}
			if steps != tc.wantSteps {
				t.Fatalf("model steps %d want %d", steps, tc.wantSteps)
			}
			for _, e := range ev {
				if e.Name == EventDone {
					t.Fatal("a limit must never end with done")
				}
			}
		})
	}
}

func TestBrokenStreamsFail(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		resp fakellm.Response
		code string
	}{
		{"no done marker", fakellm.Stream(fakellm.Data(fakellm.TextChunk("partial")), fakellm.Data(fakellm.FinishChunk("stop"))), "llm_incomplete_stream"},
		{"reset", fakellm.Stream(fakellm.Data(fakellm.TextChunk("partial")), fakellm.Reset()), ""},
		{"length", fakellm.Stream(fakellm.Data(fakellm.TextChunk("cut")), fakellm.Data(fakellm.FinishChunk("length")), fakellm.Done()), "output_truncated"},
		{"filter", fakellm.Stream(fakellm.Data(fakellm.FinishChunk("content_filter")), fakellm.Done()), "content_filtered"},
		{"http 429", fakellm.RateLimited("3"), "llm_rate_limited"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fake.Push(tc.resp)
			ev := h.run(t, context.Background(), "hi")
			e := last(ev)
			if e.Name != EventError {
				t.Fatalf("ended with %s", names(ev))
			}
			if code := e.Data.(ErrorData).Code; tc.code != "" && code != tc.code {
				t.Fatalf("code %s want %s", code, tc.code)
			}
		})
	}
}

func TestCancelStopsUpstreamAndEmitsNothingMore(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(10*time.Second), fakellm.Data(fakellm.TextChunk("never")), fakellm.Done()))
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{Model: h.model, Tools: h.tools, Limits: DefaultLimits}
	events := make(chan Event, 100)
	finished := make(chan struct{})
	go func() {
		r.Run(ctx, Turn{ID: "t", ScopeURI: "kb://users/alice/", Message: "hi"}, func(e Event) { events <- e })
		close(finished)
	}()
	for e := range events {
		if e.Name == EventDelta {
			break
		}
	}
	cancel()
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("the turn did not stop after cancel")
	}
	select {
	case <-h.fake.Aborted():
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream request was not closed")
	}
	close(events)
	for e := range events {
		t.Fatalf("event after cancel: %s", e.Name)
	}
}

func TestCancelStopsRunningTool(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.tools.block = make(chan struct{})
	h.fake.Push(toolCallStream([3]string{"c1", "ls", `{"uri":"kb://me/"}`}))
	ctx, cancel := context.WithCancel(context.Background())
	var got []string
	done := make(chan struct{})
	go func() {
		r := &Runner{Model: h.model, Tools: h.tools, Limits: DefaultLimits}
		r.Run(ctx, Turn{ID: "t", Message: "hi"}, func(e Event) {
			got = append(got, e.Name)
			if e.Name == EventToolCall {
				go cancel()
			}
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a running tool kept the turn alive after cancel")
	}
	if got[len(got)-1] != EventToolCall {
		t.Fatalf("events after cancel: %v", got)
	}
}

func TestCompactionKeepsQuestionAndPairs(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(mc *llm.ModelConfig) { mc.ContextWindow, mc.OutputReserve = 8192, 1024 })
	var summaries int
	h.fake.SetFunc(func(r *fakellm.Request) fakellm.Response {
		if strings.Contains(string(r.Chat.Messages[0].Content), "compact the working memory") {
			summaries++
			return fakellm.TextStream("Earlier: read kb://me/a.md at offset 0; open question: dates.")
		}
		return fakellm.TextStream("answer")
	})
	big := strings.Repeat("old conversation about kb://me/a.md ", 120) // ~4.3 KB each
	history := []llm.Message{
		{Role: llm.RoleUser, Content: big}, {Role: llm.RoleAssistant, Content: big},
		{Role: llm.RoleUser, Content: big}, {Role: llm.RoleAssistant, Content: big},
	}
	ev := h.run(t, context.Background(), "the current question, verbatim", history...)
	if last(ev).Name != EventDone {
		t.Fatalf("ended with %s: %+v", names(ev), last(ev).Data)
	}
	var lastCtx ContextData
	for _, e := range ev {
		if c, ok := e.Data.(ContextData); ok && c.LastCompaction != nil {
			lastCtx = c
		}
	}
	if summaries == 0 || lastCtx.Compactions != summaries || lastCtx.LastCompaction.Ratio <= 1 || lastCtx.Estimate > lastCtx.InputLimit {
		t.Fatalf("compaction not measured: summaries %d, %+v", summaries, lastCtx)
	}
	req := h.fake.LastChat()
	lastMsg := req.Messages[len(req.Messages)-1]
	if string(lastMsg.Content) != "the current question, verbatim" {
		t.Fatalf("question changed: %q", lastMsg.Content)
	}
	if d := last(ev).Data.(DoneData); d.ModelCalls != summaries+1 {
		t.Fatalf("compaction calls not counted: %+v", d)
	}
}

func TestCompactionThatCannotFitFails(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(mc *llm.ModelConfig) { mc.ContextWindow, mc.OutputReserve = 4096, 1024 })
	ev := h.run(t, context.Background(), strings.Repeat("a question too large to fit ", 200))
	e := last(ev)
	if e.Name != EventError || e.Data.(ErrorData).Code != "context_overflow" {
		t.Fatalf("ended with %s %+v", e.Name, e.Data)
	}
	if len(h.fake.Requests()) != 0 {
		t.Fatal("the model was called with an input over the limit")
	}
}

func TestTextOnlyModeSendsMaterialAndNoTools(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(mc *llm.ModelConfig) { mc.NativeTools = false })
	h.fake.Push(fakellm.TextStream("From the listing: a.md."))
	r := &Runner{Model: h.model, Limits: DefaultLimits}
	var ev []Event
	r.Run(context.Background(), Turn{ID: "t", ScopeURI: "kb://users/alice/", Message: "what is here?", Material: "a.md (file, 10 bytes)"}, func(e Event) { ev = append(ev, e) })
	if last(ev).Name != EventDone || ev[0].Data.(StartData).Mode != "text_only" {
		t.Fatalf("events %s", names(ev))
	}
	req := h.fake.LastChat()
	if len(req.Tools) != 0 || !strings.Contains(string(req.Messages[0].Content), "a.md (file, 10 bytes)") || !strings.Contains(string(req.Messages[0].Content), "cannot call tools") {
		t.Fatalf("text-only request: tools %d system %q", len(req.Tools), req.Messages[0].Content)
	}
}

func TestCompactionKeepsCallsWithResults(t *testing.T) {
	t.Parallel()
	h := newHarness(t, func(mc *llm.ModelConfig) { mc.ContextWindow, mc.OutputReserve = 12288, 1024 })
	step := 0
	h.fake.SetFunc(func(r *fakellm.Request) fakellm.Response {
		if strings.Contains(string(r.Chat.Messages[0].Content), "compact the working memory") {
			return fakellm.TextStream("Read kb://me/big.md offsets 0-3000 and 3000-6000: both say hello.")
		}
		step++
		if step <= 3 {
			return toolCallStream([3]string{fmt.Sprintf("c%d", step), "read", fmt.Sprintf(`{"uri":"kb://me/big.md","offset":%d}`, step*3000)})
		}
		return fakellm.TextStream("done reading")
	})
	ev := h.run(t, context.Background(), "summarize big.md")
	if last(ev).Name != EventDone {
		t.Fatalf("ended with %s %+v", names(ev), last(ev).Data)
	}
	compacted := false
	for _, e := range ev {
		if c, ok := e.Data.(ContextData); ok && c.Compactions > 0 {
			compacted = true
		}
	}
	if !compacted {
		t.Fatal("the observations never triggered a compaction")
	}
	// Every tool message in every request follows an assistant message that
	// made that call: no orphan results.
	for i, req := range h.fake.Requests() {
		calls := map[string]bool{}
		for _, m := range req.Chat.Messages {
			for _, c := range m.ToolCalls {
				calls[c.ID] = true
			}
			if m.Role == "tool" && !calls[m.ToolCallID] {
				t.Fatalf("request %d has an orphan tool result %q", i, m.ToolCallID)
			}
		}
	}
}
