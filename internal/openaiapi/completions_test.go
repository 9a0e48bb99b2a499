package openaiapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestModelsList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		status, body := e.get(t, e.Key, "/v1/models")
		var list struct {
			Object string `json:"object"`
			Data   []struct {
				ID, Object, OwnedBy string
				Created             int64
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &list); err != nil || status != 200 || list.Object != "list" {
			t.Fatalf("models: %d %s", status, body)
		}
		var ids []string
		for _, m := range list.Data {
			if m.Object != "model" || m.Created == 0 {
				t.Fatalf("model entry %+v is not OpenAI's shape: %s", m, body)
			}
			ids = append(ids, m.ID)
		}
		if strings.Join(ids, ",") != "fake,fake-text" {
			t.Fatalf("models %v, want fake,fake-text", ids)
		}
		if strings.Contains(string(body), "upstream") || strings.Contains(string(body), "sk-fake") {
			t.Fatalf("the model list leaks the upstream name or key: %s", body)
		}
		status, body = e.get(t, e.Key, "/v1/models/fake-text")
		if status != 200 || !strings.Contains(string(body), `"id":"fake-text"`) {
			t.Fatalf("one model: %d %s", status, body)
		}
		status, body = e.get(t, e.Key, "/v1/models/gpt-4o")
		wantError(t, status, body, 404, "invalid_request_error", "model_not_found")
	})
}

func TestCompletionWhole(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		e.Fake.Push(fakellm.TextStream("Hello ", "from ", "the fake."))
		status, body := e.complete(t, e.Key, ask("fake", "say hello"))
		var out struct {
			ID      string `json:"id"`
			Object  string `json:"object"`
			Model   string `json:"model"`
			Choices []struct {
				Message      struct{ Role, Content string } `json:"message"`
				FinishReason string                         `json:"finish_reason"`
			} `json:"choices"`
			Usage struct {
				PromptTokens     int `json:"prompt_tokens"`
				CompletionTokens int `json:"completion_tokens"`
				TotalTokens      int `json:"total_tokens"`
			} `json:"usage"`
		}
		if err := json.Unmarshal(body, &out); err != nil || status != 200 {
			t.Fatalf("completion: %d %s", status, body)
		}
		if out.Object != "chat.completion" || out.Model != "fake" || !strings.HasPrefix(out.ID, "chatcmpl-") || len(out.Choices) != 1 {
			t.Fatalf("not a chat.completion: %s", body)
		}
		c := out.Choices[0]
		if c.Message.Role != "assistant" || c.Message.Content != "Hello from the fake." || c.FinishReason != "stop" {
			t.Fatalf("choice %+v", c)
		}
		if out.Usage.PromptTokens != 10 || out.Usage.CompletionTokens != len("Hello from the fake.") || out.Usage.TotalTokens != 10+len("Hello from the fake.") {
			t.Fatalf("usage %+v", out.Usage)
		}
	})
}

func TestStreamReassemblesAnswer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		pieces := []string{"Die ", "Antwort ", "ist ", "zweiundvierzig: ", "四十二", "."}
		e.Fake.Push(fakellm.TextStream(pieces...).WithPieces(7))
		_, s := e.stream(t, ask("fake", "what is the answer?"))
		if s.text != strings.Join(pieces, "") {
			t.Fatalf("reassembled %q, want %q", s.text, strings.Join(pieces, ""))
		}
		if !s.done || s.finish != "stop" || s.errJSON != "" {
			t.Fatalf("done=%v finish=%q err=%s", s.done, s.finish, s.errJSON)
		}
		if first := s.chunks[0].Choices[0].Delta; first.Role != "assistant" {
			t.Fatalf("first chunk's delta %+v has no role", first)
		}
		for _, c := range s.chunks {
			if c.Usage != nil {
				t.Fatalf("usage sent without include_usage: %+v", c)
			}
			if c.Model != "fake" {
				t.Fatalf("chunk of model %q", c.Model)
			}
		}
	})
}

func TestStreamUsageWhenAsked(t *testing.T) {
	e := newEnv(t, "sqlite", 0)
	e.Fake.Push(fakellm.TextStream("four ", "words ", "of ", "text"))
	body := ask("fake", "count")
	body["stream_options"] = map[string]any{"include_usage": true}
	_, s := e.stream(t, body)
	last := s.chunks[len(s.chunks)-1]
	if last.Usage == nil || len(last.Choices) != 0 {
		t.Fatalf("the last chunk before [DONE] is not the usage chunk: %q", s.data)
	}
	if last.Usage.PromptTokens != 10 || last.Usage.CompletionTokens != len("four words of text") || last.Usage.TotalTokens != 10+len("four words of text") {
		t.Fatalf("usage %+v", *last.Usage)
	}
	if !s.done || s.text != "four words of text" {
		t.Fatalf("done=%v text=%q", s.done, s.text)
	}
}

