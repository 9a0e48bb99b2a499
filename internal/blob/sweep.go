package blob

import (
	"context"
	"os"
	"path/filepath"
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
	err := filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".idx") || strings.HasSuffix(p, ".tmp") {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if info, err := d.Info(); err != nil || time.Since(info.ModTime()) < grace {
			return nil
		}
		batch = append(batch, d.Name())
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
	err := filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".idx") || strings.HasSuffix(p, ".tmp") {
			return err
		}
		out = append(out, d.Name())
		return nil
	})
	return out, err
}
