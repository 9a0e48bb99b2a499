// Command knowspace serves the Knowspace API and web app, runs migrations at
// start, and offers operator subcommands (knowspace user add|passwd|list,
// backup, restore, fsck, reindex, probe, eval-search, secrets rotate).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/scratch"
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
	case args[0] == "eval-search":
		err = evalSearchCommand(*configPath, args[1:])
	case args[0] == "secrets":
		err = secretsCommand(*configPath, args[1:])
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
       knowspace [--config file] eval-search --questions FILE.jsonl --uri kb://… [--user NAME] [--modes literal,ranked] [--json]
       knowspace [--config file] secrets rotate   (the new key in KB_NEW_SECRETS_KEY)
`)
}

// loadConfig reads the config and sets up logging as it asks.
func loadConfig(configPath string) (config.Config, error) {
	cfg, err := config.Load(configPath, os.Getenv)
	if err != nil {
		return cfg, err
	}
	level, _ := observe.ParseLevel(cfg.LogLevel) // validated by Load
	if err := observe.SetupLogging(cfg.LogFormat, level, os.Stderr); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// open is the core every operator command works on, opened as the server
// opens it.
func open(ctx context.Context, configPath string) (*app.Core, error) {
	cfg, err := loadConfig(configPath)
	if err != nil {
		return nil, err
	}
	if err := repairDataDir(cfg.DataDir); err != nil {
		return nil, err
	}
	return app.Open(ctx, cfg)
}

// repairDataDir puts back what an interrupted restore moved and removes
// what crashed backups and restores left, before anything opens the data.
func repairDataDir(dataDir string) error {
	if err := recoverSwap(dataDir); err != nil {
		return err
	}
	app.LogLeftovers(scratch.Sweep(dataDir, backupPrefix))
	app.LogLeftovers(scratch.Sweep(dataDir, restorePrefix))
	return nil
}

func serve(configPath string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := loadConfig(configPath)
	if err != nil {
		return err
	}
	if err := repairDataDir(cfg.DataDir); err != nil {
		return err
	}
	// Before any CLI program can start: they must not read our memory.
	if err := compile.ProtectServer(); err != nil {
		slog.Warn("could not make the server undumpable; CLI programs running as its user can read its secrets", "err", err)
	}
	a, err := app.New(ctx, cfg, app.Options{FakeLLM: os.Getenv("KB_FAKE_LLM") == "1", FakeEmbeddings: os.Getenv("KB_FAKE_EMBEDDINGS") == "1"})
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.Start(ctx); err != nil {
		return err
	}
	announce(a.Addr(), a.Store.Dialect(), a.GeneratedPassword(), a.Models(), a.MetricsAddr())
	return a.Wait(ctx)
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
