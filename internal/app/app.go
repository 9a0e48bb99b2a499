package app

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/dav"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/importer"
	"github.com/knowspace/knowspace/internal/ingest"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/mcp"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/openaiapi"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/turn"
	"github.com/knowspace/knowspace/internal/usage"
	"github.com/knowspace/knowspace/web"
)

// Options are the choices the config file does not hold.
type Options struct {
	// FakeLLM serves the project's fake LLM in this process and offers its
	// models first (KB_FAKE_LLM=1), so a newcomer can chat without a key.
	FakeLLM bool
	// FakeEmbeddings (with FakeLLM) makes the fake the embedding model,
	// unless the config names one: meaning search for browser tests.
	FakeEmbeddings bool
}

// App is the whole server: the core, the compile and extraction services,
// the doors mounted on the REST API, and, once started, the listeners
// and workers.
type App struct {
	*Core
	models     *llm.Registry
	catalog    *catalog.Service
	extraction *extract.Isolation
	compiler   *compile.Service
	ingester   *ingest.Service
	handler    *echo.Echo
	timeouts   httpapi.Timeouts
	// shutdown tells long-lived streams to end: http.Server.Shutdown does
	// not end them, nor wait for those whose connections turns took.
	shutdown  chan struct{}
	turns     *turn.Service
	generated string

	// Set by Start.
	server     *http.Server
	listener   net.Listener
	metrics    *observe.MetricsServer
	served     chan error
	workers    *compile.Pool
	extractors *ingest.Pool
}

