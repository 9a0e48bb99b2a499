package llm

import (
	"context"
	"encoding/json"
	"errors"
	gojson "github.com/goccy/go-json"
	"io"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// Stream is one model call's normalized chunk stream. Recv is not safe for
// concurrent use; Close may be called from any goroutine.
type Stream struct {
	model  *Model
	raw    *openai.ChatCompletionStream
	st     *callState
	ctx    context.Context
	cancel context.CancelCauseFunc
	stopWD func() bool

	queue []Chunk
	head  int

	nextBlock int
	open      int // block index of the open text/reasoning block, -1 if none
	openType  BlockType
	openText  strings.Builder

	calls  []*callBuild
	byIdx  map[int]*callBuild
	byID   map[string]*callBuild
	finish string
	usage  *Usage

	done bool  // ChunkFinish was queued
	err  error // terminal error, returned after queued chunks

	start    time.Time   // the call began, for the metrics
	reported atomic.Bool // the call's end was counted

	// requestBytes and outputBytes estimate the usage of a provider that
	// reports none.
	requestBytes int
	outputBytes  int
}

// callBuild accumulates the fragments of one tool call.
type callBuild struct {
	block int
	call  ToolCall
	args  strings.Builder
}

// Recv returns the next chunk. After ChunkFinish it returns io.EOF; on
// failure it returns an *Error (wrapping context.Canceled when the caller
// cancelled). Chunks received before a failure are delivered first.
func (s *Stream) Recv() (Chunk, error) {
	for s.head >= len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
		if s.err != nil {
			return Chunk{}, s.err
		}
		if s.done {
			return Chunk{}, io.EOF
		}
		s.pull()
	}
	c := s.queue[s.head]
	s.head++
	return c, nil
}

// Close releases the upstream connection at once, also mid-stream.
func (s *Stream) Close() error {
	s.observed(string(KindCanceled)) // a no-op unless it ends the call early
	s.cancel(context.Canceled)
	s.stopWD()
	return s.raw.Close()
}

func (s *Stream) fail(err error) {
	s.err = err
	s.observed(outcomeOf(err))
	s.release()
}

// release frees the timer, the context and the connection once the stream
// has ended either way; Close stays safe to call afterwards.
func (s *Stream) release() {
	s.stopWD()
	s.cancel(context.Canceled)
	_ = s.raw.Close()
}

// pull reads one raw event and queues the chunks it yields.
func (s *Stream) pull() {
	raw, err := s.raw.RecvRaw()
	if err != nil {
		if err = s.model.recvError(s.ctx, s.st, err); err == errDoneMarker {
			s.end()
		} else {
			s.fail(err)
		}
		return
	}
	var wc wireChunk
	// Decoding every chunk is most of a relay's CPU; go-json does it at
	// about twice the speed of encoding/json with the same semantics.
	if err := gojson.Unmarshal(raw, &wc); err != nil {
		if s.st.bodyEnded.Load() && !s.st.sawDone.Load() {
			s.fail(s.model.newError(KindIncomplete, 0, "stream cut inside a chunk", err))
			return
		}
		s.fail(s.model.newError(KindProtocol, 0, "provider sent a chunk that is not valid JSON", err))
		return
	}
	if wc.hasError() {
		// OpenRouter sends a normal chunk with an error object and
		// finish_reason "error"; other servers a bare error line with odd
		// spacing that go-openai does not catch.
		s.fail(s.model.newError(KindStream, 0, s.model.redact(errorMessage(wc.Error)), nil))
		return
	}
	for i := range wc.Choices {
		ch := &wc.Choices[i]
		if ch.Index != 0 {
			continue // we never ask for n > 1
		}
		s.delta(&ch.Delta)
		if ch.FinishReason != "" {
			// Not the end: Qwen sends a trailing fragment and a usage chunk
			// after it. The stream ends at [DONE].
			s.finish = ch.FinishReason
		}
	}
	if wc.Usage != nil {
		u := wc.Usage.normalize()
		s.usage = &u
	}
}

func (s *Stream) delta(d *wireDelta) {
	reasoning := d.ReasoningContent
	if reasoning == "" {
		reasoning = d.Reasoning // Ollama and OpenRouter spell it "reasoning"
	}
	s.outputBytes += len(reasoning) + len(d.Content)
	for i := range d.ToolCalls {
		s.outputBytes += len(d.ToolCalls[i].Function.Name) + len(d.ToolCalls[i].Function.Arguments)
	}
	if reasoning != "" {
		s.text(BlockReasoning, ChunkReasoningDelta, reasoning)
	}
	if d.Content != "" {
		s.text(BlockText, ChunkTextDelta, d.Content)
	}
	for i := range d.ToolCalls {
		s.toolFragment(&d.ToolCalls[i])
	}
}

func (s *Stream) emit(c Chunk) { s.queue = append(s.queue, c) }

func (s *Stream) startBlock(t BlockType) int {
	i := s.nextBlock
	s.nextBlock++
	s.emit(Chunk{Type: ChunkBlockStart, Index: i, Block: t})
	return i
}

