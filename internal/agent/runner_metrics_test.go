package agent

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/observe"
)

// scrapeSeries reads the series /metrics serves, by their full text.
func scrapeSeries(t *testing.T) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	observe.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	out := map[string]float64{}
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if i := strings.LastIndexByte(line, ' '); i > 0 && line[0] != '#' {
			v, _ := strconv.ParseFloat(line[i+1:], 64)
			out[line[:i]] = v
		}
	}
	return out
}

// Not parallel: the tool series are shared with the other runner tests,
// which wait while this one runs.
func TestToolAndModelCallMetrics(t *testing.T) {
	fake := fakellm.New(fakellm.Options{})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	usage := true
	reg, err := llm.NewRegistry([]llm.ModelConfig{{ID: "metrics-fake", Profile: "openai-compatible", BaseURL: srv.URL + "/v1",
		APIKey: "k", Model: "m", ContextWindow: 65536, OutputReserve: 4096, NativeTools: true, StreamUsage: &usage}}, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	model, _ := reg.Lookup("metrics-fake")
	h := &harness{fake: fake, model: model, tools: &fakeTools{}}
	fake.Push(
		toolCallStream([3]string{"", "ls", `{"uri":"kb://me/"}`}, [3]string{"", "ls", `{ "uri" : "kb://me/" }`}),
		toolCallStream([3]string{"", "nosuch", `{}`}),
		toolCallStream([3]string{"", "read", `{"uri":"kb://me/huge.md"}`}),
		fakellm.TextStream("done"),
	)
	before := scrapeSeries(t)
	if ev := h.run(t, context.Background(), "go"); last(ev).Name != EventDone {
		t.Fatalf("ended with %s", names(ev))
	}
	fake.Push(fakellm.HTTPError(500, "upstream broke"))
	if ev := h.run(t, context.Background(), "again"); last(ev).Name != EventError {
		t.Fatalf("a 500 ended with %s", names(ev))
	}
	after := scrapeSeries(t)
	for series, want := range map[string]float64{
		`knowspace_tool_calls_total{outcome="ok",tool="ls"}`:                             1,
		`knowspace_tool_calls_total{outcome="duplicate",tool="ls"}`:                      1,
		`knowspace_tool_calls_total{outcome="error",tool="unknown"}`:                     1, // a name the model made up
		`knowspace_tool_calls_total{outcome="error",tool="read"}`:                        1, // over the result limit
		`knowspace_model_calls_total{model="metrics-fake",outcome="ok"}`:                 4,
		`knowspace_model_calls_total{model="metrics-fake",outcome="server_error"}`:       1,
		`knowspace_model_call_duration_seconds_count{model="metrics-fake",outcome="ok"}`: 4,
		`knowspace_model_tokens_total{kind="completion",model="metrics-fake"}`:           34,  // 10 per tool-call step, len("done")
		`knowspace_model_tokens_total{kind="prompt",model="metrics-fake"}`:               310, // 100 per tool-call step, 10 for the answer
	} {
		if got := after[series] - before[series]; got != want {
			t.Errorf("%s moved by %v, want %v", series, got, want)
		}
	}
	for series := range after {
		if strings.Contains(series, "nosuch") {
			t.Errorf("the made-up tool name became a label: %s", series)
		}
	}
}
