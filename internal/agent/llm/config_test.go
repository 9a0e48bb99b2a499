package llm

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/knowspace/knowspace/internal/fakellm"
)

func validModel() ModelConfig {
	return ModelConfig{ID: "deepseek-chat", Name: "DeepSeek Chat", Profile: ProfileDeepSeek,
		BaseURL: "https://api.deepseek.com/v1", APIKeyEnv: "DEEPSEEK_API_KEY", Model: "deepseek-chat",
		ContextWindow: 65536, OutputReserve: 8192, NativeTools: true}
}

func TestValidateModels(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		edit func(*ModelConfig)
		want string // substring of the error; "" = valid
	}{
		{"valid", func(*ModelConfig) {}, ""},
		{"default base url from profile", func(c *ModelConfig) { c.BaseURL = "" }, ""},
		{"missing id", func(c *ModelConfig) { c.ID = "" }, "models[2].id: is required"},
		{"bad id", func(c *ModelConfig) { c.ID = "has space" }, "models[2].id: may hold only"},
		{"missing profile", func(c *ModelConfig) { c.Profile = "" }, "models[2].profile: is required"},
		{"unknown profile", func(c *ModelConfig) { c.Profile = "anthropic" }, `models[2].profile: unknown profile "anthropic"`},
		{"ftp scheme", func(c *ModelConfig) { c.BaseURL = "ftp://example.com/v1" }, "models[2].base_url: scheme must be http or https"},
		{"no host", func(c *ModelConfig) { c.BaseURL = "http:///v1" }, "models[2].base_url: has no host"},
		{"query in url", func(c *ModelConfig) { c.BaseURL = "https://x.test/v1?key=abc" }, "models[2].base_url: may not have a query"},
		{"compatible needs base url", func(c *ModelConfig) { c.Profile = ProfileOpenAICompatible; c.BaseURL = "" },
			"models[2].base_url: is required for profile openai-compatible"},
		{"key and key env", func(c *ModelConfig) { c.APIKey = "sk-x" }, "models[2].api_key: set either"},
		{"bad env name", func(c *ModelConfig) { c.APIKeyEnv = "1-BAD" }, "models[2].api_key_env: is not a valid"},
		{"key required", func(c *ModelConfig) { c.APIKeyEnv = "" }, "models[2].api_key_env: is required for profile deepseek"},
		{"ollama needs no key", func(c *ModelConfig) { c.Profile = ProfileOllama; c.APIKeyEnv = "" }, ""},
		{"zero window", func(c *ModelConfig) { c.ContextWindow = 0 }, "models[2].context_window: must be a positive"},
		{"huge window", func(c *ModelConfig) { c.ContextWindow = 1 << 40 }, "models[2].context_window: must be at most"},
		{"zero reserve", func(c *ModelConfig) { c.OutputReserve = 0 }, "models[2].output_reserve: must be a positive"},
		{"reserve eats window", func(c *ModelConfig) { c.OutputReserve = 65000 }, "models[2].output_reserve: leaves no input room"},
		{"max output over reserve", func(c *ModelConfig) { c.MaxOutput = 9000 }, "models[2].max_output: must be between"},
		{"extra body overrides messages", func(c *ModelConfig) { c.ExtraBody = map[string]any{"messages": 1} },
			`models[2].extra_body: may not set "messages"`},
		{"bad header name", func(c *ModelConfig) { c.Headers = map[string]string{"Bad Header": "x"} },
			`models[2].headers: invalid header name`},
		{"bad header value", func(c *ModelConfig) { c.Headers = map[string]string{"X-A": "a\nb"} },
			`models[2].headers: value of X-A`},
		{"duplicate id", func(c *ModelConfig) { c.ID = "first" }, `models[2].id: duplicates models[0].id "first"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			first, second, third := validModel(), validModel(), validModel()
			first.ID, second.ID = "first", "second"
			tc.edit(&third)
			err := ValidateModels([]ModelConfig{first, second, third})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestValidateNamesEveryField(t *testing.T) {
	t.Parallel()
	err := ValidateModels([]ModelConfig{{BaseURL: "gopher://secret-host.test"}})
	for _, f := range []string{"models[0].id", "models[0].profile", "models[0].base_url", "models[0].context_window",
		"models[0].output_reserve"} {
		if err == nil || !strings.Contains(err.Error(), f+":") {
			t.Errorf("error does not name %s: %v", f, err)
		}
	}
	if strings.Contains(err.Error(), "secret-host") {
		t.Errorf("error quotes the base url: %v", err)
	}
}

func TestYAMLTags(t *testing.T) {
	t.Parallel()
	src := `
models:
  - id: deepseek-chat
    name: DeepSeek Chat
    profile: deepseek
    base_url: https://api.deepseek.com/v1
    api_key_env: DEEPSEEK_API_KEY
    model: deepseek-chat
    context_window: 65536
    output_reserve: 8192
    native_tools: true
    reasoning: false
  - id: qwen
    profile: qwen
    api_key: sk-inline
    context_window: 131072
    output_reserve: 8192
    stream_usage: false
    extra_body: {enable_thinking: true}
    headers: {X-Trace: abc}
`
	var cfg struct {
		Models []ModelConfig `yaml:"models"`
	}
	if err := yaml.Unmarshal([]byte(src), &cfg); err != nil {
		t.Fatal(err)
	}
	if err := ValidateModels(cfg.Models); err != nil {
		t.Fatal(err)
	}
	d, q := cfg.Models[0], cfg.Models[1]
	if d.ID != "deepseek-chat" || d.BaseURL != "https://api.deepseek.com/v1" || d.APIKeyEnv != "DEEPSEEK_API_KEY" ||
		d.ContextWindow != 65536 || d.OutputReserve != 8192 || !d.NativeTools || d.Model != "deepseek-chat" {
		t.Fatalf("deepseek: %#v", d)
	}
	if q.APIKey != "sk-inline" || q.StreamUsage == nil || *q.StreamUsage || q.ExtraBody["enable_thinking"] != true ||
		q.Headers["X-Trace"] != "abc" {
		t.Fatalf("qwen: %+v", q)
	}
}

func TestRegistryLookup(t *testing.T) {
	t.Parallel()
	env := map[string]string{"DEEPSEEK_API_KEY": "sk-ds"}
	reg, err := NewRegistry([]ModelConfig{validModel()}, RegistryOptions{Getenv: mapEnv(env)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.Lookup("deepseek-chat"); err != nil {
		t.Fatal(err)
	}
	_, err = reg.Lookup("gpt-9")
	if !IsUnknownModel(err) {
		t.Fatalf("want unknown model, got %v", err)
	}
	if ae := err.(*UnknownModelError).APIError(); ae.Status != http.StatusBadRequest || ae.Code.String() != "unknown_model" {
		t.Fatalf("api error %+v", ae)
	}
	if _, err := reg.Stream(context.Background(), "gpt-9", userHi); !IsUnknownModel(err) {
		t.Fatalf("stream with unknown model: %v", err)
	}

	_, err = NewRegistry([]ModelConfig{validModel()}, RegistryOptions{Getenv: mapEnv(nil)})
	if err == nil || !strings.Contains(err.Error(), "models[0].api_key_env: environment variable DEEPSEEK_API_KEY") {
		t.Fatalf("unset key env: %v", err)
	}
	empty, err := NewRegistry(nil, RegistryOptions{})
	if err != nil || empty.Len() != 0 || empty.Options() == nil {
		t.Fatalf("empty registry: %v", err)
	}
}

func mapEnv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// failingDoer fails the test if discovery touches the network.
type failingDoer struct{ t *testing.T }

func (d failingDoer) Do(r *http.Request) (*http.Response, error) {
	d.t.Errorf("unexpected probe of %s", r.URL)
	return nil, http.ErrHandlerTimeout
}

func TestDiscover(t *testing.T) {
	t.Parallel()
	fake := fakellm.New(fakellm.Options{Models: []string{"llama3.2:latest", "qwen3:8b", "bad name!"}})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")

	env := map[string]string{"OPENAI_API_KEY": "sk-o", "DEEPSEEK_API_KEY": "sk-d", "DASHSCOPE_API_KEY": "sk-q",
		"GEMINI_API_KEY": "g", "OLLAMA_HOST": host}
	got := Discover(context.Background(), DiscoverOptions{Getenv: mapEnv(env)})
	ids := map[string]ModelConfig{}
	for _, m := range got {
		ids[m.ID] = m
		if m.APIKey != "" {
			t.Errorf("%s carries a key value; it must name the variable", m.ID)
		}
	}
	for _, id := range []string{"gpt-4o-mini", "deepseek-chat", "deepseek-reasoner", "qwen-plus", "gemini-2.5-flash",
		"ollama/llama3.2:latest", "ollama/qwen3:8b"} {
		if _, ok := ids[id]; !ok {
			t.Errorf("missing %s in %v", id, got)
		}
	}
	if len(got) != 7 {
		t.Errorf("got %d models, want 7 (the invalid name is skipped)", len(got))
	}
	if o := ids["ollama/qwen3:8b"]; o.BaseURL != srv.URL+"/v1" || o.Model != "qwen3:8b" {
		t.Errorf("ollama model %+v base %s", o, o.BaseURL)
	}
	if err := ValidateModels(got); err != nil {
		t.Fatalf("discovered models do not validate: %v", err)
	}

	// Nothing set, Ollama probe turned off: nothing found, nothing probed.
	if got := Discover(context.Background(), DiscoverOptions{Getenv: mapEnv(nil), SkipOllama: true,
		Probe: failingDoer{t}}); len(got) != 0 {
		t.Fatalf("got %v", got)
	}

	// An unreachable Ollama is skipped quietly.
	dead := httptest.NewServer(http.NotFoundHandler())
	deadHost := strings.TrimPrefix(dead.URL, "http://")
	dead.Close()
	if got := Discover(context.Background(), DiscoverOptions{Getenv: mapEnv(map[string]string{"OLLAMA_HOST": deadHost})}); len(got) != 0 {
		t.Fatalf("got %v", got)
	}

	// Load merges: a configured id wins over a discovered one.
	conf := validModel()
	reg, err := Load(context.Background(), []ModelConfig{conf}, RegistryOptions{Getenv: mapEnv(env),
		Discover: &DiscoverOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	if reg.Len() != 7 {
		t.Fatalf("registry has %d models, want 7", reg.Len())
	}
	if m, _ := reg.Lookup("deepseek-chat"); m.Meta().Name != "DeepSeek Chat" {
		t.Fatalf("configured model lost")
	}
}

func TestOllamaBaseURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                          "http://localhost:11434",
		"0.0.0.0":                   "http://127.0.0.1:11434",
		"0.0.0.0:11434":             "http://127.0.0.1:11434",
		"gpu-box:9000":              "http://gpu-box:9000",
		"https://ollama.test":       "https://ollama.test:11434",
		"http://127.0.0.1:1234/":    "http://127.0.0.1:1234",
		"ftp://x":                   "",
		"http://[::1]:11434/prefix": "http://[::1]:11434/prefix",
	} {
		if got := ollamaBaseURL(in); got != want {
			t.Errorf("ollamaBaseURL(%q) = %q, want %q", in, got, want)
		}
	}
}
