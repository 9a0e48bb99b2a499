// Package llm is the provider layer of KnowAgent: model configuration and
// discovery, the Registry that maps model ids to provider profiles, and a
// streaming client on github.com/sashabaranov/go-openai that turns every
// provider's chat-completion stream into one normalized chunk stream.
//
// The normalized protocol (from seeds/dsh-llm-adapter.zh.md) is:
//
//   - every content block starts with ChunkBlockStart and ends with
//     ChunkBlockEnd; block indexes count up from 0;
//   - ChunkTextDelta only inside a text block, ChunkReasoningDelta only inside
//     a reasoning block, ChunkToolCallDelta only inside a tool-call block;
//   - the ChunkBlockEnd of a tool-call block carries the complete call, with
//     fragments joined by their upstream index;
//   - ChunkUsage (when the provider reported usage) comes before ChunkFinish;
//   - ChunkFinish is the last chunk, after which Recv returns io.EOF.
//
// A stream that ends without the provider's data: [DONE] marker, or without
// a finish reason, ends with an *Error instead of ChunkFinish: never a
// silent success.
package llm

import "encoding/json"

// ChunkType names the kinds of normalized stream chunks.
type ChunkType int

// The chunk kinds, in the order a block uses them.
const (
	ChunkBlockStart ChunkType = iota + 1
	ChunkTextDelta
	ChunkReasoningDelta
	ChunkToolCallDelta
	ChunkBlockEnd
	ChunkUsage
	ChunkFinish
)

var chunkTypeNames = [...]string{"", "block_start", "text_delta", "reasoning_delta", "tool_call_delta",
	"block_end", "usage", "finish"}

func (t ChunkType) String() string {
	if int(t) < len(chunkTypeNames) {
		return chunkTypeNames[t]
	}
	return "unknown"
}

// BlockType is the kind of a content block.
type BlockType string

// Block kinds. Reasoning is an extension of the seed protocol: providers
// stream it apart from the answer and the UI shows it apart.
const (
	BlockText      BlockType = "text"
	BlockReasoning BlockType = "reasoning"
	BlockToolCall  BlockType = "tool_call"
)

// FinishReason says why the model stopped.
type FinishReason string

// Normalized finish reasons. Unknown provider values are passed through
// lower-cased.
const (
	FinishStop          FinishReason = "stop"
	FinishToolCalls     FinishReason = "tool_calls"
	FinishLength        FinishReason = "length"
	FinishContentFilter FinishReason = "content_filter"
)

// Chunk is one element of the normalized stream. Which fields are set
// depends on Type.
type Chunk struct {
	Type ChunkType
	// Index is the block index for block start/end and deltas.
	Index int
	// Block is the block kind for block start/end and deltas.
	Block BlockType
	// Text is the delta of a text or reasoning delta, the arguments piece of
	// a tool-call delta, and the whole text of a text or reasoning block end.
	Text string
	// Call is, for a tool-call delta, the id and name known so far; for the
	// end of a tool-call block, the complete call.
	Call ToolCall
	// Usage is set on ChunkUsage.
	Usage Usage
	// Finish is set on ChunkFinish.
	Finish FinishReason
}

// ToolCall is a function call requested by the model.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
	// Extra is provider data that must travel back with the call on the
	// next turn (Gemini's extra_content.google.thought_signature); opaque.
	Extra json.RawMessage
}

// Usage is the provider's token accounting for one call.
type Usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	CachedTokens    int `json:"cached_tokens,omitempty"`
	ReasoningTokens int `json:"reasoning_tokens,omitempty"`
}

// Role is the author of a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of the conversation sent to the model.
type Message struct {
	Role    Role
	Content string
	// Reasoning is an assistant message's reasoning, sent back only to
	// profiles that require it (DeepSeek thinking with tool calls).
	Reasoning string
	// ToolCalls are an assistant message's calls.
	ToolCalls []ToolCall
	// ToolCallID pairs a tool message with its call.
	ToolCallID string
}

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments.
	Parameters json.RawMessage
}

// Request is one model call.
type Request struct {
	// System, when set, is sent as the first message.
	System   string
	Messages []Message
	Tools    []Tool
	// MaxTokens caps the output; 0 means the model's configured max_output.
	MaxTokens int
	// Temperature is sent only when set.
	Temperature *float32
	// ReasoningEffort (low, medium, high) is sent only to models configured
	// with reasoning: true; others would refuse the field.
	ReasoningEffort string
}
