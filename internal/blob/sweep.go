package blob

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// sweepBatch is how many hashes one reference check asks about.
const sweepBatch = 500

// Sweep removes blobs that no row references and that are older than the
// grace period: bytes left by a crash between a blob's rename and its row's
// commit. inUse answers for a batch of hashes. It returns how many blobs it
// removed.
func (s *Store) Sweep(ctx context.Context, inUse func(context.Context, []string) (map[string]bool, error)) (int, error) {
	var (
		batch   []string
		removed int
	)
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		used, err := inUse(ctx, batch)
		if err != nil {
			return err
		}
		for _, h := range batch {
			if !used[h] && s.Remove(h) == nil {
				if _, err := os.Stat(s.path(h)); os.IsNotExist(err) {
					removed++
				}
			}
		}
		batch = batch[:0]
		return nil
	}
	err := filepath.WalkDir(s.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".idx") || strings.HasSuffix(p, ".tmp") {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if info, err := d.Info(); err != nil || time.Since(info.ModTime()) < gcGrace {
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
