package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const stFakeKey = "sk-stream-test-SECRET-42"

func stSetup(t testing.TB, dialect string, tweak ...func(*Deps)) *apiEnv {
	t.Helper()
	return stSetupOn(t, apptest.NewStack(t, dialect), tweak...)
}

// stSetupOn is a full server with a fake LLM behind two models, on a
// stack built by the caller.
func stSetupOn(t testing.TB, stack *apptest.Stack, tweak ...func(*Deps)) *apiEnv {
	t.Helper()
	fake := apptest.StartFake(t, fakellm.Options{})
	mk := func(id string, tools bool) llm.ModelConfig {
		m := fake.Model(id, stFakeKey, "upstream-secret-name")
		m.OutputReserve, m.NativeTools = 4096, tools
		return m
	}
	reg := apptest.Models(t, mk("fake", true), mk("fake-text", false))
	shutdown := make(chan struct{})
	d := Deps{Models: reg, Shutdown: shutdown, Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree}}
	for _, f := range tweak {
		f(&d)
	}
	env := newAPIEnv(t, stack, d, "alice", "bob")
	env.fake, env.fakeURL, env.shutdown = fake, fake.URL, shutdown
	return env
}

type stEvent struct {
	name string
	data map[string]any
	id   int // the SSE id a detached turn sends; 0 when none
}

// stReadEvents parses an SSE body the way a strict client would; with a
// nil t (in a goroutine) bad JSON ends the reading.
func stReadEvents(t *testing.T, r io.Reader, each func(stEvent) bool) []stEvent {
	if t != nil {
		t.Helper()
	}
	var out []stEvent
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var name string
	id := 0
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			id, _ = strconv.Atoi(strings.TrimPrefix(line, "id: "))
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				if t == nil {
					return out
				}
				t.Fatalf("event %s has bad JSON: %v", name, err)
			}
			ev := stEvent{name: name, data: d, id: id}
			id = 0
			out = append(out, ev)
			if each != nil && !each(ev) {
				return out
			}
		}
	}
	return out
}

func stNames(evs []stEvent) string {
	var s []string
	for _, e := range evs {
		if len(s) > 0 && s[len(s)-1] == e.name && e.name == "delta" {
			continue
		}
		s = append(s, e.name)
	}
	return strings.Join(s, ",")
}

func TestStreamRefusesBeforeFirstByte(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		many := `[` + strings.TrimSuffix(strings.Repeat(`{"role":"user","content":"x"},`, MaxHistoryItems+1), ",") + `]`
		cases := []struct {
			name, user, body string
			status           int
			code             string
		}{
			{"no token", "", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`, 401, "missing_token"},
			{"unknown model", "alice", `{"uri":"kb://me/","model_id":"gpt-9","message":"hi"}`, 400, "unknown_model"},
			{"bad uri", "alice", `{"uri":"kb://me/../bob/","model_id":"fake","message":"hi"}`, 400, "invalid_uri"},
			{"other user's scope", "alice", `{"uri":"kb://users/bob/notes/","model_id":"fake","message":"hi"}`, 404, "not_found"},
			{"missing scope", "alice", `{"uri":"kb://me/nope/","model_id":"fake","message":"hi"}`, 404, "not_found"},
			{"empty message", "alice", `{"uri":"kb://me/","model_id":"fake","message":"  "}`, 400, "invalid_message"},
			{"bad history role", "alice", `{"uri":"kb://me/","model_id":"fake","message":"hi","history":[{"role":"system","content":"x"}]}`, 400, "invalid_history"},
			{"history too long", "alice", `{"uri":"kb://me/","model_id":"fake","message":"hi","history":` + many + `}`, 400, "invalid_history"},
			{"history wrong type", "alice", `{"uri":"kb://me/","model_id":"fake","message":"hi","history":"x"}`, 400, "invalid_json"},
			{"malformed json", "alice", `{"uri":`, 400, "invalid_json"},
			{"unknown field", "alice", `{"uri":"kb://me/","model_id":"fake","message":"hi","temperature":2}`, 400, "invalid_json"},
		}
		// These break the OpenAPI document on purpose.
		outside := map[string]bool{"bad history role": true, "history too long": true, "history wrong type": true,
			"malformed json": true, "unknown field": true}
		for _, tc := range cases {
			ex := env
			if outside[tc.name] {
				ex = env.invalid()
			}
			resp := ex.post(context.Background(), t, tc.user, "/api/v1/knowledge-agent/stream", tc.body)
			var body errorBody
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || body.Error.Code != tc.code || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("%s: got %d %q (%s), want %d %q", tc.name, resp.StatusCode, body.Error.Code, resp.Header.Get("Content-Type"), tc.status, tc.code)
			}
		}
		if n := len(env.fake.Requests()); n != 0 {
			t.Fatalf("a refused request reached the model %d times", n)
		}
	})
}

func TestStreamFullTurnWithRealTools(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream",
		`{"uri":"kb://me/notes/","model_id":"fake","message":"use ls on kb://me/notes/ please"}`)
	defer resp.Body.Close()
	for h, want := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"} {
		if got := resp.Header.Get(h); got != want {
			t.Errorf("header %s = %q, want %q", h, got, want)
		}
	}
	evs := stReadEvents(t, resp.Body, nil)
	if got := stNames(evs); got != "start,context,tool_call,tool_result,context,delta,done" {
		t.Fatalf("events %s", got)
	}
	res := evs[3].data
	if res["ok"] != true || !strings.Contains(res["summary"].(string), "items") {
		t.Fatalf("tool result %v", res)
	}
	items := res["result"].(map[string]any)["items"].([]any)
	var names []string
	for _, it := range items {
		names = append(names, it.(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "archive,research-plan.md,会议纪要.md" {
		t.Fatalf("the real listing was not used: %v", names)
	}
	if evs[0].data["uri"] != "kb://users/alice/notes/" {
		t.Fatalf("scope not normalized: %v", evs[0].data["uri"])
	}
}

func TestStreamUpstreamWithoutDoneEndsInError(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("kept ")), fakellm.Data(fakellm.TextChunk("text")), fakellm.Data(fakellm.FinishChunk("stop"))))
	resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`)
	defer resp.Body.Close()
	evs := stReadEvents(t, resp.Body, nil)
	if got := stNames(evs); got != "start,context,delta,error" {
		t.Fatalf("events %s", got)
	}
	if code := evs[len(evs)-1].data["code"]; code != "llm_incomplete_stream" {
		t.Fatalf("error code %v", code)
	}
}

// A stream outlives the body deadlines: its small JSON body (here sent
// chunked, so no read ever reports its end with the data) is read at once,
// and the answer goes on well past body_timeout and body_idle_timeout.
func TestStreamOutlivesBodyDeadlines(t *testing.T) {
	env := stSetup(t, store.DialectSQLite, func(d *Deps) {
		d.Timeouts = Timeouts{Body: 300 * time.Millisecond, BodyIdle: 300 * time.Millisecond}
	})
	answer := fakellm.TextStream("slow ", "but ", "whole")
	answer.PieceDelay = 400 * time.Millisecond
	env.fake.Push(answer)
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"uri":"kb://me/","model_id":"fake","message":"hi"}`))
		time.Sleep(100 * time.Millisecond) // the JSON value is whole before the body ends
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/api/v1/knowledge-agent/stream", pr)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
	resp, err := CheckedClient(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	start := time.Now()
	evs := stReadEvents(t, resp.Body, nil)
	if got := stNames(evs); !strings.HasSuffix(got, ",done") || time.Since(start) < time.Second {
		t.Fatalf("events %s after %s", got, time.Since(start))
	}
}

func TestStreamTextOnlyModelGetsMaterial(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	env.fake.Push(fakellm.TextStream("ok"))
	resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/notes/","model_id":"fake-text","message":"what is here?"}`)
	evs := stReadEvents(t, resp.Body, nil)
	resp.Body.Close()
	if evs[len(evs)-1].name != "done" || evs[0].data["mode"] != "text_only" {
		t.Fatalf("events %s", stNames(evs))
	}
	sys := string(env.fake.LastChat().Messages[0].Content)
	if !strings.Contains(sys, "research-plan.md") || len(env.fake.LastChat().Tools) != 0 {
		t.Fatalf("text-only request lacks the listing or has tools: %q", sys)
	}
}

