package importer

import (
	"context"
	"errors"
	"io"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// keepArchive streams an archive into the blob store, which every replica
// reads, and runs enqueue in the transaction that makes its bytes visible:
// the job enqueue inserts names the hash (store.Job.BlobHash), which keeps
// the bytes from the blob collection until the job ends.
func (s *Service) keepArchive(ctx context.Context, name string, r io.Reader, limit int64, enqueue func(tx *store.Store, hash string, size int64) error) error {
	p, err := s.Tree.Blobs().Put(r, limit)
	if errors.Is(err, blob.ErrTooLarge) {
		return apierr.TooLarge(apierr.CodeFileTooLarge, "%s is larger than the import limit of %d bytes", kb.Clip(name, 60), limit).WithDetail("file", kb.Clip(name, 60)).WithDetail("limit_bytes", limit)
	}
	if err != nil {
		return apierr.BadRequest(apierr.CodeUploadFailed, "reading %s failed; nothing was stored", kb.Clip(name, 60)).WithCause(err)
	}
	defer p.Abort() // a no-op once committed
	err = s.Tree.Store().InTx(ctx, func(tx *store.Store) error {
		if err := knowledge.CommitBlobs(ctx, tx, p); err != nil {
			return err
		}
		return enqueue(tx, p.Hash, p.Size)
	})
	if err != nil {
		s.Tree.FreeBlobsBestEffort(ctx, []string{p.Hash})
		return err
	}
	return nil
}
