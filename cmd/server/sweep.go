package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/store"
)

// blobSweepInterval spaces the collections of orphaned blobs; the first runs
// a minute after start so it never slows start-up.
const blobSweepInterval = 6 * time.Hour

func sweepBlobs(ctx context.Context, blobs *blob.Store, st *store.Store) {
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		n, err := blobs.Sweep(ctx, st.BlobsInUse)
		switch {
		case err != nil && ctx.Err() == nil:
			slog.Warn("blob sweep", "err", err)
		case n > 0:
			slog.Info("blob sweep removed orphaned blobs", "count", n)
		}
		timer.Reset(blobSweepInterval)
	}
}
