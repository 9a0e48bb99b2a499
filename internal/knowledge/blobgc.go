package knowledge

import (
	"context"
	"log/slog"
	"time"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// Blob references keep one invariant: a node the database shows can always
// be read. Blobs are shared by content across files and users, so two
// operations on the same hash must never interleave:
//
//   - adding a reference: lock the hash, put the bytes in place, insert the
//     row, commit (commitBlobs, inside the writing transaction);
//   - removing the last one: lock the hash, see that no row references it,
//     remove the bytes, commit (FreeBlobs).
//
// store.LockBlobs makes the two mutually exclusive across processes sharing
// the database, so either the collection sees the new row and keeps the
// bytes, or the upload runs after it and puts them back. No grace period is
// needed for safety; the sweep's grace only spares work.

// CommitBlobs locks the hashes of ps and makes their bytes visible; it runs
// in the transaction that inserts the rows naming them.
func CommitBlobs(ctx context.Context, tx *store.Store, ps ...*blob.Pending) error {
	hashes := make([]string, len(ps))
	for i, p := range ps {
		hashes[i] = p.Hash
	}
	if err := tx.LockBlobs(ctx, hashes); err != nil {
		return err
	}
	for _, p := range ps {
		if err := p.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// FreeBlobs removes the bytes of those hashes nothing references any more
// and reports how many it removed.
func (t *Tree) FreeBlobs(ctx context.Context, hashes []string) (int, error) {
	if len(hashes) == 0 {
		return 0, nil
	}
	removed := 0
	err := t.st.InTx(ctx, func(tx *store.Store) error {
		removed = 0
		if err := tx.LockBlobs(ctx, hashes); err != nil {
			return err
		}
		used, err := tx.BlobsInUse(ctx, hashes)
		if err != nil {
			return err
		}
		for _, h := range hashes {
			if used[h] || !t.blobs.Exists(h) {
				continue
			}
			if err := t.blobs.Remove(h); err != nil {
				slog.Warn("remove blob", "hash", h, "err", err)
				continue
			}
			removed++
		}
		return nil
	})
	return removed, err
}

// FreeBlobsBestEffort is FreeBlobs after a request's own work is done: a failure only
// leaves bytes to the periodic sweep.
func (t *Tree) FreeBlobsBestEffort(ctx context.Context, hashes []string) {
	if _, err := t.FreeBlobs(context.WithoutCancel(ctx), hashes); err != nil {
		slog.Warn("free blobs", "err", err)
	}
}

// SweepBlobs removes every unreferenced blob older than grace.
func (t *Tree) SweepBlobs(ctx context.Context, grace time.Duration) (int, error) {
	n, err := t.blobs.Sweep(ctx, grace, t.FreeBlobs)
	observe.BlobSweep(n, err)
	return n, err
}
