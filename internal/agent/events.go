// Package agent runs KnowAgent turns: the native tool loop under hard
// limits, the text-only mode, context metrics and compaction, and the SSE
// projection of a turn (SPEC §5, §6). The provider layer is in agent/llm.
package agent

import "github.com/knowspace/knowspace/internal/agent/llm"

// Event is one SSE event of a turn: Name is the event line, Data the JSON.
type Event struct {
	Name string
	Data any
	// ID is the event's place in a kept turn's journal (1, 2, …), written
	// as the SSE id a client resumes after; 0 for a turn that keeps none.
	ID int
}

// Event names (SPEC §5).
const (
	EventStart      = "start"
	EventReasoning  = "reasoning"
	EventDelta      = "delta"
	EventToolCall   = "tool_call"
	EventToolResult = "tool_result"
	EventContext    = "context"
	EventDone       = "done"
	EventError      = "error"
)

// Limits are the per-turn ceilings announced in the start event.
type Limits struct {
	MaxSteps      int `json:"max_steps"`
	MaxToolCalls  int `json:"max_tool_calls"`
	MaxModelCalls int `json:"max_model_calls"`
}

// DefaultLimits are SPEC §6's: model steps and compaction calls share
// MaxModelCalls.
var DefaultLimits = Limits{MaxSteps: 12, MaxToolCalls: 24, MaxModelCalls: 16}

// StartData opens every stream.
type StartData struct {
	TurnID  string `json:"turn_id"`
	ModelID string `json:"model_id"`
	URI     string `json:"uri"`
	Mode    string `json:"mode"` // "native_tools" or "text_only"
	Limits  Limits `json:"limits"`
	StoredTurn
	// Replay says the stream is a stored answer told again, its events
	// numbered afresh: the turn ended and its own events are gone.
	Replay bool `json:"replay,omitempty"`
}

// TextData carries a delta of the answer or of the reasoning.
type TextData struct {
	Text string `json:"text"`
}

// ToolCallData is a complete call, sent before it runs.
type ToolCallData struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolResultData reports a call's outcome; URI and offsets let the UI open
// the preview where a read or search landed.
type ToolResultData struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	OK         bool   `json:"ok"`
	Summary    string `json:"summary"`
	Result     any    `json:"result,omitempty"`
	Error      string `json:"error,omitempty"`
	Bytes      int    `json:"bytes"`
	URI        string `json:"uri,omitempty"`
	Offset     *int64 `json:"offset,omitempty"`
	NextOffset any    `json:"next_offset,omitempty"`
}

// Breakdown splits the estimate by source, in bytes.
type Breakdown struct {
	System       int `json:"system"`
	Tools        int `json:"tools"`
	History      int `json:"history"`
	Observations int `json:"observations"`
}

// Compaction reports one compaction, measured from the estimates; Ratio is
// before ÷ after (2.0 means the context halved).
type Compaction struct {
	Before int     `json:"before"`
	After  int     `json:"after"`
	Ratio  float64 `json:"ratio"`
}

// ContextData is the context meter. Estimate is an upper bound of input
// tokens (UTF-8 bytes), labelled as such; never billed tokens.
type ContextData struct {
	Estimate        int         `json:"estimate"`
	EstimateKind    string      `json:"estimate_kind"`
	InputLimit      int         `json:"input_limit"`
	Window          int         `json:"window"`
	OutputReserve   int         `json:"output_reserve"`
	ProtocolReserve int         `json:"protocol_reserve"`
	Breakdown       Breakdown   `json:"breakdown"`
	Compactions     int         `json:"compactions"`
	LastCompaction  *Compaction `json:"last_compaction,omitempty"`
}

// DoneData ends a successful turn; Usage is the provider's own count, when
// it reported one, beside our estimate.
type DoneData struct {
	FinishReason string     `json:"finish_reason"`
	Steps        int        `json:"steps"`
	ToolCalls    int        `json:"tool_calls"`
	ModelCalls   int        `json:"model_calls"`
	Estimate     int        `json:"estimate"`
	Usage        *llm.Usage `json:"usage,omitempty"`
}

// ErrorData ends a failed turn.
type ErrorData struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}
