// Command knowspace serves the Knowspace API and web app, runs migrations at
// start, and offers operator subcommands (knowspace user add|passwd|list).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/dav"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/importer"
	"github.com/knowspace/knowspace/internal/ingest"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/mcp"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/openaiapi"
	"github.com/knowspace/knowspace/internal/scratch"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/turn"
	"github.com/knowspace/knowspace/web"
)

func main() {
	// Until the configuration names log_format and log_level.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	fs := flag.NewFlagSet("knowspace", flag.ExitOnError)
	configPath := fs.String("config", "", "YAML configuration file (or KB_CONFIG)")
	fs.Usage = usage
	_ = fs.Parse(os.Args[1:])
	args := fs.Args()

	var err error
	switch {
	case len(args) == 0 || args[0] == "serve":
		err = serve(*configPath)
	case args[0] == "extract" && extract.IsChild():
		os.Exit(extract.ChildMain())
	case args[0] == "user":
		err = userCommand(*configPath, args[1:])
	case args[0] == "backup":
		err = backupCommand(*configPath, args[1:])
	case args[0] == "restore":
		err = restoreCommand(*configPath, args[1:])
	case args[0] == "fsck":
		err = fsckCommand(*configPath)
	case args[0] == "reindex":
		err = reindexCommand(*configPath)
	case args[0] == "probe":
		err = probeCommand(*configPath, args[1:])
	default:
		usage()
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "knowspace:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: knowspace [--config file] [serve]
       knowspace [--config file] user add <name> [--role admin|user]
       knowspace [--config file] user passwd <name>
       knowspace [--config file] user list
       knowspace [--config file] backup --out FILE
       knowspace [--config file] restore --from FILE [--replace]
       knowspace [--config file] fsck
       knowspace [--config file] reindex
       knowspace [--config file] probe [/readyz|/healthz]
`)
}

// app is what both the server and the operator commands need.
type app struct {
	cfg   config.Config
	store *store.Store
	blobs *blob.Store
	tree  *knowledge.Tree
	index *search.Index
	auth  *auth.Service
}

func open(ctx context.Context, configPath string) (*app, error) {
	cfg, err := config.Load(configPath, os.Getenv)
	if err != nil {
		return nil, err
	}
	level, _ := observe.ParseLevel(cfg.LogLevel) // validated by Load
	if err := observe.SetupLogging(cfg.LogFormat, level, os.Stderr); err != nil {
		return nil, err
	}
	// Everything under the data dir is the server's alone (0700/0600).
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	if err := os.Chmod(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	if err := recoverSwap(cfg.DataDir); err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, cfg.DatabaseDSN, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	blobs, err := openBlobs(ctx, cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	logLeftovers(blobs.CleanStaging(blob.StagingMaxAge))
	logLeftovers(scratch.Sweep(cfg.DataDir, backupPrefix))
	logLeftovers(scratch.Sweep(cfg.DataDir, restorePrefix))
	tree := knowledge.NewTree(st, blobs, cfg.MaxUploadBytes)
	tree.SetTrashTTL(time.Duration(cfg.TrashDays) * 24 * time.Hour)
	index := search.NewIndex(st, blobs, tree)
	secret, err := auth.LoadOrCreateSecret(cfg.JWTSecret, cfg.DataDir)
	if err != nil {
		st.Close()
		return nil, err
	}
	svc, err := auth.New(st, tree, auth.Options{Secret: secret, TTL: cfg.SessionTTL, MaxTTL: cfg.SessionMaxTTL, BcryptCost: bcrypt.DefaultCost,
		LoginsPerSecond: cfg.Limits.LoginsPerSecond})
	if err != nil {
		st.Close()
		return nil, err
	}
	return &app{cfg: cfg, store: st, blobs: blobs, tree: tree, index: index, auth: svc}, nil
}

func serve(configPath string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.store.Close()
	defer a.blobs.Close()
	// Before any CLI program can start: they must not read our memory.
	if err := compile.ProtectServer(); err != nil {
		slog.Warn("could not make the server undumpable; CLI programs running as its user can read its secrets", "err", err)
	}

	generated, err := a.auth.EnsureAdmin(ctx, a.cfg.AdminPassword)
	if err != nil {
		return fmt.Errorf("create first admin: %w", err)
	}
	// Before serving: a search must never take a half-built index for whole.
	if err := a.index.Ensure(ctx); err != nil {
		return fmt.Errorf("search index: %w", err)
	}

	configured := a.cfg.Models
	if os.Getenv("KB_FAKE_LLM") == "1" {
		fakes, err := startFakeLLM()
		if err != nil {
			return err
		}
		configured = append(fakes, configured...)
	}
	models, err := llm.Load(ctx, configured, llm.RegistryOptions{Discover: &llm.DiscoverOptions{}})
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	ocr := extract.OCR{Languages: a.cfg.OCR.Languages, MaxPages: a.cfg.OCR.MaxPages, PageTimeout: a.cfg.OCR.PageTimeout,
		MinConfidence: a.cfg.OCR.MinConfidence, Disabled: !a.cfg.OCR.On()}
	if st := ocr.Status(); st.Available {
		slog.Info("OCR available", "engine", st.Engine, "languages", st.Languages, "note", st.Hint)
	} else {
		slog.Warn("OCR unavailable: scanned pages and images will have no text", "hint", st.Hint)
	}
	extraction := &extract.Isolation{Timeout: a.cfg.ParseTimeout, MemoryBytes: a.cfg.ParseMemoryMB << 20,
		CacheDir: filepath.Join(a.cfg.DataDir, "cache", "pdf-engine"), Limits: extract.Limits{OCR: ocr}}
	skills := &skill.Service{Store: a.store, Tree: a.tree, Models: models}
	imports := &importer.Service{Store: a.store, Tree: a.tree, MaxUpload: a.cfg.MaxUploadBytes,
		QueuedJobsPerUser: a.cfg.Limits.QueuedJobsPerUser,
		Limits:            importer.Limits{MaxEntries: a.cfg.Import.MaxEntries, MaxBytes: a.cfg.Import.MaxBytes}}
	compiler := compile.New(compile.Options{Store: a.store, Tree: a.tree, Models: models, CLIProfiles: a.cfg.CLIProfiles,
		Extraction: extraction, QueuedJobsPerUser: a.cfg.Limits.QueuedJobsPerUser, Skills: skills,
		Runners: map[string]compile.Runner{importer.Kind: imports}, CLIUser: a.cfg.CLIUser})
	imports.Notify = compiler.Notify
	ingester := ingest.New(ingest.Options{Store: a.store, Tree: a.tree, Extraction: extraction, MaxBytes: a.cfg.MaxUploadBytes})
	if a.cfg.Extract.On() {
		// Every replica marks; those with extraction workers take the marks.
		a.tree.AutoExtract(ingester.Notify)
	}
	shutdown := make(chan struct{})
	lim := a.cfg.Limits
	timeouts := httpapi.Timeouts{ReadHeader: lim.ReadHeaderTimeout, Idle: lim.IdleTimeout,
		BodyIdle: lim.BodyIdleTimeout, Body: lim.BodyTimeout, Write: lim.WriteTimeout}
	var conversations *chat.Service
	if a.cfg.Conversations.Store {
		conversations = &chat.Service{Store: a.store, Tree: a.tree}
		// Nothing streams yet: a turn still streaming was cut by the
		// previous run of the server.
		n, err := conversations.Interrupt(ctx)
		if err != nil {
			return fmt.Errorf("mark interrupted turns: %w", err)
		}
		if n > 0 {
			slog.Info("marked turns cut by the last stop as interrupted", "count", n)
		}
	}
	// One turn service for every door, so a user's stream limit counts all.
	turns := turn.New(a.tree, conversations, lim.StreamsPerUser)
	openai := openaiapi.Handler(openaiapi.Deps{Auth: a.auth, Models: models, Turns: turns, Shutdown: shutdown})
	e := httpapi.New(httpapi.Deps{Store: a.store, Auth: a.auth, Tree: a.tree, SPA: web.Handler(), Chat: conversations,
		Models: models, Compile: compiler, Import: imports, Workers: a.cfg.Workers, Skills: skills, Shutdown: shutdown,
		Turns: turns, Timeouts: timeouts, MaxUploadRequest: a.cfg.MaxUploadRequestBytes, OCR: ocr, Pages: extraction,
		TrustedProxies: a.cfg.TrustedProxyRanges(),
		Space:          httpapi.Space{DataDir: a.cfg.DataDir, TempDir: os.TempDir(), MinFree: a.cfg.MinFreeBytes},
		Mounts: []httpapi.Mount{{Path: mcp.Path, Handler: mcp.New(mcp.Deps{Tree: a.tree, Auth: a.auth})},
			{Path: "/v1", Handler: openai},
			{Path: dav.Path, Methods: dav.Methods, Streaming: true, Handler: dav.New(dav.Deps{Tree: a.tree, Auth: a.auth, Store: a.store, MaxUpload: a.cfg.MaxUploadBytes})}}})
	srv := httpapi.NewServer(e, timeouts)
	ln, err := net.Listen("tcp", a.cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.Listen, err)
	}
	// The gauges whose truth is in the shared database are read at scrape.
	observe.SetSources(observe.Sources{BlobBytes: a.store.BlobBytes, JobStates: a.store.CountJobsByState})
	// The metrics port is the operator's: /readyz there answers in full.
	metrics, err := observe.Listen(a.cfg.MetricsListen, observe.Route{Pattern: "GET /readyz", Handler: httpapi.ReadyDetails(e)})
	if err != nil {
		ln.Close()
		return err
	}
	metricsAddr := ""
	if metrics != nil {
		metricsAddr = metrics.Addr()
		defer func() {
			closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = metrics.Close(closeCtx)
		}()
	}
	announce(ln.Addr().String(), a.store.Dialect(), generated, models, metricsAddr)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	go housekeep(ctx, a.blobs, a.tree, a.cfg.BlobSweepInterval)
	go warmExtraction(ctx, extraction)
	if a.cfg.Extract.On() {
		go backfillExtractions(ctx, a.tree)
	}
	var workers *compile.Pool
	if a.cfg.Workers > 0 {
		workers = compiler.Start(a.cfg.Workers)
		slog.Info("compile workers started", "count", a.cfg.Workers)
	}
	var extractors *ingest.Pool
	if n := a.cfg.Extract.WorkerCount(a.cfg.Workers); n > 0 {
		extractors = ingester.Start(n)
		slog.Info("extraction workers started", "count", n)
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	if extractors != nil {
		stopCtx, cancelStop := context.WithTimeout(context.Background(), 10*time.Second)
		if err := extractors.Stop(stopCtx); err != nil {
			slog.Warn("stop extraction workers", "err", err)
		}
		cancelStop()
	}
	if workers != nil {
		// Running jobs are interrupted and their leases released, so another
		// replica or the next start picks them up at once.
		stopCtx, cancelStop := context.WithTimeout(context.Background(), 10*time.Second)
		if err := workers.Stop(stopCtx); err != nil {
			slog.Warn("stop compile workers", "err", err)
		}
		cancelStop()
	}
	// Shutdown does not end long-lived requests: streams are told first.
	close(shutdown)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func announce(addr, dialect, generatedPassword string, models *llm.Registry, metricsAddr string) {
	host, port, _ := net.SplitHostPort(addr)
	if host == "" || host == "::" || host == "0.0.0.0" {
		host = "localhost"
	}
	fmt.Printf("\nKnowspace is running at http://%s\n", net.JoinHostPort(host, port))
	fmt.Printf("Database: %s\n", dialect)
	if metricsAddr != "" {
		fmt.Printf("Metrics: http://%s/metrics\n", metricsAddr)
	}
	if models.Len() == 0 {
		fmt.Println("Models: none configured, so KnowAgent chat is off (browsing and commands work). Add models: to the config file, set OPENAI_API_KEY / DEEPSEEK_API_KEY / DASHSCOPE_API_KEY / GEMINI_API_KEY, or try the built-in fake with KB_FAKE_LLM=1.")
	} else {
		var ids []string
		for _, m := range models.Options() {
			ids = append(ids, m.ID)
		}
		fmt.Printf("Models: %s\n", strings.Join(ids, ", "))
	}
	if generatedPassword != "" {
		fmt.Printf("First login: admin / %s   (shown once; change it with `knowspace user passwd admin`)\n\n", generatedPassword)
	} else {
		fmt.Printf("Sign in as admin (password from KB_ADMIN_PASSWORD or printed at first start; reset with `knowspace user passwd admin`)\n\n")
	}
}

// warmExtraction compiles the PDF engine into its cache once, in a child,
// so the first PDF a user compiles does not pay for it.
func warmExtraction(ctx context.Context, iso *extract.Isolation) {
	if err := os.MkdirAll(iso.CacheDir, 0o700); err != nil {
		slog.Warn("PDF engine cache", "dir", iso.CacheDir, "err", err)
		return
	}
	start := time.Now()
	if err := iso.Warm(ctx); err != nil && ctx.Err() == nil {
		slog.Warn("PDF engine did not start; PDFs will fail to parse", "err", err)
		return
	}
	slog.Debug("PDF engine ready", "took", time.Since(start).Round(time.Millisecond))
}
