package main

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// reindexCommand rebuilds the search index from the stored text bodies and
// waits until the index holds them all; running servers read the files in
// full until then.
func reindexCommand(configPath string) error {
	ctx := context.Background()
	a, err := open(ctx, configPath)
	if err != nil {
		return err
	}
	defer a.Store.Close()
	start := time.Now()
	files, err := a.Index.Reindex(ctx)
	if err != nil {
		return err
	}
	if err := a.Index.WaitIndexed(ctx); err != nil {
		return err
	}
	left, err := a.Store.PendingSearchDocs(ctx, 1)
	if err != nil {
		return err
	}
	if len(left) > 0 {
		return fmt.Errorf("the index writer stopped with files still pending; see the warnings above")
	}
	slog.Info("search index: ready", "files", files, "took", time.Since(start).Round(time.Millisecond))
	return nil
}
