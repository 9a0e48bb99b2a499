package apptest

import (
	"net/http/httptest"
	"testing"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
)

// Fake is the fake LLM served over HTTP, reached through a model's base
// URL as a real provider is.
type Fake struct {
	*fakellm.Server
	URL string // the server's root; models use URL + "/v1"
}

// StartFake serves a fake LLM until the test ends.
func StartFake(t testing.TB, opts fakellm.Options) *Fake {
	t.Helper()
	f := fakellm.New(opts)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return &Fake{Server: f, URL: srv.URL}
}

// Model is a model served by the fake: OpenAI-compatible, a 32k context
// with 2k kept for the answer, called with the key and the upstream model
// name given (tests check neither ever reaches a client).
func (f *Fake) Model(id, key, upstream string) llm.ModelConfig {
	return llm.ModelConfig{ID: id, Profile: llm.ProfileOpenAICompatible, BaseURL: f.URL + "/v1", APIKey: key,
		Model: upstream, ContextWindow: 32768, OutputReserve: 2048}
}

// Models is the registry of the models given.
func Models(t testing.TB, models ...llm.ModelConfig) *llm.Registry {
	t.Helper()
	reg, err := llm.NewRegistry(models, llm.RegistryOptions{})
	if err != nil {
		t.Fatalf("models: %v", err)
	}
	return reg
}

// Embedder is an embedding model served by the fake (fakellm's vectors:
// texts sharing words or parts of words lie close).
func (f *Fake) Embedder(id string) *embed.Client {
	return embed.New(embed.Config{ID: id, BaseURL: f.URL + "/v1", BatchSize: 8}, nil)
}
