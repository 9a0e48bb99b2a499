package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/observe"
)

// How long each part of a stop may take before the next goes ahead.
const (
	workerStopTimeout   = 10 * time.Second
	serverStopTimeout   = 15 * time.Second
	metricsCloseTimeout = 5 * time.Second
)

// Start listens on the configured address (and the metrics one), serves,
// and starts housekeeping and the compile and extraction workers; they
// run until ctx ends. Wait then stops them in order.
func (a *App) Start(ctx context.Context) error {
	cfg := a.Config
	a.server = httpapi.NewServer(a.handler, a.timeouts)
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	// The gauges whose truth is in the shared database are read at scrape.
	observe.SetSources(observe.Sources{BlobBytes: a.Store.BlobBytes, JobStates: a.Store.CountJobsByState})
	// The metrics port is the operator's: /readyz there answers in full.
	metrics, err := observe.Listen(cfg.MetricsListen, observe.Route{Pattern: "GET /readyz", Handler: httpapi.ReadyDetails(a.handler)})
	if err != nil {
		ln.Close()
		return err
	}
	a.listener, a.metrics = ln, metrics
	a.served = make(chan error, 1)
	go func() { a.served <- a.server.Serve(ln) }()
	go housekeep(ctx, a.Blobs, a.Tree, cfg.BlobSweepInterval, expireAudit(a.Audit, cfg.Audit.RetentionDays))
	go a.Usage.Run(ctx)
	go a.catalog.Watch(ctx, catalog.PollInterval)
	go warmExtraction(ctx, a.extraction)
	if cfg.Extract.On() {
		go backfillExtractions(ctx, a.Tree)
	}
	if cfg.Workers > 0 {
		a.workers = a.compiler.Start(cfg.Workers)
		slog.Info("compile workers started", "count", cfg.Workers)
	}
	if n := cfg.Extract.WorkerCount(cfg.Workers); n > 0 {
		a.extractors = a.ingester.Start(n)
		slog.Info("extraction workers started", "count", n)
	}
	return nil
}

// Addr is the address the API listens on, once started.
func (a *App) Addr() string { return a.listener.Addr().String() }

// MetricsAddr is the address of the metrics port, "" when there is none.
func (a *App) MetricsAddr() string {
	if a.metrics == nil {
		return ""
	}
	return a.metrics.Addr()
}

// Wait serves until ctx ends, then stops the workers, tells the streams to
// end and shuts the server down. It returns early with the error that
// stopped serving.
func (a *App) Wait(ctx context.Context) error {
	select {
	case err := <-a.served:
		return err
	case <-ctx.Done():
	}
	slog.Info("shutting down")
	if a.extractors != nil {
		stopCtx, cancelStop := context.WithTimeout(context.Background(), workerStopTimeout)
		if err := a.extractors.Stop(stopCtx); err != nil {
			slog.Warn("stop extraction workers", "err", err)
		}
		cancelStop()
	}
	if a.workers != nil {
		// Running jobs are interrupted and their leases released, so another
		// replica or the next start picks them up at once.
		stopCtx, cancelStop := context.WithTimeout(context.Background(), workerStopTimeout)
		if err := a.workers.Stop(stopCtx); err != nil {
			slog.Warn("stop compile workers", "err", err)
		}
		cancelStop()
	}
	// Shutdown does not end long-lived requests: streams are told first.
	close(a.shutdown)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), serverStopTimeout)
	defer cancel()
	// A stream's connection may be its turn's, not the server's: the turns
	// end (their answers kept) before anything closes under them.
	if err := a.turns.Drain(shutdownCtx); err != nil {
		slog.Warn("turns still running at the stop", "err", err)
	}
	err := a.server.Shutdown(shutdownCtx)
	// The streams just ended recorded their calls after Run stopped.
	a.Usage.Flush(shutdownCtx)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close closes the metrics port, the blobs and the database.
func (a *App) Close() {
	if a.metrics != nil {
		closeCtx, cancel := context.WithTimeout(context.Background(), metricsCloseTimeout)
		_ = a.metrics.Close(closeCtx)
		cancel()
	}
	a.Core.Close()
}
