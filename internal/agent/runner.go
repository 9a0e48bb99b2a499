package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/observe"
)

// Turn is one user question in a scope.
type Turn struct {
	ID       string
	ScopeURI string
	History  []llm.Message // earlier user and assistant messages, oldest first
	Message  string
	// Material is host-provided content of the scope for text-only models.
	Material string
	// Stored names where the turn is kept; zero when it is not stored.
	Stored StoredTurn
}

// StoredTurn is the conversation and messages a stored turn writes to,
// announced in the start event.
type StoredTurn struct {
	ConversationID int64 `json:"conversation_id,omitempty"`
	UserMessageID  int64 `json:"user_message_id,omitempty"`
	MessageID      int64 `json:"message_id,omitempty"`
}

// Runner drives turns for one model.
type Runner struct {
	Model  Model
	Tools  Toolbox // nil for text-only models
	Limits Limits
}

// turnState is everything one turn accumulates.
type turnState struct {
	r           *Runner
	ctx         context.Context
	emit        func(Event)
	meta        llm.Meta
	system      string
	tools       []llm.Tool
	msgs        []llm.Message
	question    int // index of the current question in msgs; never compacted
	steps       int
	toolCalls   int
	modelCalls  int
	compactions int
	last        *Compaction
	usage       *llm.Usage
	seen        map[string]string // loop guard: call key → first call id
	ids         map[string]bool
}

// turnError ends a turn with an error event.
type turnError struct{ code, message string }

func (e *turnError) Error() string { return e.code + ": " + e.message }

func fail(code, format string, args ...any) error {
	return &turnError{code: code, message: fmt.Sprintf(format, args...)}
}

// Run executes the turn, sending events through emit; exactly one done or
// error event ends it. Once ctx is cancelled nothing more is emitted.
func (r *Runner) Run(ctx context.Context, t Turn, emit func(Event)) {
	s := &turnState{
		r: r, ctx: ctx, meta: r.Model.Meta(),
		seen: map[string]string{}, ids: map[string]bool{},
	}
	s.emit = func(e Event) {
		if ctx.Err() == nil {
			emit(e)
		}
	}
	mode := "native_tools"
	if r.Tools == nil {
		mode = "text_only"
	}
	s.emit(Event{Name: EventStart, Data: StartData{TurnID: t.ID, ModelID: s.meta.ID, URI: t.ScopeURI, Mode: mode, Limits: r.Limits, StoredTurn: t.Stored}})
	s.msgs = append(append([]llm.Message(nil), t.History...), llm.Message{Role: llm.RoleUser, Content: t.Message})
	s.question = len(s.msgs) - 1

	var (
		finish string
		err    error
	)
	if r.Tools == nil {
		s.system = textOnlyPrompt(t.ScopeURI, t.Material)
		_, finish, err = s.modelStep()
	} else {
		s.system = nativePrompt(t.ScopeURI)
		s.tools = r.Tools.Specs()
		finish, err = s.loop()
	}
	if err != nil {
		s.emit(Event{Name: EventError, Data: errorData(err)})
		return
	}
	s.emit(Event{Name: EventDone, Data: DoneData{
		FinishReason: finish, Steps: s.steps, ToolCalls: s.toolCalls, ModelCalls: s.modelCalls,
		Estimate: s.breakdown().total(), Usage: s.usage,
	}})
}

func errorData(err error) ErrorData {
	var te *turnError
	if errors.As(err, &te) {
		return ErrorData{Code: te.code, Message: te.message}
	}
	if le, ok := llm.AsError(err); ok {
		return ErrorData{Code: le.Code(), Message: le.Message}
	}
	return ErrorData{Code: "internal", Message: "the turn failed unexpectedly"}
}

// loop is the native tool loop: model step → tool calls → results → model.
func (s *turnState) loop() (string, error) {
	for {
		if s.steps >= s.r.Limits.MaxSteps {
			return "", fail("limit_steps", "the turn reached its limit of %d model steps before the model finished; ask a narrower question or continue in a new message", s.r.Limits.MaxSteps)
		}
		calls, finish, err := s.modelStep()
		if err != nil {
			return "", err
		}
		if len(calls) == 0 {
			return finish, nil
		}
		for _, c := range calls {
			if err := s.runCall(c); err != nil {
				return "", err
			}
		}
	}
}

func (s *turnState) breakdown() Breakdown { return measure(s.system, s.tools, s.msgs) }

func (s *turnState) contextData() ContextData {
	b := s.breakdown()
	return ContextData{
		Estimate: b.total(), EstimateKind: EstimateKind, InputLimit: inputLimit(s.meta),
		Window: s.meta.ContextWindow, OutputReserve: s.meta.OutputReserve, ProtocolReserve: ProtocolReserve,
		Breakdown: b, Compactions: s.compactions, LastCompaction: s.last,
	}
}

// takeModelCall counts a call against the shared budget.
func (s *turnState) takeModelCall() error {
	if s.modelCalls >= s.r.Limits.MaxModelCalls {
		return fail("limit_model_calls", "the turn reached its limit of %d model calls (steps and compaction share it)", s.r.Limits.MaxModelCalls)
	}
	s.modelCalls++
	return nil
}

