package agent

import (
	"encoding/json"

	"github.com/knowspace/knowspace/internal/agent/llm"
)

// ProtocolReserve is kept free of the window for message framing (SPEC §6).
const ProtocolReserve = llm.ProtocolReserve

// EstimateKind labels the estimate for clients: bytes are an upper bound of
// tokens, not a token count.
const EstimateKind = "utf8_bytes_upper_bound"

// measure estimates the input of a request by source.
func measure(system string, tools []llm.Tool, msgs []llm.Message) Breakdown {
	b := Breakdown{System: len(system)}
	if len(tools) > 0 {
		raw, _ := json.Marshal(tools)
		b.Tools = len(raw)
	}
	for _, m := range msgs {
		n := messageBytes(m)
		if m.Role == llm.RoleTool || len(m.ToolCalls) > 0 {
			b.Observations += n
		} else {
			b.History += n
		}
	}
	return b
}

func messageBytes(m llm.Message) int {
	n := len(m.Content) + len(m.ToolCallID)
	for _, c := range m.ToolCalls {
		n += len(c.ID) + len(c.Name) + len(c.Arguments)
	}
	return n
}

func (b Breakdown) total() int { return b.System + b.Tools + b.History + b.Observations }

// inputLimit is window − output reserve − protocol reserve.
func inputLimit(m llm.Meta) int { return m.ContextWindow - m.OutputReserve - ProtocolReserve }
