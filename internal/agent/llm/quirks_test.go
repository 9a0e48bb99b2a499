package llm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
)

// quirkCase is one provider behaviour from PROVIDER-QUIRKS.md, replayed from
// the fake in the provider's wire format.
type quirkCase struct {
	name    string
	profile string
	resp    fakellm.Response
	// Expected outcome on success.
	text, reasoning string
	calls           []ToolCall
	finish          FinishReason
	usage           *Usage
	// errKind, when set, is the expected failure.
	errKind ErrorKind
}

const env = `"id":"c1","object":"chat.completion.chunk","created":1,"model":"m"`

// ch builds a chunk with the common envelope around a choices/usage body.
func ch(body string) fakellm.Step { return fakellm.Data("{" + env + "," + body + "}") }

func choice(delta, finish string) fakellm.Step {
	if finish == "" {
		finish = "null"
	} else {
		finish = `"` + finish + `"`
	}
	return ch(`"choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]`)
}

func text(s string) fakellm.Step { return choice(`{"content":`+quote(s)+`}`, "") }

func quote(s string) string { return fmt.Sprintf("%q", s) }

var (
	roleStep   = choice(`{"role":"assistant","content":""}`, "")
	stopStep   = choice(`{}`, "stop")
	usageStep  = ch(`"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`)
	usage11x7  = &Usage{InputTokens: 11, OutputTokens: 7}
	done       = fakellm.Done()
	lsCall     = ToolCall{ID: "call_1", Name: "ls", Arguments: `{"uri":"kb://notes"}`}
	readCall   = ToolCall{ID: "call_2", Name: "read", Arguments: `{"uri":"kb://notes/a.md","offset":0}`}
	stream     = fakellm.Stream
	chinese    = "你好，世界！知识库 🚀 ok"
	chineseCut = []string{"你好，", "世界！知识", "库 🚀 ok"}
)