// modelStep compacts when needed, streams one model response to the client
// and returns the complete tool calls it asked for.
func (s *turnState) modelStep() ([]llm.ToolCall, string, error) {
	if err := s.compactIfNeeded(); err != nil {
		return nil, "", err
	}
	if err := s.takeModelCall(); err != nil {
		return nil, "", err
	}
	s.steps++
	s.emit(Event{Name: EventContext, Data: s.contextData()})
	stream, err := s.r.Model.Stream(s.ctx, llm.Request{System: s.system, Messages: s.msgs, Tools: s.tools})
	if err != nil {
		return nil, "", err
	}
	defer stream.Close()
	var (
		text, reasoning strings.Builder
		calls           []llm.ToolCall
		finish          llm.FinishReason
	)
	for {
		c, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, "", err
		}
		switch c.Type {
		case llm.ChunkTextDelta:
			text.WriteString(c.Text)
			s.emit(Event{Name: EventDelta, Data: TextData{c.Text}})
		case llm.ChunkReasoningDelta:
			reasoning.WriteString(c.Text)
			s.emit(Event{Name: EventReasoning, Data: TextData{c.Text}})
		case llm.ChunkBlockEnd:
			if c.Block == llm.BlockToolCall && s.r.Tools != nil {
				calls = append(calls, c.Call)
			}
		case llm.ChunkUsage:
			s.addUsage(c.Usage)
		case llm.ChunkFinish:
			finish = c.Finish
		}
	}
	switch finish {
	case llm.FinishLength:
		return nil, "", fail("output_truncated", "the model hit its output limit before finishing; the partial answer above is incomplete")
	case llm.FinishContentFilter:
		return nil, "", fail("content_filtered", "the provider's content filter stopped the answer")
	}
	calls = s.normalizeIDs(calls)
	s.msgs = append(s.msgs, llm.Message{Role: llm.RoleAssistant, Content: text.String(), Reasoning: reasoning.String(), ToolCalls: calls})
	return calls, string(finish), nil
}

func (s *turnState) addUsage(u llm.Usage) {
	if s.usage == nil {
		s.usage = &llm.Usage{}
	}
	s.usage.InputTokens += u.InputTokens
	s.usage.OutputTokens += u.OutputTokens
	s.usage.CachedTokens += u.CachedTokens
	s.usage.ReasoningTokens += u.ReasoningTokens
}

// normalizeIDs gives every call a unique id: some providers send none, and a
// repeated id would pair two results with one call.
func (s *turnState) normalizeIDs(calls []llm.ToolCall) []llm.ToolCall {
	for i := range calls {
		if calls[i].ID == "" || s.ids[calls[i].ID] {
			calls[i].ID = fmt.Sprintf("call_ks_%d_%d", s.steps, i)
		}
		s.ids[calls[i].ID] = true
	}
	return calls
}

// runCall executes one call (or refuses it) and appends the paired result.
func (s *turnState) runCall(c llm.ToolCall) error {
	if s.toolCalls >= s.r.Limits.MaxToolCalls {
		return fail("limit_tool_calls", "the turn reached its limit of %d tool calls", s.r.Limits.MaxToolCalls)
	}
	s.toolCalls++
	s.emit(Event{Name: EventToolCall, Data: ToolCallData{ID: c.ID, Name: c.Name, Arguments: c.Arguments}})
	var out ToolOutcome
	key := callKey(c)
	first, dup := s.seen[key]
	if dup {
		out.Err = fmt.Errorf("this call is identical to %s earlier in this turn and was not run again; use that result, or change the arguments (e.g. the offset) to get new data", first)
	} else {
		s.seen[key] = c.ID
		out = s.r.Tools.Run(s.ctx, c.Name, json.RawMessage(c.Arguments))
	}
	if err := s.ctx.Err(); err != nil {
		observe.ToolCall(s.toolLabel(c.Name), "canceled")
		return err
	}
	content, ev := projectResult(c, out)
	switch {
	case dup:
		observe.ToolCall(s.toolLabel(c.Name), "duplicate")
	case ev.OK:
		observe.ToolCall(s.toolLabel(c.Name), "ok")
	default:
		observe.ToolCall(s.toolLabel(c.Name), "error")
	}
	s.emit(Event{Name: EventToolResult, Data: ev})
	if out.EndsTurn != "" {
		return fail(out.EndsTurn, "%s", out.Err)
	}
	s.msgs = append(s.msgs, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Content: content})
	return nil
}

// toolLabel is the metric label of a call: the tool's name when the turn
// offered it, "unknown" for a name the model made up.
func (s *turnState) toolLabel(name string) string {
	for _, t := range s.tools {
		if t.Name == name {
			return name
		}
	}
	return "unknown"
}

// callKey identifies a call by tool and arguments, ignoring key order and
// spacing in the JSON.
func callKey(c llm.ToolCall) string {
	var v any
	if err := json.Unmarshal([]byte(c.Arguments), &v); err == nil {
		if b, err := json.Marshal(v); err == nil {
			return c.Name + "\x00" + string(b)
		}
	}
	return c.Name + "\x00" + c.Arguments
}

// projectResult renders a tool outcome for the model and for the client.
func projectResult(c llm.ToolCall, out ToolOutcome) (string, ToolResultData) {
	ev := ToolResultData{ID: c.ID, Name: c.Name, OK: out.Err == nil, Summary: out.Summary,
		URI: out.URI, Offset: out.Offset, NextOffset: out.NextOffset}
	if out.Err == nil {
		raw, err := json.Marshal(out.Result)
		switch {
		case err != nil:
			out.Err = fmt.Errorf("the tool result could not be encoded")
		case len(raw) > MaxToolResultBytes:
			out.Err = fmt.Errorf("the result is %d bytes, over the %d-byte limit; ask for a smaller page (limit) or a narrower uri", len(raw), MaxToolResultBytes)
		default:
			ev.Result, ev.Bytes = out.Result, len(raw)
			return string(raw), ev
		}
	}
	msg := out.Err.Error()
	raw, _ := json.Marshal(map[string]string{"error": msg})
	ev.OK, ev.Error, ev.Bytes, ev.Result = false, msg, len(raw), nil
	if ev.Summary == "" {
		ev.Summary = "error"
	}
	return string(raw), ev
}
