package knowledge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// ErrOutputTaken means a generated file would replace a file the user
// uploaded or a folder; publishing never overwrites user content.
var ErrOutputTaken = errors.New("output path is taken by a file that is not generated")

// GeneratedFile is one compile artifact to publish: its name inside the
// output folder, its full text, and its provenance (NodeID is filled in).
type GeneratedFile struct {
	Name       string
	Text       string
	Provenance store.Provenance
}

// stageText writes text to the blob staging area; the transaction that
// adds its row commits it (commitBlobs) and the caller aborts it after.
func (t *Tree) stageText(text string) (*blob.Pending, error) {
	return t.blobs.Put(strings.NewReader(text), int64(len(text))+1)
}

// stageTextLater is stageText for an upload's decoded texts, which its
// commit flushes with its files (blob.PutLater).
func (t *Tree) stageTextLater(text string) (*blob.Pending, error) {
	return t.blobs.PutLater(strings.NewReader(text), int64(len(text))+1)
}

// SaveL2 stores an extraction of the raw version source as the file's next
// L2 body unless the latest one has the same text and source, and returns
// the L2 version in place with whether it was added. The version is
// committed on its own, so it stays readable whatever later compile steps
// do.
func (t *Tree) SaveL2(ctx context.Context, n store.Node, res extract.Result, source store.FileVersion) (store.FileVersion, bool, error) {
	p, err := t.stageText(res.Text)
	if err != nil {
		return store.FileVersion{}, false, fmt.Errorf("stage l2 of %s: %w", n.Path, err)
	}
	defer p.Abort()
	info := p.Info
	var v store.FileVersion
	added := false
	err = t.inTx(ctx, func(tx *store.Store) error {
		added = false
		last, err := tx.LatestVersion(ctx, n.ID, store.BodyL2)
		if err == nil && last.BlobHash == info.Hash && last.SourceVersionID != nil && *last.SourceVersionID == source.ID {
			v = last
			return nil
		}
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		added = true
		if err := CommitBlobs(ctx, tx, p); err != nil {
			return err
		}
		v = *l2Version(n, info, res, source)
		if err := tx.AddVersion(ctx, &v); err != nil {
			return err
		}
		_, err = t.MarkForIndex(ctx, tx, n.ID)
		return err
	})
	if err != nil {
		return store.FileVersion{}, false, fmt.Errorf("save l2 of %s: %w", n.Path, err)
	}
	return v, added, nil
}

// l2Version is the L2 body of n holding res's text (staged as info),
// extracted from upload source; it says how the text was made.
func l2Version(n store.Node, info blob.Info, res extract.Result, source store.FileVersion) *store.FileVersion {
	meta := res
	meta.Text, meta.PageStarts = "", nil
	b, _ := json.Marshal(meta)
	how := string(b)
	starts := make([]store.PageStart, len(res.PageStarts))
	for i, ps := range res.PageStarts {
		starts[i] = store.PageStart{Page: ps.Page, Offset: ps.Offset}
	}
	return &store.FileVersion{NodeID: n.ID, Body: store.BodyL2, BlobHash: info.Hash,
		Size: info.Size, IsText: true, CharCount: info.Chars, MediaType: "text/plain; charset=utf-8",
		SourceVersionID: &source.ID, ExtractionJSON: &how, PageStarts: store.EncodePageStarts(starts)}
}