// New opens the core and builds every service and door on it: the first
// admin exists, the search index is whole and turns cut by the last stop
// are marked interrupted when it returns. Nothing listens until Start.
func New(ctx context.Context, cfg config.Config, opts Options) (*App, error) {
	core, err := Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	a := &App{Core: core, shutdown: make(chan struct{})}
	if err := a.build(ctx, opts); err != nil {
		core.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(ctx context.Context, opts Options) error {
	cfg := a.Config
	generated, err := a.Auth.EnsureAdmin(ctx, cfg.AdminPassword)
	if err != nil {
		return fmt.Errorf("create first admin: %w", err)
	}
	a.generated = generated
	// Before serving: a search must never take a half-built index for whole.
	if err := a.Index.Ensure(ctx); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	configured, embeddings := cfg.Models, cfg.EmbeddingModels
	if opts.FakeLLM {
		fakes, base, err := startFakeLLM()
		if err != nil {
			return err
		}
		configured = append(fakes, configured...)
		if opts.FakeEmbeddings && len(embeddings) == 0 {
			embeddings = []embed.Config{{ID: "fake-embed", BaseURL: base}}
		}
	}
	base, err := llm.Load(ctx, configured, llm.RegistryOptions{Discover: &llm.DiscoverOptions{}, Recorder: a.Usage})
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	// The admin's models join the config's behind them; every service gets
	// the one live registry, which follows their changes.
	if a.catalog, err = catalog.New(ctx, a.Store, base, cfg.SecretsKey, llm.RegistryOptions{Recorder: a.Usage}); err != nil {
		return fmt.Errorf("admin models: %w", err)
	}
	a.models = a.catalog.Models()
	// Meaning search uses the embedding model in use, which an admin may
	// change on any replica: the embedder then embeds every file again, as
	// a changed model in the config file does at start.
	a.Embedder = search.NewEmbedder(a.Index, a.catalog.Meaning())
	budgets := usage.NewBudgets(a.Store, a.Usage)
	a.Embedder.Budget = budgets
	if err := a.catalog.WithEmbedding(ctx, embeddings, a.Usage.Embedded, a.Embedder.Kick); err != nil {
		return fmt.Errorf("embedding models: %w", err)
	}
	ocr := extract.OCR{Languages: cfg.OCR.Languages, MaxPages: cfg.OCR.MaxPages, PageTimeout: cfg.OCR.PageTimeout,
		MinConfidence: cfg.OCR.MinConfidence, Disabled: !cfg.OCR.On()}
	if st := ocr.Status(); st.Available {
		slog.Info("OCR available", "engine", st.Engine, "languages", st.Languages, "note", st.Hint)
	} else {
		slog.Warn("OCR unavailable: scanned pages and images will have no text", "hint", st.Hint)
	}
	a.extraction = &extract.Isolation{Timeout: cfg.ParseTimeout, MemoryBytes: cfg.ParseMemoryMB << 20,
		CacheDir: filepath.Join(cfg.DataDir, "cache", "pdf-engine"), Limits: extract.Limits{OCR: ocr}}
	skills := &skill.Service{Store: a.Store, Tree: a.Tree, Models: a.models}
	imports := &importer.Service{Store: a.Store, Tree: a.Tree, MaxUpload: cfg.MaxUploadBytes,
		QueuedJobsPerUser: cfg.Limits.QueuedJobsPerUser,
		Limits:            importer.Limits{MaxEntries: cfg.Import.MaxEntries, MaxBytes: cfg.Import.MaxBytes}}
	a.compiler = compile.New(compile.Options{Store: a.Store, Tree: a.Tree, Models: a.models, CLIProfiles: cfg.CLIProfiles, Budget: budgets,
		Extraction: a.extraction, QueuedJobsPerUser: cfg.Limits.QueuedJobsPerUser, Skills: skills,
		Runners: map[string]compile.Runner{importer.Kind: imports}, CLIUser: cfg.CLIUser})
	imports.Notify = a.compiler.Notify
	a.ingester = ingest.New(ingest.Options{Store: a.Store, Tree: a.Tree, Extraction: a.extraction, MaxBytes: cfg.MaxUploadBytes})
	if cfg.Extract.On() {
		// Every replica marks; those with extraction workers take the marks.
		a.Tree.AutoExtract(a.ingester.Notify)
	}
	lim := cfg.Limits
	a.timeouts = httpapi.Timeouts{ReadHeader: lim.ReadHeaderTimeout, Idle: lim.IdleTimeout,
		BodyIdle: lim.BodyIdleTimeout, Body: lim.BodyTimeout, Write: lim.WriteTimeout}
	var conversations *chat.Service
	if cfg.Conversations.Store {
		conversations = &chat.Service{Store: a.Store, Tree: a.Tree}
		// Nothing streams here yet: a turn still streaming that no live
		// replica runs was cut by the previous run of its server.
		// On SQLite this is the only process: nothing streaming is live.
		liveSince := time.Now().Add(-turn.Lease)
		if a.Store.Dialect() == store.DialectSQLite {
			liveSince = time.Now()
		}
		n, err := conversations.Interrupt(ctx, liveSince)
		if err != nil {
			return fmt.Errorf("mark interrupted turns: %w", err)
		}
		if n > 0 {
			slog.Info("marked turns cut by the last stop as interrupted", "count", n)
		}
	}
	// One turn service for every door, so a user's stream limit counts all.
	turns := turn.New(a.Tree, conversations, lim.StreamsPerUser)
	a.turns = turns
	turns.Budget, turns.Shutdown, turns.DetachedTimeout = budgets, a.shutdown, cfg.Turns.DetachedTimeout
	openai := openaiapi.Handler(openaiapi.Deps{Auth: a.Auth, Models: a.models, Turns: turns, Shutdown: a.shutdown})
	a.handler = httpapi.New(httpapi.Deps{Store: a.Store, Auth: a.Auth, Tree: a.Tree, SPA: web.Handler(), Chat: conversations,
		Models: a.models, Catalog: a.catalog, Embedding: a.embedding(), Compile: a.compiler, Import: imports, Workers: cfg.Workers, Skills: skills, Shutdown: a.shutdown,
		Turns: turns, Timeouts: a.timeouts, MaxUploadRequest: cfg.MaxUploadRequestBytes, OCR: ocr, Pages: a.extraction,
		TrustedProxies: cfg.TrustedProxyRanges(), SSO: a.SSO, Usage: a.Usage, Budgets: budgets, Audit: a.Audit, PasswordLoginOff: !cfg.Auth.FormShown(),
		Space: httpapi.Space{DataDir: cfg.DataDir, TempDir: os.TempDir(), MinFree: cfg.MinFreeBytes},
		Mounts: []httpapi.Mount{{Path: mcp.Path, Handler: mcp.New(mcp.Deps{Tree: a.Tree, Auth: a.Auth})},
			{Path: "/v1", Handler: openai},
			{Path: dav.Path, Methods: dav.Methods, Streaming: true, Handler: dav.New(dav.Deps{Tree: a.Tree, Auth: a.Auth, Store: a.Store, MaxUpload: cfg.MaxUploadBytes})}}})
	return nil
}

// embedding is the embedder as the overview reads it: nil without one (an
// interface holding a nil pointer would not be).
func (a *App) embedding() interface{ LastError() string } {
	if a.Embedder == nil {
		return nil
	}
	return a.Embedder
}

// Handler is the whole HTTP surface: the REST API, the doors mounted on it
// and the web app.
func (a *App) Handler() http.Handler { return a.handler }

// Models are the configured models (the fake's first with FakeLLM), then
// the admin's; the registry follows the admin's changes.
func (a *App) Models() *llm.Registry { return a.models }

// GeneratedPassword is the first admin's password when New created the
// admin without a configured one, "" otherwise: it is shown once.
func (a *App) GeneratedPassword() string { return a.generated }
