package llm

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
)

// fakeProvider is a fake LLM served over real loopback HTTP.
type fakeProvider struct {
	fake *fakellm.Server
	srv  *httptest.Server
}

func newFake(t testing.TB) *fakeProvider {
	t.Helper()
	fake := fakellm.New(fakellm.Options{})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return &fakeProvider{fake: fake, srv: srv}
}

const testKey = "sk-test-SECRET-0123456789"

// model builds a one-model registry for profile pointed at the fake.
func (f *fakeProvider) model(t testing.TB, profile string, edit ...func(*ModelConfig)) *Model {
	t.Helper()
	mc := ModelConfig{ID: "m-" + profile, Profile: profile, BaseURL: f.srv.URL + "/v1",
		APIKey: testKey, Model: "upstream-" + profile, ContextWindow: 32768, OutputReserve: 4096,
		NativeTools: true}
	for _, e := range edit {
		e(&mc)
	}
	reg, err := NewRegistry([]ModelConfig{mc}, RegistryOptions{Timeouts: Timeouts{FirstByte: 2 * time.Second, Idle: 2 * time.Second}})
	if err != nil {
		t.Fatalf("registry: %v", err)
	}
	m, err := reg.Lookup(mc.ID)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var userHi = Request{Messages: []Message{{Role: RoleUser, Content: "hi"}}}

// result is what a stream amounted to.
type result struct {
	chunks    []Chunk
	text      string
	reasoning string
	calls     []ToolCall
	usage     *Usage
	finish    FinishReason
	err       error
}

func drain(t testing.TB, m *Model, req Request) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := m.Stream(ctx, req)
	if err != nil {
		return result{err: err}
	}
	defer s.Close()
	var r result
	var text, reasoning strings.Builder
	for {
		c, err := s.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			r.err = err
			break
		}
		r.chunks = append(r.chunks, c)
		switch c.Type {
		case ChunkTextDelta:
			text.WriteString(c.Text)
		case ChunkReasoningDelta:
			reasoning.WriteString(c.Text)
		case ChunkBlockEnd:
			if c.Block == BlockToolCall {
				r.calls = append(r.calls, c.Call)
			}
		case ChunkUsage:
			u := c.Usage
			r.usage = &u
		case ChunkFinish:
			r.finish = c.Finish
		}
	}
	r.text, r.reasoning = text.String(), reasoning.String()
	checkProtocol(t, r.chunks, r.err == nil)
	return r
}

// checkProtocol asserts the normalized protocol rules of the package doc.
func checkProtocol(t testing.TB, chunks []Chunk, complete bool) {
	t.Helper()
	open := map[int]BlockType{}
	next := 0
	sawUsage, sawFinish := false, false
	for i, c := range chunks {
		if sawFinish {
			t.Fatalf("chunk %d (%v) after finish", i, c.Type)
		}
		switch c.Type {
		case ChunkBlockStart:
			if c.Index != next {
				t.Fatalf("block start %d, want index %d", c.Index, next)
			}
			next++
			open[c.Index] = c.Block
		case ChunkTextDelta, ChunkReasoningDelta, ChunkToolCallDelta:
			want := map[ChunkType]BlockType{ChunkTextDelta: BlockText, ChunkReasoningDelta: BlockReasoning,
				ChunkToolCallDelta: BlockToolCall}[c.Type]
			if open[c.Index] != want {
				t.Fatalf("chunk %d: %v in block %d of type %q", i, c.Type, c.Index, open[c.Index])
			}
		case ChunkBlockEnd:
			if open[c.Index] != c.Block {
				t.Fatalf("chunk %d: end of block %d not open as %q", i, c.Index, c.Block)
			}
			delete(open, c.Index)
		case ChunkUsage:
			sawUsage = true
		case ChunkFinish:
			if len(open) > 0 {
				t.Fatalf("finish with open blocks %v", open)
			}
			sawFinish = true
		}
	}
	_ = sawUsage
	if complete && !sawFinish {
		t.Fatalf("stream succeeded without a finish chunk")
	}
}

func wantKind(t testing.TB, err error, kind ErrorKind) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s error, got success", kind)
	}
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("want *Error of kind %s, got %T: %v", kind, err, err)
	}
	if e.Kind != kind {
		t.Fatalf("want kind %s, got %s (%v)", kind, e.Kind, err)
	}
	return e
}

func sameCall(a, b ToolCall) bool {
	return a.ID == b.ID && a.Name == b.Name && a.Arguments == b.Arguments && string(a.Extra) == string(b.Extra)
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
