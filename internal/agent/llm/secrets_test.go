package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
)

const (
	leakKey    = "sk-LEAKCHECK-key-5f3a9c"
	leakHeader = "hdr-LEAKCHECK-value-77"
	leakPath   = "/tenant-LEAKCHECK/v1"
)

// TestSecretsNeverLeak drives every failure path with a provider that
// echoes the key, endpoint and header back, then greps every string that
// can reach a client or a log.
func TestSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	base := f.srv.URL + leakPath
	host := strings.TrimPrefix(f.srv.URL, "http://")
	secrets := []string{leakKey, leakHeader, base, host, leakPath}
	echo := fmt.Sprintf("Incorrect API key provided: %s for %s (header %s)", leakKey, base, leakHeader)

	dead := httptest.NewServer(http.NotFoundHandler())
	deadBase := dead.URL + leakPath
	dead.Close()

	models := []ModelConfig{
		{ID: "leaky", Name: "Leaky", Profile: ProfileOpenAICompatible, BaseURL: base, APIKey: leakKey,
			Model: "upstream-LEAKCHECK", ContextWindow: 8192, OutputReserve: 1024,
			Headers: map[string]string{"X-Tenant": leakHeader}, ExtraBody: map[string]any{"user": "LEAKCHECK-body"}},
		{ID: "dead", Profile: ProfileOpenAICompatible, BaseURL: deadBase, APIKey: leakKey,
			ContextWindow: 8192, OutputReserve: 1024, Headers: map[string]string{"X-Tenant": leakHeader}},
	}
	secrets = append(secrets, deadBase, strings.TrimPrefix(deadBase, "http://"))
	reg, err := NewRegistry(models, RegistryOptions{Timeouts: Timeouts{FirstByte: 200 * time.Millisecond,
		Idle: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}

	responses := []fakellm.Response{
		fakellm.HTTPError(400, echo),
		fakellm.HTTPError(401, echo),
		fakellm.HTTPError(404, echo),
		fakellm.HTTPError(429, echo),
		fakellm.HTTPError(500, echo),
		{Status: 502, Body: echo},
		fakellm.Stream(fakellm.Data(fakellm.TextChunk("a")), fakellm.Data(fakellm.ErrorObject(echo, "server_error", nil))),
		fakellm.Stream(fakellm.Data(fakellm.TextChunk("a")), fakellm.Data(`{ "error" : {"message": `+quote(echo)+`}}`)),
		fakellm.Stream(fakellm.Data(fakellm.OpenRouterErrorChunk(echo))),
		fakellm.Stream(fakellm.Data(`{"choices":[` + quote(echo))),
		fakellm.Stream(fakellm.Data(fakellm.TextChunk("a")), fakellm.Reset()),
		fakellm.Stream(fakellm.Data(fakellm.TextChunk("a"))),
		fakellm.Stream(fakellm.Data(fakellm.TextChunk("a")), fakellm.Sleep(2*time.Second)),
		{FirstByteDelay: 2 * time.Second, Steps: []fakellm.Step{fakellm.Done()}},
	}
	var outputs []string
	record := func(err error) {
		if err == nil {
			t.Fatalf("expected a failure")
		}
		outputs = append(outputs, err.Error(), fmt.Sprintf("%v|%+v|%s", err, err, err))
		if e, ok := AsError(err); ok {
			ae := e.APIError()
			outputs = append(outputs, ae.Message, ae.Code.String(), ae.Error())
		}
	}
	for i, resp := range responses {
		f.fake.Push(resp)
		r := drain(t, mustLookup(t, reg, "leaky"), userHi)
		if r.err == nil {
			t.Fatalf("response %d: no error", i)
		}
		record(r.err)
	}
	_, err = reg.Stream(context.Background(), "dead", userHi)
	record(err)
	_, err = reg.Complete(context.Background(), "dead", userHi)
	record(err)

	// What else leaves the package: options, printed configs, logs.
	opts, _ := json.Marshal(reg.Options())
	outputs = append(outputs, string(opts))
	var logBuf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logBuf, nil))
	for _, mc := range models {
		outputs = append(outputs, fmt.Sprintf("%v %+v %#v %s", mc, mc, mc, mc))
		logger.Info("model", "config", mc)
	}
	outputs = append(outputs, logBuf.String())
	if err := ValidateModels([]ModelConfig{{ID: "x", Profile: "nope", BaseURL: "ftp://" + host + leakPath,
		APIKey: leakKey}}); err != nil {
		outputs = append(outputs, err.Error())
	}

	for _, out := range outputs {
		for _, s := range append(secrets, "LEAKCHECK") {
			if strings.Contains(out, s) {
				t.Errorf("secret %q leaked in %q", s, out)
			}
		}
	}
}

func mustLookup(t *testing.T, r *Registry, id string) *Model {
	t.Helper()
	m, err := r.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestOptionsSafeFieldsOnly(t *testing.T) {
	t.Parallel()
	reg, err := NewRegistry([]ModelConfig{
		{ID: "a", Name: "Model A", Profile: ProfileOpenAICompatible, BaseURL: "https://relay.LEAKCHECK.test/v1",
			APIKey: leakKey, Model: "LEAKCHECK-upstream", ContextWindow: 32768, OutputReserve: 4096,
			MaxOutput: 2048, NativeTools: true, Headers: map[string]string{"X-K": leakHeader}},
		{ID: "b", Profile: ProfileOllama, ContextWindow: 8192, OutputReserve: 2048, Reasoning: true},
	}, RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(reg.Options())
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"id": "a", "name": "Model A", "profile": "openai-compatible", "context_window": 32768.0,
			"max_output": 2048.0, "native_tools": true, "reasoning": false},
		{"id": "b", "name": "b", "profile": "ollama", "context_window": 8192.0, "max_output": 2048.0,
			"native_tools": false, "reasoning": true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %s", raw)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("model %d has fields %v, want exactly %v", i, got[i], want[i])
		}
		for k, v := range want[i] {
			if got[i][k] != v {
				t.Fatalf("model %d field %s = %v, want %v (%s)", i, k, got[i][k], v, raw)
			}
		}
	}
	if strings.Contains(string(raw), "LEAKCHECK") {
		t.Fatalf("options leak: %s", raw)
	}
}
