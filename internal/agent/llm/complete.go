package llm

import (
	"context"
	"errors"
	"io"
	"strings"
)

// Response is the result of a non-streaming call.
type Response struct {
	Text      string
	Reasoning string
	ToolCalls []ToolCall
	// Usage is nil when the provider did not report it.
	Usage  *Usage
	Finish FinishReason
}

// Complete runs a call to the end on the streaming path, so it shares the
// same [DONE] and finish-reason checks: a truncated answer is an error,
// never a short success.
func (m *Model) Complete(ctx context.Context, req Request) (*Response, error) {
	s, err := m.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var out Response
	var text, reasoning strings.Builder
	for {
		c, err := s.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch c.Type {
		case ChunkTextDelta:
			text.WriteString(c.Text)
		case ChunkReasoningDelta:
			reasoning.WriteString(c.Text)
		case ChunkBlockEnd:
			if c.Block == BlockToolCall {
				out.ToolCalls = append(out.ToolCalls, c.Call)
			}
		case ChunkUsage:
			u := c.Usage
			out.Usage = &u
		case ChunkFinish:
			out.Finish = c.Finish
		}
	}
	out.Text, out.Reasoning = text.String(), reasoning.String()
	return &out, nil
}
