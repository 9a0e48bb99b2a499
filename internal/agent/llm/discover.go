package llm

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// Discovery defaults.
const (
	DefaultProbeTimeout = 300 * time.Millisecond
	defaultOllamaHost   = "http://localhost:11434"
	// Ollama's /api/tags does not report context length; these are safe
	// values for the small local models people run.
	ollamaContextWindow = 8192
	ollamaOutputReserve = 2048
	maxTagsBody         = 1 << 20
)

// HTTPDoer is what the Ollama probe needs from an HTTP client.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// DiscoverOptions make discovery testable without a network.
type DiscoverOptions struct {
	// Getenv reads the environment; default os.Getenv.
	Getenv func(string) string
	// Probe sends the Ollama /api/tags request; default an http.Client.
	Probe HTTPDoer
	// ProbeTimeout bounds the probe; default DefaultProbeTimeout.
	ProbeTimeout time.Duration
	// SkipOllama turns the probe off.
	SkipOllama bool
}

// wellKnown are the models a well-known key adds. The key stays in the
// environment: the config names the variable, never the value.
var wellKnown = []struct {
	env    string
	models []ModelConfig
}{
	{"OPENAI_API_KEY", []ModelConfig{{ID: "gpt-4o-mini", Name: "GPT-4o mini", Profile: ProfileOpenAI,
		ContextWindow: 128000, OutputReserve: 16384, NativeTools: true}}},
	{"DEEPSEEK_API_KEY", []ModelConfig{
		{ID: "deepseek-chat", Name: "DeepSeek Chat", Profile: ProfileDeepSeek,
			ContextWindow: 65536, OutputReserve: 8192, NativeTools: true},
		{ID: "deepseek-reasoner", Name: "DeepSeek Reasoner", Profile: ProfileDeepSeek,
			ContextWindow: 65536, OutputReserve: 16384, Reasoning: true},
	}},
	{"DASHSCOPE_API_KEY", []ModelConfig{{ID: "qwen-plus", Name: "Qwen Plus", Profile: ProfileQwen,
		ContextWindow: 131072, OutputReserve: 8192, NativeTools: true}}},
	{"GEMINI_API_KEY", []ModelConfig{{ID: "gemini-2.5-flash", Name: "Gemini 2.5 Flash", Profile: ProfileGemini,
		ContextWindow: 1048576, OutputReserve: 65536, NativeTools: true, Reasoning: true}}},
}

// Discover returns the models the environment offers: one or two per
// well-known key that is set, and every model a reachable Ollama has
// installed (OLLAMA_HOST, else localhost:11434). An unreachable or slow
// Ollama is silently skipped: discovery never fails start-up.
func Discover(ctx context.Context, opts DiscoverOptions) []ModelConfig {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var out []ModelConfig
	for _, wk := range wellKnown {
		if getenv(wk.env) == "" {
			continue
		}
		for _, m := range wk.models {
			m.APIKeyEnv = wk.env
			out = append(out, m)
		}
	}
	if !opts.SkipOllama {
		out = append(out, discoverOllama(ctx, opts, getenv)...)
	}
	return out
}

func discoverOllama(ctx context.Context, opts DiscoverOptions, getenv func(string) string) []ModelConfig {
	base := ollamaBaseURL(getenv("OLLAMA_HOST"))
	if base == "" {
		return nil
	}
	timeout := opts.ProbeTimeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	probe := opts.Probe
	if probe == nil {
		probe = &http.Client{Timeout: timeout}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/tags", nil)
	if err != nil {
		return nil
	}
	resp, err := probe.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	var tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxTagsBody)).Decode(&tags); err != nil {
		return nil
	}
	var out []ModelConfig
	for _, t := range tags.Models {
		m := ModelConfig{ID: "ollama/" + t.Name, Name: t.Name + " (Ollama)", Profile: ProfileOllama,
			BaseURL: base + "/v1", Model: t.Name, ContextWindow: ollamaContextWindow,
			OutputReserve: ollamaOutputReserve}
		// Names with characters our ids refuse are skipped rather than
		// failing start-up.
		if t.Name != "" && m.Validate() == nil {
			out = append(out, m)
		}
	}
	return out
}

// ollamaBaseURL turns OLLAMA_HOST ("host", "host:port", "0.0.0.0:11434" or a
// URL) into an http base URL without a trailing slash.
func ollamaBaseURL(env string) string {
	env = strings.TrimSpace(env)
	if env == "" {
		return defaultOllamaHost
	}
	if !strings.Contains(env, "://") {
		env = "http://" + env
	}
	u, err := url.Parse(env)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return ""
	}
	host, port := u.Hostname(), u.Port()
	if host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1" // a listen address, not one to dial
	}
	if port == "" {
		port = "11434"
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port) + strings.TrimRight(u.Path, "/")
}
