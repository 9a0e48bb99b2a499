package openaiapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/openaiapi"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/turn"
)

// TestMain keeps the server's request and turn log lines out of the
// benchmark's output.
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler))
	os.Exit(m.Run())
}

// env is the real server (httpapi with this door mounted at /v1, as
// cmd/server wires it) with a fake LLM behind two models.
type env struct {
	URL   string
	Fake  *fakellm.Server
	Key   string // alice's API token
	Token string // alice's session, for the native stream
}

func newEnv(t testing.TB, dialect string, streamsPerUser int) *env {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	mk := func(id string, tools bool) llm.ModelConfig {
		m := fake.Model(id, "sk-fake", "upstream")
		m.OutputReserve, m.NativeTools = 4096, tools
		return m
	}
	models := apptest.Models(t, mk("fake", true), mk("fake-text", false))
	conversations := &chat.Service{Store: stack.Store, Tree: stack.Tree}
	turns := turn.New(stack.Tree, conversations, streamsPerUser)
	shutdown := make(chan struct{})
	door := openaiapi.Handler(openaiapi.Deps{Auth: stack.Auth, Models: models, Turns: turns, Shutdown: shutdown})
	h := httpapi.New(httpapi.Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree, Models: models, Chat: conversations, Turns: turns,
		Shutdown: shutdown, Mounts: []httpapi.Mount{{Path: "/v1", Handler: door}}})
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = httpapi.NewServer(h, httpapi.Timeouts{})
	srv.Start()
	t.Cleanup(srv.Close)

	alice := stack.NewUser(t, "alice", store.RoleUser)
	return &env{URL: srv.URL, Fake: fake.Server, Key: stack.APIToken(t, alice.User.ID, "openai client"), Token: alice.Token}
}

// post sends body to path with the key and returns the open response.
func (e *env) post(t testing.TB, ctx context.Context, key, path string, body any) *http.Response {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	c := apptest.Client{URL: e.URL}
	return c.Open(t, c.Request(t, ctx, http.MethodPost, path, key, raw))
}

func (e *env) get(t testing.TB, key, path string) (int, []byte) {
	t.Helper()
	r := apptest.Client{URL: e.URL}.Do(t, http.MethodGet, path, key, nil)
	return r.Status, r.Body
}

// complete posts a chat completion and reads the whole answer.
func (e *env) complete(t testing.TB, key string, body any) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res := e.post(t, ctx, key, "/v1/chat/completions", body)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// openAIError is OpenAI's error shape, every field of it.
type openAIError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Code    string  `json:"code"`
		Param   *string `json:"param"`
	} `json:"error"`
}

func wantError(t testing.TB, status int, body []byte, wantStatus int, typ, code string) openAIError {
	t.Helper()
	var e openAIError
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("want an error object, got %d %s", status, body)
	}
	if status != wantStatus || e.Error.Type != typ || e.Error.Code != code || e.Error.Message == "" {
		t.Fatalf("want %d %s/%s, got %d %s", wantStatus, typ, code, status, body)
	}
	var raw map[string]map[string]any
	_ = json.Unmarshal(body, &raw)
	for _, k := range []string{"message", "type", "code", "param"} {
		if _, ok := raw["error"][k]; !ok {
			t.Fatalf("error object lacks %q: %s", k, body)
		}
	}
	return e
}

// sseData is the data lines of an SSE body, in order; comments and blank
// lines are skipped as a client does.
func sseData(t testing.TB, r io.Reader) []string {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

type chunkJSON struct {
	ID      string `json:"id"`
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Role    string  `json:"role"`
			Content *string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
	Error *json.RawMessage `json:"error"`
}

// streamed is a parsed streaming answer.
type streamed struct {
	data    []string
	chunks  []chunkJSON
	text    string
	finish  string
	done    bool // ended with data: [DONE]
	errJSON string
}

func parseStream(t testing.TB, data []string) streamed {
	t.Helper()
	s := streamed{data: data}
	var sb strings.Builder
	for i, d := range data {
		if d == "[DONE]" {
			if i != len(data)-1 {
				t.Fatalf("[DONE] is not last: %q", data)
			}
			s.done = true
			continue
		}
		var c chunkJSON
		if err := json.Unmarshal([]byte(d), &c); err != nil {
			t.Fatalf("chunk %d is not JSON: %s", i, d)
		}
		if c.Error != nil {
			s.errJSON = d
			continue
		}
		if c.Object != "chat.completion.chunk" || !strings.HasPrefix(c.ID, "chatcmpl-") {
			t.Fatalf("chunk %d is not a chat.completion.chunk: %s", i, d)
		}
		for _, ch := range c.Choices {
			if ch.Delta.Content != nil {
				sb.WriteString(*ch.Delta.Content)
			}
			if ch.FinishReason != nil {
				s.finish = *ch.FinishReason
			}
		}
		s.chunks = append(s.chunks, c)
	}
	s.text = sb.String()
	return s
}

// stream posts a streaming completion and parses the whole answer.
func (e *env) stream(t testing.TB, body map[string]any) (int, streamed) {
	t.Helper()
	body["stream"] = true
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res := e.post(t, ctx, e.Key, "/v1/chat/completions", body)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("stream answered %d %s: %s", res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	return res.StatusCode, parseStream(t, sseData(t, res.Body))
}

func ask(model, question string, history ...map[string]any) map[string]any {
	msgs := append([]map[string]any{}, history...)
	msgs = append(msgs, map[string]any{"role": "user", "content": question})
	return map[string]any{"model": model, "messages": msgs}
}
