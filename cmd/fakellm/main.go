// Command fakellm serves the project's fake OpenAI-compatible LLM (package
// internal/fakellm) with its default script, for browser tests, benchmarks
// and trying the chat without a real key. Point a model at it with
// profile openai-compatible and base_url http://ADDR/v1.
package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8089", "listen address")
	delay := flag.Duration("delay", 20*time.Millisecond, "pause between streamed chunks")
	models := flag.String("models", "fake-model", "comma-separated model names for /v1/models and /api/tags")
	flag.Parse()

	fake := fakellm.New(fakellm.Options{Models: strings.Split(*models, ","), PieceDelay: *delay})
	srv := &http.Server{Addr: *addr, Handler: fake, ReadHeaderTimeout: 10 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()

	slog.Info("fakellm listening", "base_url", "http://"+*addr+"/v1")
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		slog.Error("fakellm stopped", "err", err)
		os.Exit(1)
	}
}