// Publish writes files into the caller's folder at folderPath (created, and
// marked generated, when missing) in one transaction: readers see all the
// old versions or all the new ones. Existing generated files get a new
// version; a user's own file or folder of the same name refuses the whole
// publish with ErrOutputTaken. guard runs first inside the transaction; its
// error aborts the publish (the compile worker checks its lease there).
func (t *Tree) Publish(ctx context.Context, c kb.Caller, folderPath string, files []GeneratedFile, guard func(*store.Store) error) ([]store.Node, error) {
	infos := make([]blob.Info, len(files))
	pending := make([]*blob.Pending, 0, len(files))
	defer func() {
		for _, p := range pending {
			p.Abort()
		}
	}()
	for i, f := range files {
		p, err := t.stageText(f.Text)
		if err != nil {
			return nil, fmt.Errorf("stage %s: %w", f.Name, err)
		}
		pending = append(pending, p)
		infos[i] = p.Info
	}
	var out []store.Node
	publish := func(tx *store.Store) error {
		out = out[:0]
		if err := tx.LockTree(ctx, c.ID); err != nil {
			return err
		}
		if guard != nil {
			if err := guard(tx); err != nil {
				return err
			}
		}
		if err := CommitBlobs(ctx, tx, pending...); err != nil {
			return err
		}
		dir, err := ensureFolder(ctx, tx, c, folderPath)
		if err != nil {
			return err
		}
		for i, f := range files {
			n, err := putGenerated(ctx, tx, c, dir, f.Name, infos[i])
			if err != nil {
				return err
			}
			p := f.Provenance
			p.NodeID, p.UserID = n.ID, c.ID
			if err := tx.PutProvenance(ctx, &p); err != nil {
				return err
			}
			if _, err := t.MarkForIndex(ctx, tx, n.ID); err != nil {
				return err
			}
			out = append(out, n)
		}
		return nil
	}
	var err error
	// Two jobs of one folder may create its folder or its overview at the
	// same moment (PostgreSQL runs them in parallel): the loser of the
	// unique constraint tries again and then sees the winner's rows.
	for range 3 {
		if err = t.inTx(ctx, publish); !errors.Is(err, store.ErrConflict) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ensureFolder returns the folder at path, creating missing folders below
// the root as generated ones.
func ensureFolder(ctx context.Context, tx *store.Store, c kb.Caller, path string) (store.Node, error) {
	dir, err := tx.EnsureRoot(ctx, c.ID)
	if err != nil || path == "" {
		return dir, err
	}
	for _, name := range strings.Split(path, "/") {
		p := dir.ChildPath(name)
		n, err := tx.NodeByPath(ctx, c.ID, p)
		switch {
		case errors.Is(err, store.ErrNotFound):
			n = store.Node{UserID: c.ID, ParentID: &dir.ID, Name: name, Path: p, Kind: store.KindDir, Generated: true}
			if err := tx.CreateNode(ctx, &n); err != nil {
				return store.Node{}, err
			}
		case err != nil:
			return store.Node{}, err
		case !n.IsDir():
			return store.Node{}, fmt.Errorf("%w: %s is a file", ErrOutputTaken, kb.NodeURI(c.Username, p, false))
		}
		dir = n
	}
	return dir, nil
}

func putGenerated(ctx context.Context, tx *store.Store, c kb.Caller, dir store.Node, name string, info blob.Info) (store.Node, error) {
	p := dir.ChildPath(name)
	n, err := tx.NodeByPath(ctx, c.ID, p)
	switch {
	case errors.Is(err, store.ErrNotFound):
		n = store.Node{UserID: c.ID, ParentID: &dir.ID, Name: name, Path: p, Kind: store.KindFile,
			Generated: true, Size: info.Size}
		if err := tx.CreateNode(ctx, &n); err != nil {
			return store.Node{}, err
		}
	case err != nil:
		return store.Node{}, err
	// Only files a compile made may be replaced: a user's own upload under
	// wiki/ is theirs, even though the folder is for generated output.
	case n.IsDir() || !n.Generated:
		return store.Node{}, fmt.Errorf("%w: %s", ErrOutputTaken, kb.NodeURI(c.Username, p, n.IsDir()))
	default:
		if err := tx.TouchNode(ctx, n.ID, info.Size); err != nil {
			return store.Node{}, err
		}
	}
	v := store.FileVersion{NodeID: n.ID, Body: store.BodyRaw, BlobHash: info.Hash, Size: info.Size,
		IsText: true, CharCount: info.Chars, MediaType: "text/markdown; charset=utf-8"}
	if err := tx.AddVersion(ctx, &v); err != nil {
		return store.Node{}, err
	}
	return tx.NodeByPath(ctx, c.ID, p)
}