func chatStream() []quirkCase {
	return []quirkCase{
		{name: "plain text with role chunk and usage chunk", profile: ProfileOpenAI,
			resp: stream(roleStep, text("Hello"), text(" world"), stopStep, usageStep, done),
			text: "Hello world", finish: FinishStop, usage: usage11x7},
		{name: "comments before the first chunk and between chunks", profile: ProfileOpenAICompatible,
			resp: stream(fakellm.Comment("OPENROUTER PROCESSING"), fakellm.Comment("keep-alive"), roleStep,
				text("a"), fakellm.Comment("OPENROUTER PROCESSING"), text("b"), stopStep, done),
			text: "ab", finish: FinishStop},
		{name: "CRLF line endings", profile: ProfileOpenAI,
			resp: stream(roleStep, text("crlf"), stopStep, usageStep, done).WithCRLF(),
			text: "crlf", finish: FinishStop, usage: usage11x7},
		{name: "bare CR line endings", profile: ProfileOpenAICompatible,
			resp: stream(fakellm.Raw(strings.ReplaceAll("data: {"+env+`,"choices":[{"index":0,"delta":{"content":"cr"},"finish_reason":null}]}`+"\n\n"+
				"data: {"+env+`,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\ndata: [DONE]\n\n", "\n", "\r"))),
			text: "cr", finish: FinishStop},
		{name: "first delta with content null", profile: ProfileOpenAI,
			resp: stream(choice(`{"role":"assistant","content":null}`, ""), text("x"), stopStep, done),
			text: "x", finish: FinishStop},
		{name: "usage null on every chunk and a choices-empty usage chunk", profile: ProfileOpenAI,
			resp: stream(ch(`"choices":[{"index":0,"delta":{"content":"u"},"finish_reason":null}],"usage":null`),
				ch(`"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null`), usageStep, done),
			text: "u", finish: FinishStop, usage: usage11x7},
		{name: "interrupted before the usage chunk", profile: ProfileOpenAI,
			resp: stream(roleStep, text("half"), stopStep), errKind: KindIncomplete},
		{name: "unknown fields obfuscation and service_tier are ignored", profile: ProfileOpenAI,
			resp: stream(ch(`"service_tier":"default","system_fingerprint":"fp","obfuscation":"a1B2","choices":[{"index":0,"delta":{"content":"ok"},"logprobs":null,"finish_reason":null}]`),
				ch(`"obfuscation":"zz","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]`), done),
			text: "ok", finish: FinishStop},
		{name: "multi-byte characters cut across reads", profile: ProfileOpenAI,
			resp: stream(roleStep, text(chineseCut[0]), text(chineseCut[1]), text(chineseCut[2]), stopStep, done).WithPieces(1),
			text: chinese, finish: FinishStop},
		{name: "multi-line data event", profile: ProfileOpenAICompatible,
			resp: stream(fakellm.Raw("data: {"+env+",\ndata: \"choices\":[{\"index\":0,\"delta\":{\"content\":\"ml\"}}]}\n\n"), stopStep, done),
			text: "ml", finish: FinishStop},
		{name: "events without blank lines between them", profile: ProfileOpenAICompatible,
			resp: stream(fakellm.Raw("data: {" + env + `,"choices":[{"index":0,"delta":{"content":"nb"}}]}` + "\n" +
				"data: {" + env + `,"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\ndata: [DONE]")),
			text: "nb", finish: FinishStop},
		{name: "one chunk larger than the read buffer", profile: ProfileOpenAI,
			resp: stream(text(strings.Repeat("长", 40_000)), stopStep, done),
			text: strings.Repeat("长", 40_000), finish: FinishStop},
		{name: "length finish", profile: ProfileOpenAI,
			resp: stream(text("cut"), choice(`{}`, "length"), done), text: "cut", finish: FinishLength},
		{name: "content_filter finish", profile: ProfileOpenAI,
			resp: stream(choice(`{}`, "content_filter"), done), finish: FinishContentFilter},
	}
}

func toolCallCases() []quirkCase {
	return []quirkCase{
		{name: "split arguments, first fragment with empty arguments", profile: ProfileOpenAI,
			resp: stream(roleStep,
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"uri\""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"function":{"arguments":":\"kb://notes\"}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			calls: []ToolCall{lsCall}, finish: FinishToolCalls},
		{name: "parallel calls one after the other", profile: ProfileOpenAI,
			resp: stream(
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"uri\":\"kb://notes\"}"}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"read","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"uri\":\"kb://notes/a.md\",\"offset\":0}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			calls: []ToolCall{lsCall, readCall}, finish: FinishToolCalls},
		{name: "two parallel calls interleaved by index", profile: ProfileOpenAICompatible,
			resp: stream(
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\"uri\""}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"read","arguments":"{\"uri\":"}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"function":{"arguments":":\"kb://notes\"}"}},{"index":1,"function":{"arguments":"\"kb://notes/a.md\","}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"function":{"arguments":"\"offset\":0}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			calls: []ToolCall{lsCall, readCall}, finish: FinishToolCalls},
		{name: "id and name null on later fragments never overwrite", profile: ProfileOpenAICompatible,
			resp: stream(
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":"{\"uri\":\"kb://notes\"}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			calls: []ToolCall{lsCall}, finish: FinishToolCalls},
		{name: "text then a tool call", profile: ProfileOpenAI,
			resp: stream(text("Let me look."),
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\"uri\":\"kb://notes\"}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			text: "Let me look.", calls: []ToolCall{lsCall}, finish: FinishToolCalls},
		{name: "relay starts the first call at index 1", profile: ProfileOpenAICompatible,
			resp: stream(
				choice(`{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"uri\":\"kb://notes\"}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			calls: []ToolCall{lsCall}, finish: FinishToolCalls},
		{name: "relay repeats id and name on every fragment with inconsistent indices", profile: ProfileOpenAICompatible,
			resp: stream(
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\"uri\":"}}]}`, ""),
				choice(`{"tool_calls":[{"index":2,"id":"call_1","type":"function","function":{"name":"ls","arguments":"\"kb://notes\"}"}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"id":"call_2","type":"function","function":{"name":"read","arguments":"{\"uri\":\"kb://notes/a.md\","}}]}`, ""),
				choice(`{"tool_calls":[{"index":5,"id":"call_2","type":"function","function":{"name":"read","arguments":"\"offset\":0}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done),
			calls: []ToolCall{lsCall, readCall}, finish: FinishToolCalls},
		{name: "tool call arguments cut into one-byte writes", profile: ProfileOpenAI,
			resp: stream(
				choice(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"uri\":\"kb://笔记\"}"}}]}`, ""),
				choice(`{}`, "tool_calls"), done).WithPieces(1),
			calls: []ToolCall{{ID: "call_1", Name: "ls", Arguments: `{"uri":"kb://笔记"}`}}, finish: FinishToolCalls},
	}
}

func errorCases() []quirkCase {
	return []quirkCase{
		{name: "clean close without DONE", profile: ProfileOpenAI,
			resp: stream(roleStep, text("trunc"), stopStep), errKind: KindIncomplete},
		{name: "connection reset mid-stream", profile: ProfileOpenAI,
			resp: stream(roleStep, text("trunc"), fakellm.Reset()), errKind: KindIncomplete},
		{name: "DONE without a finish reason", profile: ProfileOpenAI,
			resp: stream(roleStep, text("no finish"), done), errKind: KindIncomplete},
		{name: "error object mid-stream, OpenAI shape", profile: ProfileOpenAI,
			resp:    stream(roleStep, text("a"), fakellm.Data(`{"error": {"message": "The server had an error", "type": "server_error"}}`)),
			errKind: KindStream},
		{name: "error object mid-stream, spaced so go-openai does not spot it", profile: ProfileOpenAI,
			resp:    stream(text("a"), fakellm.Data(`{ "error" : { "message" : "spaced", "code" : 500 } }`)),
			errKind: KindStream},
		{name: "error object mid-stream, compact without code or param", profile: ProfileOpenAI,
			resp: stream(text("a"), fakellm.Data(`{"error":{"message":"overloaded"}}`)), errKind: KindStream},
		{name: "error object mid-stream, OpenRouter shape", profile: ProfileOpenAICompatible,
			resp:    stream(text("a"), fakellm.Data(fakellm.OpenRouterErrorChunk("Provider returned error")), done),
			errKind: KindStream},
		{name: "error after keep-alives", profile: ProfileDeepSeek,
			resp:    stream(fakellm.KeepAlives(20), fakellm.Data(`{"error":{"message":"queue timeout","type":"server_error"}}`)),
			errKind: KindStream},
		{name: "error line last without a newline", profile: ProfileOpenAI,
			resp:    stream(text("a"), fakellm.Raw(`data: {"error":{"message":"cut","type":"server_error"}}`)),
			errKind: KindStream},
		{name: "event: error with a bare body", profile: ProfileOpenAICompatible,
			resp:    stream(text("a"), fakellm.Raw("event: error\ndata: {\"message\":\"bad\"}\n\n")),
			errKind: KindStream},
		{name: "invalid JSON chunk", profile: ProfileOpenAI,
			resp: stream(text("a"), fakellm.Data(`{"choices":[{"delta":{"content":"x"`), done), errKind: KindProtocol},
		{name: "flood of 500 keep-alive comments", profile: ProfileDeepSeek,
			resp: stream(fakellm.KeepAlives(500), roleStep, text("after flood"), fakellm.KeepAlives(500), stopStep, done),
			text: "after flood", finish: FinishStop},
	}
}

func providerCases() []quirkCase {
	return []quirkCase{
		{name: "deepseek: keep-alives while queued, reasoning before content, usage on the finish chunk", profile: ProfileDeepSeek,
			resp: stream(fakellm.Comment("keep-alive"), fakellm.Comment("keep-alive"),
				choice(`{"role":"assistant","content":null,"reasoning_content":""}`, ""),
				choice(`{"content":null,"reasoning_content":"Think"}`, ""),
				choice(`{"content":null,"reasoning_content":"ing."}`, ""),
				choice(`{"content":"Answer","reasoning_content":null}`, ""),
				ch(`"choices":[{"index":0,"delta":{"content":"","reasoning_content":null},"logprobs":null,"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":9,"total_tokens":29,"prompt_tokens_details":{"cached_tokens":16},"prompt_cache_hit_tokens":16,"prompt_cache_miss_tokens":4,"completion_tokens_details":{"reasoning_tokens":5}}`),
				done),
			reasoning: "Thinking.", text: "Answer", finish: FinishStop,
			usage: &Usage{InputTokens: 20, OutputTokens: 9, CachedTokens: 16, ReasoningTokens: 5}},
		{name: "deepseek: call ids like call_00_", profile: ProfileDeepSeek,
			resp: stream(
				choice(`{"tool_calls":[{"index":0,"id":"call_00_abcDEF","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"uri\":\"kb://notes\"}"}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"id":"call_01_xyz","type":"function","function":{"name":"read","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"uri\":\"kb://notes/a.md\",\"offset\":0}"}}]}`, ""),
				ch(`"choices":[{"index":0,"delta":{"content":""},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`), done),
			calls: []ToolCall{{ID: "call_00_abcDEF", Name: "ls", Arguments: lsCall.Arguments},
				{ID: "call_01_xyz", Name: "read", Arguments: readCall.Arguments}},
			finish: FinishToolCalls, usage: usage11x7},
		{name: "qwen: empty ids repeated, trailing fragment after finish, usage chunk", profile: ProfileQwen,
			resp: stream(
				choice(`{"content":null,"role":"assistant","tool_calls":[{"index":0,"id":"call_qwen1","type":"function","function":{"name":"ls","arguments":""}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":"{\"uri\": "}}]}`, ""),
				choice(`{"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":"\"kb://notes\"}"}}]}`, ""),
				choice(`{"content":null}`, "tool_calls"),
				ch(`"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":""}}]}}]`),
				ch(`"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`), done),
			calls: []ToolCall{{ID: "call_qwen1", Name: "ls", Arguments: `{"uri": "kb://notes"}`}}, finish: FinishToolCalls, usage: usage11x7},
		{name: "qwen: thinking streams reasoning_content", profile: ProfileQwen,
			resp: stream(choice(`{"content":null,"role":"assistant","reasoning_content":"嗯，"}`, ""),
				choice(`{"content":null,"reasoning_content":"想想"}`, ""),
				choice(`{"content":"好的","reasoning_content":null}`, ""), choice(`{"content":""}`, "stop"), usageStep, done).WithPieces(2),
			reasoning: "嗯，想想", text: "好的", finish: FinishStop, usage: usage11x7},
		{name: "ollama: role and empty content on every chunk, delta.reasoning", profile: ProfileOllama,
			resp: stream(choice(`{"role":"assistant","content":"","reasoning":"hmm "}`, ""),
				choice(`{"role":"assistant","content":"","reasoning":"ok"}`, ""),
				choice(`{"role":"assistant","content":"Hi"}`, ""),
				choice(`{"role":"assistant","content":""}`, "stop"),
				ch(`"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`), done),
			reasoning: "hmm ok", text: "Hi", finish: FinishStop, usage: usage11x7},
		{name: "ollama: whole tool call in one chunk, old finish stop", profile: ProfileOllama,
			resp: stream(choice(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a1b2c3d4","index":0,"type":"function","function":{"name":"ls","arguments":"{\"uri\":\"kb://notes\"}"}}]}`, ""),
				choice(`{"role":"assistant","content":""}`, "stop"), done),
			calls: []ToolCall{{ID: "call_a1b2c3d4", Name: "ls", Arguments: lsCall.Arguments}}, finish: FinishToolCalls},
		{name: "ollama: very old, no index on tool calls", profile: ProfileOllama,
			resp: stream(choice(`{"role":"assistant","content":"","tool_calls":[{"id":"call_a1b2c3d4","type":"function","function":{"name":"ls","arguments":"{\"uri\":\"kb://notes\"}"}},{"id":"call_e5f6g7h8","type":"function","function":{"name":"read","arguments":"{\"uri\":\"kb://notes/a.md\",\"offset\":0}"}}]}`, ""),
				choice(`{"role":"assistant","content":""}`, "stop"), done),
			calls: []ToolCall{{ID: "call_a1b2c3d4", Name: "ls", Arguments: lsCall.Arguments},
				{ID: "call_e5f6g7h8", Name: "read", Arguments: readCall.Arguments}}, finish: FinishToolCalls},
		{name: "gemini: calls without index, finish stop, thought_signature kept", profile: ProfileGemini,
			resp: stream(choice(`{"role":"assistant","tool_calls":[{"extra_content":{"google":{"thought_signature":"SIG=="}},"function":{"arguments":"{\"uri\":\"kb://notes\"}","name":"ls"},"id":"call_1","type":"function"}]}`, ""),
				choice(`{"role":"assistant","tool_calls":[{"function":{"arguments":"{\"uri\":\"kb://notes/a.md\",\"offset\":0}","name":"read"},"id":"call_2","type":"function"}]}`, "stop"),
				ch(`"choices":[],"usage":{"prompt_tokens":11,"completion_tokens":7,"total_tokens":18}`), done),
			calls: []ToolCall{{ID: "call_1", Name: "ls", Arguments: lsCall.Arguments, Extra: []byte(`{"google":{"thought_signature":"SIG=="}}`)},
				readCall}, finish: FinishToolCalls, usage: usage11x7},
		{name: "gemini: text answer", profile: ProfileGemini,
			resp: stream(choice(`{"content":"Gem","role":"assistant"}`, ""), choice(`{"content":"ini","role":"assistant"}`, "stop"), done),
			text: "Gemini", finish: FinishStop},
	}
}

func TestProviderQuirks(t *testing.T) {
	t.Parallel()
	groups := map[string][]quirkCase{"chat": chatStream(), "tools": toolCallCases(), "errors": errorCases(),
		"providers": providerCases()}
	for group, cases := range groups {
		for _, tc := range cases {
			// Each stream is served whole, and again cut into 3-byte
			// flushed writes so lines and characters split across reads.
			for _, piece := range []int{0, 3} {
				if tc.resp.Piece != 0 && piece != 0 {
					continue
				}
				name := fmt.Sprintf("%s/%s/piece=%d", group, tc.name, piece)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					f := newFake(t)
					m := f.model(t, tc.profile)
					resp := tc.resp
					if piece != 0 {
						resp.Piece = piece
					}
					f.fake.Push(resp)
					r := drain(t, m, userHi)
					if tc.errKind != "" {
						wantKind(t, r.err, tc.errKind)
						return
					}
					if r.err != nil {
						t.Fatalf("unexpected error: %v", r.err)
					}
					if r.text != tc.text || r.reasoning != tc.reasoning || r.finish != tc.finish {
						t.Fatalf("text %q reasoning %q finish %q; want %q %q %q", r.text, r.reasoning, r.finish,
							tc.text, tc.reasoning, tc.finish)
					}
					if len(r.calls) != len(tc.calls) {
						t.Fatalf("calls %+v, want %+v", r.calls, tc.calls)
					}
					for i := range tc.calls {
						if !sameCall(r.calls[i], tc.calls[i]) {
							t.Fatalf("call %d = %+v (extra %s), want %+v", i, r.calls[i], r.calls[i].Extra, tc.calls[i])
						}
					}
					if (r.usage == nil) != (tc.usage == nil) || (r.usage != nil && *r.usage != *tc.usage) {
						t.Fatalf("usage %+v, want %+v", r.usage, tc.usage)
					}
				})
			}
		}
	}
}
