package openaiapi

import (
	"encoding/json"
	"strconv"

	"github.com/knowspace/knowspace/internal/agent"
	"github.com/knowspace/knowspace/internal/agent/llm"
)

// answer projects a turn's events onto OpenAI's completion: the answer
// text, one short line per tool call when asked, the finish reason and
// usage. The stream encoder and the whole completion both read it.
type answer struct {
	toolLines bool
	lastByte  byte // of the text so far, so a tool line starts on its own line
	ended     string
	finish    string
	usage     *llm.Usage
	err       agent.ErrorData
}

// text is what the event adds to the answer text ("" for none).
func (a *answer) text(e agent.Event) string {
	switch d := e.Data.(type) {
	case agent.TextData:
		if e.Name != agent.EventDelta {
			return "" // reasoning is the model's own, not the answer
		}
		a.note(d.Text)
		return d.Text
	case agent.ToolResultData:
		if !a.toolLines {
			return ""
		}
		line := toolLine(d)
		if a.lastByte != 0 && a.lastByte != '\n' {
			line = "\n\n" + line
		}
		a.note(line)
		return line
	case agent.DoneData:
		a.ended, a.finish, a.usage = agent.EventDone, finishReason(d.FinishReason), d.Usage
	case agent.ErrorData:
		a.ended, a.err = agent.EventError, d
	}
	return ""
}

func (a *answer) note(s string) {
	if s != "" {
		a.lastByte = s[len(s)-1]
	}
}

// toolLine summarizes one tool call as a Markdown quote, so a chat client
// shows what the agent looked at without a tool protocol of its own.
func toolLine(d agent.ToolResultData) string {
	status := ""
	if !d.OK {
		status = " (failed)"
	}
	line := "> " + d.Name + status
	if d.Summary != "" {
		line += ": " + d.Summary
	}
	return line + "\n\n"
}

// finishReason maps the turn's last model step to OpenAI's values; the
// turn answered in text, so a step that ended in tool calls is not the end.
func finishReason(r string) string {
	switch r {
	case string(llm.FinishLength), string(llm.FinishContentFilter):
		return r
	}
	return "stop"
}

type usageJSON struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

func openAIUsage(u *llm.Usage) usageJSON {
	if u == nil {
		return usageJSON{}
	}
	return usageJSON{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
}

// chunkEncoder spells a turn's events as chat.completion.chunk SSE data
// lines. It runs on the stream's one writer goroutine.
type chunkEncoder struct {
	answer
	includeUsage bool
	// head opens every chunk up to the choices; built once per stream.
	head []byte
}

func newChunkEncoder(id, model string, created int64, req *completionRequest) *chunkEncoder {
	head := []byte(`{"id":`)
	head = strconv.AppendQuote(head, id)
	head = append(head, `,"object":"chat.completion.chunk","created":`...)
	head = strconv.AppendInt(head, created, 10)
	head = append(head, `,"model":`...)
	head = appendString(head, model)
	return &chunkEncoder{answer: answer{toolLines: req.toolLines()}, includeUsage: req.includeUsage(), head: head}
}

func appendString(buf []byte, s string) []byte {
	b, _ := json.Marshal(s) // a string always marshals
	return append(buf, b...)
}

func (c *chunkEncoder) chunk(buf []byte, delta string, finish string) []byte {
	return c.closeChunk(append(c.openChunk(buf), delta...), finish)
}

func (c *chunkEncoder) openChunk(buf []byte) []byte {
	buf = append(buf, "data: "...)
	buf = append(buf, c.head...)
	return append(buf, `,"choices":[{"index":0,"delta":`...)
}

func (c *chunkEncoder) closeChunk(buf []byte, finish string) []byte {
	buf = append(buf, `,"finish_reason":`...)
	if finish == "" {
		buf = append(buf, "null"...)
	} else {
		buf = appendString(buf, finish)
	}
	return append(buf, "}]}\n\n"...)
}

// encode is the stream's agent.Encoder.
func (c *chunkEncoder) encode(buf []byte, e agent.Event) []byte {
	if e.Name == agent.EventStart {
		return c.chunk(buf, `{"role":"assistant","content":""}`, "")
	}
	if t := c.text(e); t != "" {
		buf = append(c.openChunk(buf), `{"content":`...)
		return c.closeChunk(append(appendString(buf, t), '}'), "")
	}
	switch c.ended {
	case agent.EventDone:
		buf = c.chunk(buf, "{}", c.finish)
		if c.includeUsage {
			u, _ := json.Marshal(openAIUsage(c.usage))
			buf = append(buf, "data: "...)
			buf = append(buf, c.head...)
			buf = append(buf, `,"choices":[],"usage":`...)
			buf = append(buf, u...)
			buf = append(buf, "}\n\n"...)
		}
		// Only a turn that ended done is complete: [DONE] says so.
		return append(buf, "data: [DONE]\n\n"...)
	case agent.EventError:
		b, _ := json.Marshal(turnError(c.err.Code, c.err.Message))
		buf = append(buf, "data: "...)
		buf = append(buf, b...)
		return append(buf, "\n\n"...)
	}
	return buf
}
