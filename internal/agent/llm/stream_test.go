package llm

import (
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
)

func TestStreamThinSlice(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	m := f.model(t, ProfileOpenAI)

	f.fake.Push(fakellm.TextStream("Hel", "lo"))
	r := drain(t, m, userHi)
	if r.err != nil || r.text != "Hello" || r.finish != FinishStop || r.usage == nil {
		t.Fatalf("got %+v", r)
	}

	f.fake.Push(fakellm.Stream(
		fakellm.Data(fakellm.RoleChunk()),
		fakellm.Data(fakellm.ToolCallStart(0, "call_1", "ls", "")),
		fakellm.Data(fakellm.ToolCallArgs(0, `{"uri":`)),
		fakellm.Data(fakellm.ToolCallArgs(0, `"kb://a"}`)),
		fakellm.Data(fakellm.FinishChunk("tool_calls")),
		fakellm.Done(),
	))
	r = drain(t, m, userHi)
	if r.err != nil || len(r.calls) != 1 || !sameCall(r.calls[0], ToolCall{ID: "call_1", Name: "ls", Arguments: `{"uri":"kb://a"}`}) {
		t.Fatalf("got %+v", r)
	}

	f.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("x")), fakellm.Data(fakellm.FinishChunk("stop"))))
	r = drain(t, m, userHi)
	wantKind(t, r.err, KindIncomplete)
}
