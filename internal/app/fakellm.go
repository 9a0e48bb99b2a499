package app

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/fakellm"
)

// startFakeLLM serves the project's fake LLM on a loopback port (KB_FAKE_LLM=1)
// so a newcomer can try the chat without a key, and returns two models that
// point at it, one with native tools, one text-only, and its base URL.
func startFakeLLM() ([]llm.ModelConfig, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("fake llm: %w", err)
	}
	fake := fakellm.New(fakellm.Options{PieceDelay: 15 * time.Millisecond})
	srv := &http.Server{Handler: fake, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // lives as long as the process
	// Browser tests read this line to prove that Stop reached the provider.
	go func() {
		for a := range fake.Aborted() {
			slog.Info("fake llm: the client closed a request before its answer ended", "path", a.Path, "step", a.Step)
		}
	}()
	base := "http://" + ln.Addr().String() + "/v1"
	model := func(id, name string, tools bool) llm.ModelConfig {
		return llm.ModelConfig{ID: id, Name: name, Profile: llm.ProfileOpenAICompatible, BaseURL: base,
			APIKey: "fake", Model: "fake-model", ContextWindow: 32768, OutputReserve: 4096, NativeTools: tools}
	}
	return []llm.ModelConfig{
		model("fake", "Fake LLM (tools; say \"use ls\")", true),
		model("fake-text", "Fake LLM (text only)", false),
	}, base, nil
}