// TestStreamDisconnectClosesUpstream: the client goes away mid-answer; the
// upstream request must close quickly and no goroutine may be left behind.
func TestStreamDisconnectClosesUpstream(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	before := runtime.NumGoroutine()
	env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(30*time.Second), fakellm.Done()))
	ctx, cancel := context.WithCancel(context.Background())
	resp := env.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`)
	stReadEvents(t, resp.Body, func(e stEvent) bool { return e.name != "delta" })
	start := time.Now()
	cancel()
	resp.Body.Close()
	select {
	case <-env.fake.Aborted():
		t.Logf("upstream closed %v after the client left", time.Since(start))
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Fatalf("upstream closed only after %v", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the upstream request stayed open after the client left")
	}
	http.DefaultClient.CloseIdleConnections()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<16)
		t.Fatalf("goroutines %d → %d after the stream ended:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

func TestStreamEndsOnShutdown(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(30*time.Second), fakellm.Done()))
	resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`)
	defer resp.Body.Close()
	evs := stReadEvents(t, resp.Body, func(e stEvent) bool {
		if e.name == "delta" {
			close(env.shutdown)
		}
		return true
	})
	last := evs[len(evs)-1]
	if last.name != "error" || last.data["code"] != "server_shutdown" {
		t.Fatalf("events %s, last %v", stNames(evs), last.data)
	}
}

func TestOptionsLeakNoSecrets(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	req, _ := http.NewRequest(http.MethodGet, env.srv.URL+"/api/v1/knowledge-agent/options", nil)
	req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
	resp, err := CheckedClient(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, secret := range []string{stFakeKey, env.fakeURL, strings.TrimPrefix(env.fakeURL, "http://"), "upstream-secret-name", "api_key", "base_url"} {
		if bytes.Contains(raw, []byte(secret)) {
			t.Fatalf("options leak %q: %s", secret, raw)
		}
	}
	var body struct {
		Models []map[string]any `json:"models"`
		Upload struct {
			MaxFileBytes int64 `json:"max_file_bytes"`
			MaxFiles     int   `json:"max_files"`
		} `json:"upload"`
	}
	json.Unmarshal(raw, &body)
	if len(body.Models) != 2 || body.Models[0]["id"] != "fake" || body.Models[1]["native_tools"] != false {
		t.Fatalf("options %s", raw)
	}
	// The web app sets aside a file over the limit before sending it.
	if body.Upload.MaxFileBytes != apptest.UploadLimit || body.Upload.MaxFiles != knowledge.MaxUploadFiles {
		t.Fatalf("upload limits %+v, want %d bytes", body.Upload, apptest.UploadLimit)
	}
	for k := range body.Models[0] {
		switch k {
		case "id", "name", "profile", "context_window", "max_output", "native_tools", "reasoning":
		default:
			t.Fatalf("unexpected model field %q", k)
		}
	}
}