func TestToolLinesInText(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		// The fake's default script calls ls on the scope, then answers
		// from the result.
		_, s := e.stream(t, ask("fake", "use ls please"))
		if !s.done || !strings.Contains(s.text, "> ls: ") || !strings.Contains(s.text, "Tool result:") {
			t.Fatalf("tool line missing: done=%v %q", s.done, s.text)
		}
		if i := strings.Index(s.text, "> ls: "); strings.Contains(s.text[:i], "Tool result:") {
			t.Fatalf("the tool line comes after the answer: %q", s.text)
		}
		// The scope is the caller's root.
		if !strings.Contains(s.text, "kb://users/alice/") {
			t.Fatalf("the turn was not about alice's root: %q", s.text)
		}

		body := ask("fake", "use ls please")
		body["knowspace_tools"] = false
		_, s = e.stream(t, body)
		if !s.done || strings.Contains(s.text, "> ls") || !strings.HasPrefix(s.text, "Tool result:") {
			t.Fatalf("knowspace_tools false still shows tool lines: %q", s.text)
		}

		body["stream"] = false
		body["knowspace_tools"] = true
		status, raw := e.complete(t, e.Key, body)
		if status != 200 || !strings.Contains(string(raw), "\\u003e ls: ") && !strings.Contains(string(raw), "> ls: ") {
			t.Fatalf("whole completion lacks the tool line: %d %s", status, raw)
		}
	})
}

func TestCutTurnEndsWithError(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		cut := fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("half an ans")))
		e.Fake.Push(cut)
		_, s := e.stream(t, ask("fake", "answer me"))
		if s.done {
			t.Fatalf("a cut turn ended with [DONE]: %q", s.data)
		}
		if s.errJSON == "" || s.data[len(s.data)-1] != s.errJSON {
			t.Fatalf("a cut turn does not end with an error object: %q", s.data)
		}
		wantError(t, 200, []byte(s.errJSON), 200, "server_error", gotCode(s.errJSON))
		if s.finish != "" {
			t.Fatalf("a cut turn sent finish_reason %q", s.finish)
		}
		if s.text != "half an ans" {
			t.Fatalf("the text before the cut %q", s.text)
		}

		e.Fake.Push(cut)
		status, body := e.complete(t, e.Key, ask("fake", "answer me"))
		wantError(t, status, body, http.StatusBadGateway, "server_error", gotCode(string(body)))
	})
}

func gotCode(body string) string {
	var e openAIError
	_ = json.Unmarshal([]byte(body), &e)
	if e.Error.Code == "" {
		return "<no code>"
	}
	return e.Error.Code
}

func TestUnknownModelIs404(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		for _, stream := range []bool{false, true} {
			body := ask("gpt-4o", "hello")
			body["stream"] = stream
			status, raw := e.complete(t, e.Key, body)
			got := wantError(t, status, raw, 404, "invalid_request_error", "model_not_found")
			if got.Error.Param == nil || *got.Error.Param != "model" || !strings.Contains(got.Error.Message, "gpt-4o") {
				t.Fatalf("unknown model error %s", raw)
			}
		}
		if n := len(e.Fake.Requests()); n != 0 {
			t.Fatalf("an unknown model reached the provider %d times", n)
		}
	})
}

func TestBadKeyIs401(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		for _, key := range []string{"", "ks_not-a-real-token", "sk-openai-style"} {
			status, raw := e.complete(t, key, ask("fake", "hello"))
			wantError(t, status, raw, 401, "authentication_error", "invalid_api_key")
			status, raw = e.get(t, key, "/v1/models")
			wantError(t, status, raw, 401, "authentication_error", "invalid_api_key")
		}
		// A session works as the key too: it is the same authorizer.
		status, raw := e.get(t, e.Token, "/v1/models")
		if status != 200 {
			t.Fatalf("session key: %d %s", status, raw)
		}
	})
}

