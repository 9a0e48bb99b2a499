package llm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// RegistryOptions are the dependencies of NewRegistry and Load.
type RegistryOptions struct {
	// Getenv resolves api_key_env and discovery variables; default os.Getenv.
	Getenv func(string) string
	// HTTPClient carries the provider calls; default a client without an
	// overall timeout (streams are long), bounded by Timeouts instead.
	HTTPClient *http.Client
	// Timeouts bound each call; zero fields take the defaults.
	Timeouts Timeouts
	// Discover, when set, adds models found in the environment (see
	// Discover) to the configured ones. Load sets it.
	Discover *DiscoverOptions
	// Recorder, when set, is told the usage of every call.
	Recorder UsageRecorder
}

// Registry maps configured model ids to callable models. It is immutable
// after construction and safe for concurrent use, unless made live
// (NewLive, live.go): then Swap replaces the models all its holders see.
type Registry struct {
	models []*Model
	byID   map[string]*Model
	live   *live
}

// upstreamBufSize is the read and write buffer of a provider connection:
// every open stream holds it while it waits for the model; the sseBody
// reads in its own larger pieces, and a request body larger than the
// write buffer is written through.
const upstreamBufSize = 1 << 10

// NewRegistry validates models and builds a registry. A model whose
// api_key_env is unset is a configuration error naming the field.
func NewRegistry(models []ModelConfig, opts RegistryOptions) (*Registry, error) {
	if err := ValidateModels(models); err != nil {
		return nil, err
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = NewHTTPClient()
	}
	to := opts.Timeouts
	if to.FirstByte <= 0 {
		to.FirstByte = DefaultFirstByteTimeout
	}
	if to.Idle <= 0 {
		to.Idle = DefaultIdleTimeout
	}
	r := &Registry{byID: map[string]*Model{}}
	for i, mc := range models {
		mc = mc.withDefaults()
		key := mc.APIKey
		if mc.APIKeyEnv != "" {
			if key = getenv(mc.APIKeyEnv); key == "" {
				return nil, &FieldError{Field: fmt.Sprintf("models[%d].api_key_env", i),
					Message: fmt.Sprintf("environment variable %s is empty or unset", mc.APIKeyEnv)}
			}
		}
		cfg := openai.DefaultConfig(key)
		cfg.BaseURL = strings.TrimRight(mc.BaseURL, "/")
		cfg.HTTPClient = &doer{client: hc}
		cfg.EmptyMessagesLimit = emptyMessagesLimit
		m := &Model{cfg: mc, profile: profiles[mc.Profile], client: openai.NewClientWithConfig(cfg),
			timeouts: to, secrets: secretsOf(mc, key), recorder: opts.Recorder}
		r.models = append(r.models, m)
		r.byID[mc.ID] = m
	}
	return r, nil
}

// Load builds the registry from the configured models plus, when
// opts.Discover is set, the models found in the environment whose ids are
// not configured already (SPEC §9: keys and a local Ollama add models
// without a file).
func Load(ctx context.Context, configured []ModelConfig, opts RegistryOptions) (*Registry, error) {
	if err := ValidateModels(configured); err != nil {
		return nil, err
	}
	all := append([]ModelConfig(nil), configured...)
	if opts.Discover != nil {
		d := *opts.Discover
		if d.Getenv == nil {
			d.Getenv = opts.Getenv
		}
		seen := map[string]bool{}
		for _, m := range configured {
			seen[m.ID] = true
		}
		for _, m := range Discover(ctx, d) {
			if !seen[m.ID] {
				seen[m.ID] = true
				all = append(all, m)
			}
		}
	}
	return NewRegistry(all, opts)
}

// secretsOf lists the strings that must never appear in errors or logs:
// the key, the base URL with and without its path, and header values.
func secretsOf(mc ModelConfig, key string) []string {
	var out []string
	add := func(s string) {
		if len(s) >= 4 {
			out = append(out, s)
		}
	}
	add(key)
	add(strings.TrimRight(mc.BaseURL, "/"))
	if u, err := url.Parse(mc.BaseURL); err == nil {
		add(u.Host)
		add(u.Hostname())
	}
	for _, v := range mc.Headers {
		add(v)
	}
	return out
}

// Lookup returns the model with that id, or an *UnknownModelError: there
// is never a fallback to another model.
func (r *Registry) Lookup(id string) (*Model, error) {
	if m, ok := r.now().byID[id]; ok {
		return m, nil
	}
	return nil, &UnknownModelError{ID: id}
}

// Models returns the models in configuration order.
func (r *Registry) Models() []*Model { return append([]*Model(nil), r.now().models...) }

// Len is the number of models; 0 means chat is unavailable and the UI
// explains how to add one.
func (r *Registry) Len() int { return len(r.now().models) }

// Stream looks the model up and starts a streaming call.
func (r *Registry) Stream(ctx context.Context, modelID string, req Request) (*Stream, error) {
	m, err := r.Lookup(modelID)
	if err != nil {
		return nil, err
	}
	return m.Stream(ctx, req)
}

// Complete looks the model up and runs a non-streaming call.
func (r *Registry) Complete(ctx context.Context, modelID string, req Request) (*Response, error) {
	m, err := r.Lookup(modelID)
	if err != nil {
		return nil, err
	}
	return m.Complete(ctx, req)
}
