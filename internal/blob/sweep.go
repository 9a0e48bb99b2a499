package blob

import (
	"context"
	"path"
	"strings"
	"time"
)

// sweepBatch is how many hashes one collection step handles.
const sweepBatch = 500

// Sweep offers every stored blob older than grace to free, a batch at a
// time; free removes those nothing references (under their locks) and says
// how many it removed. Orphans are bytes left by a crash between a blob's
// commit and its row's, or by a removal that failed.
func (s *Store) Sweep(ctx context.Context, grace time.Duration, free func(context.Context, []string) (int, error)) (int, error) {
	var (
		batch   []string
		removed int
	)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		n, err := free(ctx, batch)
		removed += n
		batch = batch[:0]
		return err
	}
	err := s.b.List(ctx, func(key string, info ObjectInfo) error {
		if !isBlobKey(key) || time.Since(info.ModTime) < grace {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		batch = append(batch, path.Base(key))
		if len(batch) == sweepBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return removed, err
	}
	return removed, flush()
}

// Hashes lists every stored blob (fsck).
func (s *Store) Hashes() ([]string, error) {
	var out []string
	err := s.b.List(context.Background(), func(key string, _ ObjectInfo) error {
		if isBlobKey(key) {
			out = append(out, path.Base(key))
		}
		return nil
	})
	return out, err
}

// isBlobKey leaves out index files and the disk's half-written ones.
func isBlobKey(key string) bool {
	return !strings.HasSuffix(key, ".idx") && !strings.HasSuffix(key, ".tmp")
}