func TestBadRequestsAre400(t *testing.T) {
	e := newEnv(t, "sqlite", 0)
	cases := []struct {
		name string
		body any
	}{
		{"no messages", map[string]any{"model": "fake", "messages": []any{}}},
		{"no model", map[string]any{"messages": []any{map[string]any{"role": "user", "content": "hi"}}}},
		{"last is assistant", ask("fake", "hi", nil)},
		{"tool role", map[string]any{"model": "fake", "messages": []any{
			map[string]any{"role": "tool", "content": "x"}, map[string]any{"role": "user", "content": "hi"}}}},
		{"image part", map[string]any{"model": "fake", "messages": []any{
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "image_url", "image_url": map[string]any{"url": "x"}}}}}}},
		{"empty question", ask("fake", "   ")},
	}
	cases[2].body = map[string]any{"model": "fake", "messages": []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "assistant", "content": "yo"}}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, raw := e.complete(t, e.Key, c.body)
			wantError(t, status, raw, 400, "invalid_request_error", gotCode(string(raw)))
		})
	}
	status, raw := e.complete(t, e.Key, "not json")
	wantError(t, status, raw, 400, "invalid_request_error", "invalid_request")
}

func TestHistoryReachesTheModel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, 0)
		e.Fake.Push(fakellm.TextStream("third answer"))
		body := ask("fake", "third question",
			map[string]any{"role": "system", "content": "You are a pirate."},
			map[string]any{"role": "user", "content": "first question"},
			map[string]any{"role": "assistant", "content": "first answer"},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "second "}, map[string]any{"type": "text", "text": "question"}}},
			map[string]any{"role": "assistant", "content": "second answer"})
		_, s := e.stream(t, body)
		if !s.done || s.text != "third answer" {
			t.Fatalf("answer %q done=%v", s.text, s.done)
		}
		var got []string
		for _, m := range e.Fake.LastChat().Messages {
			if m.Role == "system" {
				if strings.Contains(string(m.Content), "pirate") {
					t.Fatalf("the client's system message replaced KnowAgent's")
				}
				continue
			}
			got = append(got, m.Role+":"+string(m.Content))
		}
		want := "user:first question|assistant:first answer|user:second question|assistant:second answer|user:third question"
		if strings.Join(got, "|") != want {
			t.Fatalf("the model saw\n%s\nwant\n%s", strings.Join(got, "|"), want)
		}
	})
}

// TestStreamLimitCountsEveryDoor holds one stream open through the native
// door; with a limit of one, the OpenAI door answers 429 in its shape.
func TestStreamLimitCountsEveryDoor(t *testing.T) {
	e := newEnv(t, "sqlite", 1)
	e.Fake.Push(fakellm.Response{Steps: []fakellm.Step{fakellm.Data(fakellm.RoleChunk())}, Hold: true})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	native := e.post(t, ctx, e.Token, "/api/v1/knowledge-agent/stream",
		map[string]any{"uri": "kb://me/", "model_id": "fake", "message": "hold on", "temporary": true})
	defer native.Body.Close()
	if native.StatusCode != 200 {
		b, _ := io.ReadAll(native.Body)
		t.Fatalf("native stream: %d %s", native.StatusCode, b)
	}
	// The held answer must be the native turn's before anything else asks
	// the fake: the stream's headers go out before its model call does.
	for wait := time.Now().Add(10 * time.Second); len(e.Fake.Requests()) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(wait) {
			t.Fatal("the native turn never called the model")
		}
	}
	status, raw := e.complete(t, e.Key, ask("fake", "me too"))
	got := wantError(t, status, raw, 429, "rate_limit_error", "rate_limit_exceeded")
	if !strings.Contains(got.Error.Message, fmt.Sprint(1)) {
		t.Fatalf("429 message %q", got.Error.Message)
	}
	cancel()
	// Once the native stream ends its slot frees for this door.
	deadline := time.Now().Add(10 * time.Second)
	for {
		e.Fake.Push(fakellm.TextStream("free again"))
		status, raw = e.complete(t, e.Key, ask("fake", "now?"))
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the slot never freed: %d %s", status, raw)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestClientGoneStopsTheTurn: a client that leaves mid-stream ends the
// turn and its upstream request, as on the native stream.
func TestClientGoneStopsTheTurn(t *testing.T) {
	e := newEnv(t, "sqlite", 0)
	e.Fake.Push(fakellm.Response{Steps: []fakellm.Step{fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("first words"))}, Hold: true})
	ctx, cancel := context.WithCancel(context.Background())
	body := ask("fake", "talk forever")
	body["stream"] = true
	res := e.post(t, ctx, e.Key, "/v1/chat/completions", body)
	defer res.Body.Close()
	buf := make([]byte, 4096)
	var got strings.Builder
	for !strings.Contains(got.String(), "first words") {
		n, err := res.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("stream ended before the first words: %v %q", err, got.String())
		}
	}
	cancel()
	select {
	case <-e.Fake.Aborted():
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream request was not closed when the client left")
	}
}
