package knowledge

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// KeepArchive streams an archive into the blob store, which every replica
// reads, and runs enqueue in the transaction that makes its bytes visible:
// the job enqueue inserts names the hash (store.Job.BlobHash), which keeps
// the bytes from the blob collection until the job ends.
func (t *Tree) KeepArchive(ctx context.Context, name string, r io.Reader, limit int64, enqueue func(tx *store.Store, hash string, size int64) error) error {
	p, err := t.blobs.Put(r, limit)
	if errors.Is(err, blob.ErrTooLarge) {
		return apierr.TooLarge(apierr.CodeFileTooLarge, "%s is larger than the import limit of %d bytes", kb.Clip(name, 60), limit)
	}
	if err != nil {
		return apierr.BadRequest(apierr.CodeUploadFailed, "reading %s failed; nothing was stored", kb.Clip(name, 60)).WithCause(err)
	}
	defer p.Abort() // a no-op once committed
	err = t.st.InTx(ctx, func(tx *store.Store) error {
		if err := commitBlobs(ctx, tx, p); err != nil {
			return err
		}
		return enqueue(tx, p.Hash, p.Size)
	})
	if err != nil {
		t.freeBlobs(ctx, []string{p.Hash})
		return err
	}
	return nil
}

// OpenArchive opens an archive KeepArchive kept.
func (t *Tree) OpenArchive(hash string) (blob.File, error) { return t.blobs.Open(hash) }

// DropArchive frees a kept archive once its job ended for good (unless a
// file or another waiting job holds the same bytes).
func (t *Tree) DropArchive(ctx context.Context, hash string) { t.freeBlobs(ctx, []string{hash}) }

// OpenStagedArchive opens an archive a job queued before KeepArchive
// existed left in one replica's staging directory.
func (t *Tree) OpenStagedArchive(staged string) (*os.File, error) { return t.blobs.OpenStaged(staged) }

// DropStagedArchive discards it once its import ended for good.
func (t *Tree) DropStagedArchive(staged string) { t.blobs.RemoveStaged(staged) }

// Import is a folder import's commit.
type Import struct {
	Target     string // folder URI the import lands in
	Top        string // a new folder below Target holding everything; "" for none
	Dirs       [][]string
	Files      []Staged
	OnConflict string
	// Guard runs first inside the transaction and Done last, with the
	// items the commit made; an error of either aborts it.
	Guard func(tx *store.Store) error
	Done  func(tx *store.Store, items []Item) error
}

// CommitImport publishes a whole imported tree in one transaction: the
// folder appears complete or not at all. Files are consumed like an
// upload's.
func (t *Tree) CommitImport(ctx context.Context, c kb.Caller, im Import) ([]Item, error) {
	return t.commitStaged(ctx, c, im.Target, im.Files, im.OnConflict, commitExtra{top: im.Top, dirs: im.Dirs, guard: im.Guard, done: im.Done})
}

// createTop makes the import's own folder, refusing a name already taken.
func createTop(ctx context.Context, tx *store.Store, own kb.Caller, parent store.Node, name string) (store.Node, error) {
	p := parent.ChildPath(name)
	n, err := tx.NodeByPath(ctx, own.ID, p)
	switch {
	case err == nil:
		return store.Node{}, apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists; import into it with into=, or rename the archive",
			kb.NodeURI(own.Username, p, n.IsDir())).WithDetail("existing", itemOf(own.Username, n))
	case !errors.Is(err, store.ErrNotFound):
		return store.Node{}, err
	}
	n = store.Node{UserID: own.ID, ParentID: &parent.ID, Name: name, Path: p, Kind: store.KindDir}
	if err := tx.CreateNode(ctx, &n); err != nil {
		return store.Node{}, err
	}
	return n, nil
}
