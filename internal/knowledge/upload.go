package knowledge

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// MaxUploadFiles bounds the number of files in one upload request.
const MaxUploadFiles = 256

// Staged is an uploaded file whose bytes are staged but not yet in the tree.
type Staged struct {
	Name string
	// Dir is the folder path below the upload's target the file goes in
	// (a folder upload's relative path); empty for a plain upload.
	Dir     []string
	pending *blob.Pending
}

// Hash is the sha256 of the staged bytes: the file's ETag once committed.
func (f Staged) Hash() string { return f.pending.Hash }

// rel spells the file's place below the upload's target.
func (f Staged) rel() string { return strings.Join(append(slices.Clone(f.Dir), f.Name), "/") }

// Stage validates a bare file name and streams its bytes to the staging
// area, enforcing the per-file size limit.
func (t *Tree) Stage(name string, r io.Reader) (Staged, error) {
	return t.StagePath(name, false, r)
}

// StagePath is Stage for a name that may carry a relative path (a/b/c.md,
// or with backslashes from Windows). Without parents such a name is
// refused, never flattened to its last element; with parents every
// segment is checked like any name, and the folders are created when the
// upload commits.
func (t *Tree) StagePath(rel string, parents bool, r io.Reader) (Staged, error) {
	segs := []string{rel}
	if strings.ContainsAny(rel, `/\`) {
		if !parents {
			return Staged{}, apierr.BadRequest(apierr.CodePathInName, "file name %q carries folders; upload with parents=true to create them below the target, or send the bare file name", kb.Clip(rel, 60))
		}
		segs = strings.Split(strings.ReplaceAll(rel, `\`, "/"), "/")
	}
	clean := make([]string, len(segs))
	for i, seg := range segs {
		if seg == "" && len(segs) > 1 {
			return Staged{}, apierr.BadRequest(apierr.CodeInvalidName, "file name %q has an empty folder name: a leading, trailing or doubled slash", kb.Clip(rel, 60))
		}
		c, err := kb.ValidateName(seg)
		if err != nil {
			msg := err.Error()
			if e, ok := apierr.As(err); ok {
				msg = e.Message
			}
			return Staged{}, apierr.BadRequest(apierr.CodeInvalidName, "file name %q: %s", kb.Clip(rel, 60), msg)
		}
		clean[i] = c
	}
	staged, err := t.stage(clean[len(clean)-1], r)
	if err != nil {
		return Staged{}, err
	}
	staged.Dir = clean[:len(clean)-1]
	return staged, nil
}

func (t *Tree) stage(name string, r io.Reader) (Staged, error) {
	defer t.st.Staging()()
	// Flushed with the upload's other files before its commit.
	p, err := t.blobs.PutLater(r, t.maxUpload)
	if errors.Is(err, blob.ErrTooLarge) {
		return Staged{}, apierr.TooLarge(apierr.CodeFileTooLarge, "%s is larger than the upload limit of %d bytes", name, t.maxUpload).WithDetail("file", name).WithDetail("limit_bytes", t.maxUpload)
	}
	if err != nil {
		return Staged{}, apierr.BadRequest(apierr.CodeUploadFailed, "reading %s failed; nothing was stored", name).WithCause(err)
	}
	return Staged{Name: name, pending: p}, nil
}

// ForFile names the upload's file a client error is about (error.file),
// so a client can set that one file aside and send the rest again: the
// request is all or nothing.
func ForFile(err error, rel string) error {
	if e, ok := apierr.As(err); ok && e.Status < 500 {
		return e.WithDetail("file", rel)
	}
	return err
}

// Discard drops staged files after a failed request.
func Discard(files []Staged) {
	for _, f := range files {
		f.pending.Abort()
	}
}

// What an upload does with a name that is taken (on_conflict).
const (
	ConflictFail    = "fail"    // refuse the upload: 409 exists, with the existing node
	ConflictReplace = "replace" // a new version; the old content stays a previous version
	ConflictRename  = "rename"  // store as "name (2).ext"
)

// ParseConflict checks an on_conflict value; "" is the default, fail.
func ParseConflict(v string) (string, error) {
	switch v {
	case "":
		return ConflictFail, nil
	case ConflictFail, ConflictReplace, ConflictRename:
		return v, nil
	}
	return "", apierr.BadRequest(apierr.CodeInvalidOnConflict, "on_conflict must be fail, replace or rename")
}

// CommitUpload publishes staged files into the folder raw names, all or
// nothing; onConflict says what a taken name does (an existing folder of
// the same name refuses the upload unless renaming).
func (t *Tree) CommitUpload(ctx context.Context, c kb.Caller, raw string, files []Staged, onConflict string) ([]Item, error) {
	return t.commitStaged(ctx, c, raw, files, onConflict, commitExtra{})
}

// commitExtra is what a folder import adds to an upload's commit.
type commitExtra struct {
	// top is a folder to create below the target for everything; it must
	// not exist yet, so an import never merges into a folder by accident.
	top string
	// dirs are folders to create even when no file lands in them.
	dirs [][]string
	// guard runs first in the transaction (a job's lease check), so a
	// cancelled job publishes nothing.
	guard func(tx *store.Store) error
	// done runs last in the transaction with the committed items: the job
	// completes there, so a crash can never separate its effect from its
	// outcome.
	done func(tx *store.Store, items []Item) error
}

func (t *Tree) commitStaged(ctx context.Context, c kb.Caller, raw string, files []Staged, onConflict string, x commitExtra) ([]Item, error) {
	defer Discard(files) // a no-op for committed blobs, whose staged copy is gone
	tg, err := t.Lookup(ctx, c, raw, access.Write)
	if err != nil {
		return nil, err
	}
	u, dir, own := tg.URI, tg.Node, tg.Owner
	if !dir.IsDir() {
		return nil, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder", u).WithDetail("uri", u.String())
	}
	if len(files) == 0 && x.top == "" && len(x.dirs) == 0 {
		return nil, apierr.BadRequest(apierr.CodeNoFiles, "the upload has no file part named \"file\"")
	}
	seen := map[string]bool{}
	for _, f := range files {
		if seen[f.rel()] {
			return nil, apierr.BadRequest(apierr.CodeDuplicateName, "%s appears twice in one upload", f.rel()).WithDetail("file", f.rel())
		}
		seen[f.rel()] = true
	}
	texts, err := t.decodeAll(files)
	for _, d := range texts {
		if d != nil {
			defer d.body.Abort()
		}
	}
	if err != nil {
		return nil, apierr.Internal("upload: decode staged file", err)
	}
	// Blobs become visible inside the transaction, under their locks (see
	// blobgc.go); rows that fail take the blobs nothing else uses with them.
	pending := make([]*blob.Pending, len(files))
	for i, f := range files {
		pending[i] = f.pending
	}
	// On disk before the transaction, all at once: a flush per file took
	// longer than the rest of a large import's commit.
	toSync := slices.Clone(pending)
	for _, d := range texts {
		if d != nil {
			toSync = append(toSync, d.body)
		}
	}
	if err := blob.Sync(toSync...); err != nil {
		return nil, apierr.Internal("upload: sync staged files", err)
	}
	var nodes []store.Node
	err = t.Mutate(ctx, own, func(tx *store.Store) error {
		nodes = nodes[:0]
		put := make([]store.Node, len(files))
		if x.guard != nil {
			if err := x.guard(tx); err != nil {
				return err
			}
		}
		dir, err := Fresh(ctx, tx, own, u, dir)
		if err != nil {
			return err
		}
		if x.top != "" {
			if dir, err = createTop(ctx, tx, own, dir, x.top); err != nil {
				return err
			}
			nodes = append(nodes, dir)
		}
		if err := CommitBlobs(ctx, tx, pending...); err != nil {
			return err
		}
		folders := folderSet{rel: map[string]store.Node{"": dir}, made: map[int64]bool{}}
		if x.top != "" {
			folders.made[dir.ID] = true
		}
		for _, d := range x.dirs {
			if _, err := ensureFolders(ctx, tx, own, folders, d); err != nil {
				return err
			}
		}
		// Files landing in a folder this commit made cannot meet a name
		// already taken: they are written together, after the others.
		news := newFiles{bulk: !namesFolder(files, x.dirs)}
		for i, f := range files {
			dir, err := ensureFolders(ctx, tx, own, folders, f.Dir)
			if err != nil {
				return ForFile(err, f.rel())
			}
			if news.bulk && folders.made[dir.ID] {
				news.add(i, dir)
				continue
			}
			name, err := resolveConflict(ctx, tx, own, dir, f.Name, onConflict)
			if err != nil {
				return ForFile(err, f.rel())
			}
			n, err := putFile(ctx, tx, own, Author(c, own), dir, name, f.pending.Info, store.BodyRaw)
			if err != nil {
				return err
			}
			if err := saveDecoded(ctx, tx, n, texts[i]); err != nil {
				return err
			}
			if _, err := t.MarkForIndex(ctx, tx, n.ID); err != nil {
				return err
			}
			put[i] = n
		}
		if err := t.putNewFiles(ctx, tx, own, Author(c, own), news, files, texts, put); err != nil {
			return err
		}
		nodes = append(nodes, put...)
		if err := MarkChanged(ctx, tx, own, put...); err != nil {
			return err
		}
		if x.done != nil {
			return x.done(tx, itemsOf(own.Username, nodes))
		}
		return nil
	})
	if err != nil {
		hashes := make([]string, 0, len(files))
		for i, f := range files {
			hashes = append(hashes, f.pending.Hash)
			if texts[i] != nil {
				hashes = append(hashes, texts[i].body.Hash)
			}
		}
		t.FreeBlobsBestEffort(ctx, hashes)
		return nil, WrapStoreErr("upload", err)
	}
	return itemsOf(own.Username, nodes), nil
}

func itemsOf(owner string, nodes []store.Node) []Item {
	items := make([]Item, len(nodes))
	for i, n := range nodes {
		items[i] = ItemOf(owner, n)
	}
	return items
}

// folderSet holds the folders an upload has found or made, by path below
// its target (rel[""] is the target), and which of them this upload made.
type folderSet struct {
	rel  map[string]store.Node
	made map[int64]bool
}

// ensureFolders finds or creates the folders segs below the upload's
// target, inside the upload's transaction, so a failed upload leaves no
// folder behind either.
func ensureFolders(ctx context.Context, tx *store.Store, c kb.Caller, folders folderSet, segs []string) (store.Node, error) {
	parent := folders.rel[""]
	for i, name := range segs {
		rel := strings.Join(segs[:i+1], "/")
		if n, ok := folders.rel[rel]; ok {
			parent = n
			continue
		}
		p := parent.ChildPath(name)
		n, err := tx.NodeByPath(ctx, c.ID, p)
		switch {
		case err == nil && !n.IsDir():
			return store.Node{}, apierr.Conflict(apierr.CodeNotAFolder, "%s is a file, so the upload cannot create a folder there", kb.NodeURI(c.Username, p, false)).WithDetail("uri", kb.NodeURI(c.Username, p, false))
		case errors.Is(err, store.ErrNotFound):
			n = store.Node{UserID: c.ID, ParentID: &parent.ID, Name: name, Path: p, Kind: store.KindDir}
			if err := tx.CreateNode(ctx, &n); err != nil {
				return store.Node{}, err
			}
			folders.made[n.ID] = true
		case err != nil:
			return store.Node{}, err
		}
		folders.rel[rel], parent = n, n
	}
	return parent, nil
}

// resolveConflict returns the name a file is stored under.
func resolveConflict(ctx context.Context, tx *store.Store, c kb.Caller, dir store.Node, name, mode string) (string, error) {
	n, err := tx.NodeByPath(ctx, c.ID, dir.ChildPath(name))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return name, nil
	case err != nil:
		return "", err
	case mode == ConflictRename:
		return FreeName(ctx, tx, c, dir, name, false, "")
	case mode == ConflictReplace || n.IsDir():
		return name, nil // putFile refuses a folder of that name
	}
	return "", apierr.Conflict(apierr.CodeAlreadyExists, "%s already exists; upload with on_conflict=replace or rename",
		kb.NodeURI(c.Username, n.Path, n.IsDir())).WithDetail("uri", kb.NodeURI(c.Username, n.Path, n.IsDir())).WithDetail("existing", ItemOf(c.Username, n))
}

// putFile creates or versions the file name below dir, in the tree of c,
// with committed bytes; by is who wrote them when it is not c.
func putFile(ctx context.Context, tx *store.Store, c kb.Caller, by *int64, dir store.Node, name string, info blob.Info, body string) (store.Node, error) {
	p := dir.ChildPath(name)
	n, err := tx.NodeByPath(ctx, c.ID, p)
	switch {
	case err == nil && n.IsDir():
		return store.Node{}, apierr.Conflict(apierr.CodeAlreadyExists, "%s is a folder", kb.NodeURI(c.Username, p, true))
	case errors.Is(err, store.ErrNotFound):
		n = store.Node{UserID: c.ID, ParentID: &dir.ID, Name: name, Path: p, Kind: store.KindFile, Size: info.Size}
		if err := tx.CreateNode(ctx, &n); err != nil {
			return store.Node{}, err
		}
	case err != nil:
		return store.Node{}, err
	default:
		if err := GuardGenerated(c, n); err != nil {
			return store.Node{}, err
		}
		if err := tx.TouchNode(ctx, n.ID, info.Size); err != nil {
			return store.Node{}, err
		}
	}
	v := newVersion(n.ID, by, name, info, body)
	if err := tx.AddVersion(ctx, &v); err != nil {
		return store.Node{}, err
	}
	return tx.NodeByPath(ctx, c.ID, p)
}

// newVersion is the version of body that bytes info, stored under name,
// make of node id; by wrote them when it is not the owner.
func newVersion(id int64, by *int64, name string, info blob.Info, body string) store.FileVersion {
	text := info.ValidUTF8 && !info.HasNUL && !extract.IsDocument(name)
	v := store.FileVersion{
		NodeID: id, Body: body, BlobHash: info.Hash, Size: info.Size,
		IsText: text, MediaType: mediaType(name, info.Head), AuthorID: by,
	}
	if text {
		v.CharCount = info.Chars
	}
	return v
}

func mediaType(name string, head []byte) string {
	if t := mime.TypeByExtension(strings.ToLower(path.Ext(name))); t != "" {
		return t
	}
	return http.DetectContentType(head)
}