func (s *Stream) text(t BlockType, ct ChunkType, delta string) {
	if s.open < 0 || s.openType != t {
		s.closeOpen()
		s.open, s.openType = s.startBlock(t), t
	}
	s.openText.WriteString(delta)
	s.emit(Chunk{Type: ct, Index: s.open, Block: t, Text: delta})
}

func (s *Stream) closeOpen() {
	if s.open < 0 {
		return
	}
	s.emit(Chunk{Type: ChunkBlockEnd, Index: s.open, Block: s.openType, Text: s.openText.String()})
	s.open = -1
	s.openText.Reset()
}

// toolFragment merges one fragment into its call: by id when the fragment
// carries a known one (relays that repeat ids with inconsistent indexes),
// else by upstream index, else — no index and no id, as Gemini and old
// Ollama send — into the latest call. The id and name are set once and
// never overwritten by "" (Qwen repeats "id": "") nor appended to.
func (s *Stream) toolFragment(f *wireToolCall) {
	var cb *callBuild
	switch {
	case f.ID != "" && s.byID[f.ID] != nil:
		cb = s.byID[f.ID]
	case f.Index != nil && s.byIdx[*f.Index] != nil && (f.ID == "" || s.byIdx[*f.Index].call.ID == ""):
		cb = s.byIdx[*f.Index]
	case f.Index == nil && f.ID == "" && len(s.calls) > 0:
		cb = s.calls[len(s.calls)-1]
	}
	if cb == nil {
		s.closeOpen()
		cb = &callBuild{block: s.startBlock(BlockToolCall)}
		s.calls = append(s.calls, cb)
	}
	if f.Index != nil {
		if s.byIdx == nil {
			s.byIdx = map[int]*callBuild{}
		}
		s.byIdx[*f.Index] = cb
	}
	if cb.call.ID == "" && f.ID != "" {
		cb.call.ID = f.ID
		if s.byID == nil {
			s.byID = map[string]*callBuild{}
		}
		s.byID[f.ID] = cb
	}
	if cb.call.Name == "" && f.Function.Name != "" {
		cb.call.Name = f.Function.Name
	}
	if len(f.ExtraContent) > 0 && string(f.ExtraContent) != "null" {
		cb.call.Extra = append(json.RawMessage(nil), f.ExtraContent...)
	}
	cb.args.WriteString(f.Function.Arguments)
	s.emit(Chunk{Type: ChunkToolCallDelta, Index: cb.block, Block: BlockToolCall, Text: f.Function.Arguments,
		Call: ToolCall{ID: cb.call.ID, Name: cb.call.Name}})
}

// end runs at [DONE]: it closes the blocks and queues usage and finish, or
// fails when the provider never said why it stopped.
func (s *Stream) end() {
	if s.finish == "" {
		s.fail(s.model.newError(KindIncomplete, 0, "stream ended without a finish reason", nil))
		return
	}
	reason := normalizeFinish(s.finish)
	if reason == "error" {
		s.fail(s.model.newError(KindStream, 0, "provider ended the stream with finish_reason error", nil))
		return
	}
	// Old Ollama and Gemini say "stop" for a turn that called tools.
	if reason == FinishStop && len(s.calls) > 0 {
		reason = FinishToolCalls
	}
	s.closeOpen()
	for _, cb := range s.calls {
		call := cb.call
		call.Arguments = cb.args.String()
		s.emit(Chunk{Type: ChunkBlockEnd, Index: cb.block, Block: BlockToolCall, Call: call})
	}
	if s.usage != nil {
		s.emit(Chunk{Type: ChunkUsage, Usage: *s.usage})
	}
	s.emit(Chunk{Type: ChunkFinish, Finish: reason})
	s.done = true
	s.observed("ok")
	s.release()
}

// recvError classifies an error from RecvRaw. io.EOF is success only when
// the body carried [DONE].
func (m *Model) recvError(ctx context.Context, st *callState, err error) error {
	if cerr := m.ctxError(ctx); cerr != nil {
		return cerr
	}
	var apiErr *openai.APIError
	switch {
	case errors.Is(err, io.EOF) && st.sawDone.Load():
		return errDoneMarker
	case errors.Is(err, io.EOF):
		return m.newError(KindIncomplete, 0, "stream ended before data: [DONE]", err)
	case errors.As(err, &apiErr):
		return m.newError(KindStream, 0, m.redact(apiErr.Message), err)
	case errors.Is(err, openai.ErrTooManyEmptyStreamMessages):
		return m.newError(KindProtocol, 0, "too many empty stream messages", err)
	case isJSONError(err):
		return m.newError(KindProtocol, 0, "provider sent a malformed stream", err)
	}
	return m.newError(KindIncomplete, 0, "connection broke before data: [DONE]", err)
}

// errDoneMarker is the internal signal for a proper end; pull turns it into
// the final chunks.
var errDoneMarker = errors.New("done")

func isJSONError(err error) bool {
	var se *json.SyntaxError
	var ue *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &ue)
}
