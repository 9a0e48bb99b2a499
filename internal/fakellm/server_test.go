package fakellm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s := New(opts)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

func post(t *testing.T, ctx context.Context, url, body string) (*http.Response, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/v1/chat/completions", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return http.DefaultClient.Do(req)
}

func TestScriptedBytesPiecesAndCRLF(t *testing.T) {
	t.Parallel()
	s, srv := start(t, Options{})
	s.Push(Stream(Comment("keep-alive"), Data(`{"a":"你好"}`), Done()).WithPieces(1).WithCRLF())
	resp, err := post(t, context.Background(), srv.URL, `{"model":"m","stream":true,"messages":[{"role":"user","content":"q"}],"stream_options":{"include_usage":true}}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := ": keep-alive\r\n\r\ndata: {\"a\":\"你好\"}\r\n\r\ndata: [DONE]\r\n\r\n"
	if string(b) != want || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("got %q", b)
	}
	chat := s.LastChat()
	if chat == nil || chat.Model != "m" || !chat.Stream || chat.StreamOptions == nil || !chat.StreamOptions.IncludeUsage ||
		string(chat.Messages[0].Content) != "q" {
		t.Fatalf("recorded %+v", chat)
	}
	if s.Completed() != 1 || s.AbortCount() != 0 {
		t.Fatalf("completed %d aborts %d", s.Completed(), s.AbortCount())
	}
}

func TestHTTPErrorWithRetryAfter(t *testing.T) {
	t.Parallel()
	s, srv := start(t, Options{})
	s.Push(RateLimited("3"))
	resp, err := post(t, context.Background(), srv.URL, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct{ Message, Type string }
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" || body.Error.Type != "rate_limit_error" {
		t.Fatalf("status %d header %q body %+v", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}

func TestResetIsNotACleanEnd(t *testing.T) {
	t.Parallel()
	s, srv := start(t, Options{})
	s.Push(Stream(Data(TextChunk("a")), Reset()))
	resp, err := post(t, context.Background(), srv.URL, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Fatal("reset read as a clean end")
	}
}

func TestAbortReported(t *testing.T) {
	t.Parallel()
	s, srv := start(t, Options{})
	s.Push(Response{Steps: []Step{Data(TextChunk("a"))}, Hold: true})
	ctx, cancel := context.WithCancel(context.Background())
	resp, err := post(t, ctx, srv.URL, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = bufio.NewReader(resp.Body).ReadString('\n')
	cancel()
	resp.Body.Close()
	select {
	case a := <-s.Aborted():
		if a.Path != "/v1/chat/completions" || a.Step != 1 {
			t.Fatalf("abort %+v", a)
		}
	case <-time.After(time.Second):
		t.Fatal("abort not reported")
	}
	if s.AbortCount() != 1 {
		t.Fatalf("abort count %d", s.AbortCount())
	}
}

func TestModelsAndTags(t *testing.T) {
	t.Parallel()
	_, srv := start(t, Options{Models: []string{"a", "b:7b"}})
	for path, want := range map[string]string{"/v1/models": `"id":"b:7b"`, "/api/tags": `"name":"b:7b"`, "/nope": `"error"`} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) {
			t.Errorf("%s: %s", path, b)
		}
	}
}

// events reads a default-script stream into its data payloads.
func events(t *testing.T, srv *httptest.Server, body string) ([]string, error) {
	t.Helper()
	resp, err := post(t, context.Background(), srv.URL, body)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return nil, errors.New(resp.Status)
	}
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, p)
		}
	}
	return out, sc.Err()
}

// textOf joins the text deltas of streamed chunks.
func textOf(ev []string) string {
	var b strings.Builder
	for _, e := range ev {
		var c struct {
			Choices []struct {
				Delta struct{ Content string } `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(e), &c) == nil && len(c.Choices) > 0 {
			b.WriteString(c.Choices[0].Delta.Content)
		}
	}
	return b.String()
}

func TestDefaultScript(t *testing.T) {
	t.Parallel()
	_, srv := start(t, Options{})
	tools := `"tools":[{"type":"function","function":{"name":"ls","parameters":{}}}]`

	ev, err := events(t, srv, `{"stream":true,"messages":[{"role":"user","content":"hello 世界"}]}`)
	joined := strings.Join(ev, "\n")
	if err != nil || ev[len(ev)-1] != "[DONE]" || !strings.Contains(joined, `"finish_reason":"stop"`) ||
		strings.Contains(joined, `"usage"`) {
		t.Fatalf("echo: %v %v", err, ev)
	}

	ev, _ = events(t, srv, `{"stream":true,"stream_options":{"include_usage":true},`+tools+
		`,"messages":[{"role":"user","content":"please use ls on kb://docs/a"}]}`)
	joined = strings.Join(ev, "\n")
	if !strings.Contains(joined, `"name":"ls"`) || !strings.Contains(joined, `"finish_reason":"tool_calls"`) ||
		!strings.Contains(joined, `"usage"`) || !strings.Contains(joined, `docs/a`) {
		t.Fatalf("tool call: %v", ev)
	}

	ev, _ = events(t, srv, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"use ls"},`+
		`{"role":"assistant","tool_calls":[{"id":"call_fake_ls","type":"function","function":{"name":"ls","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"call_fake_ls","content":"a.md"}]}`)
	if joined = strings.Join(ev, ""); !strings.Contains(joined, "Tool") || strings.Contains(joined, "tool_calls") {
		t.Fatalf("after tool: %v", ev)
	}

	ev, _ = events(t, srv, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"use read"},`+
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"read","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"c1","content":"{\"uri\":\"kb://users/a/x.md\",\"offset\":0,\"text\":\"hi\"}"},`+
		`{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"ls","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"c2","content":"{\"uri\":\"kb://users/a/\",\"items\":[]}"}]}`)
	if joined = textOf(ev); !strings.HasSuffix(joined, "Sources: kb://users/a/x.md#L1, kb://users/a/") {
		t.Fatalf("citations: %q", joined)
	}

	if _, err := events(t, srv, `{"stream":true,"messages":[{"role":"user","content":"[[429]]"}]}`); err == nil {
		t.Fatal("[[429]] did not fail")
	}
	ev, _ = events(t, srv, `{"stream":true,"messages":[{"role":"user","content":"abcdefghijkl [[truncate]]"}]}`)
	if len(ev) == 0 || ev[len(ev)-1] == "[DONE]" {
		t.Fatalf("truncate: %v", ev)
	}

	resp, err := post(t, context.Background(), srv.URL, `{"messages":[{"role":"user","content":"plain"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&c)
	resp.Body.Close()
	if len(c.Choices) != 1 || c.Choices[0].Message.Content != "plain" {
		t.Fatalf("non-stream: %+v", c)
	}
}
