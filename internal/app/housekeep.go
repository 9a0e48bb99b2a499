package app

import (
	"context"
	"log/slog"
	"os"
	"time"

	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/scratch"
)

// Housekeeping periods. The staging sweep runs hourly: it removes what
// crashed processes (another replica's) staged; the first orphan sweep
// runs a minute after start so it never slows start-up.
const (
	stagingSweepInterval = time.Hour
	firstBlobSweep       = time.Minute
	// blobSweepGrace spares blobs committed moments ago: not needed for
	// safety (see knowledge/blobgc.go), it only avoids checking fresh bytes.
	blobSweepGrace = 10 * time.Minute
)

// housekeep sweeps staging leftovers, expired trash and audit events, and
// orphaned blobs until ctx ends.
func housekeep(ctx context.Context, blobs *blob.Store, tree *knowledge.Tree, blobInterval time.Duration, expireAudit func(context.Context)) {
	staging := time.NewTicker(stagingSweepInterval)
	defer staging.Stop()
	orphans := time.NewTimer(firstBlobSweep)
	defer orphans.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-staging.C:
			LogLeftovers(blobs.CleanStaging(blob.StagingMaxAge))
			if n, err := trash.New(tree).ExpireTrash(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("trash expiry", "err", err)
			} else if n > 0 {
				slog.Info("trash expiry purged items", "count", n)
			}
			expireAudit(ctx)
		case <-orphans.C:
			n, err := tree.SweepBlobs(ctx, blobSweepGrace)
			switch {
			case err != nil && ctx.Err() == nil:
				slog.Warn("blob sweep", "err", err)
			case n > 0:
				slog.Info("blob sweep removed orphaned blobs", "count", n)
			}
			orphans.Reset(blobInterval)
		}
	}
}

// expireAudit is the sweep of the audit events older than days.
func expireAudit(rec *audit.Recorder, days int) func(context.Context) {
	return func(ctx context.Context) {
		n, err := rec.Expire(ctx, time.Duration(days)*24*time.Hour)
		switch {
		case err != nil && ctx.Err() == nil:
			slog.Warn("audit retention", "err", err)
		case n > 0:
			slog.Info("audit retention removed old events", "count", n)
		}
	}
}

// LogLeftovers says what a sweep of crash leftovers removed, and why it
// stopped early.
func LogLeftovers(removed []scratch.Leftover, err error) {
	for _, l := range removed {
		slog.Info("removed a crashed process's leftovers", "path", l.Path, "bytes", l.Bytes)
	}
	if err != nil {
		slog.Warn("sweep crash leftovers", "err", err)
	}
}

// backfillExtractions marks, once per database, the documents stored
// before automatic extraction, so an upgraded server gives them text too.
func backfillExtractions(ctx context.Context, tree *knowledge.Tree) {
	n, err := tree.BackfillExtractions(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		slog.Warn("marking older documents for extraction failed; the next start tries again", "err", err)
	case n > 0:
		slog.Info("older documents marked for extraction", "count", n)
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
