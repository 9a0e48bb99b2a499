package dav

import (
	"context"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"

	"golang.org/x/net/webdav"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// fileSystem is webdav.FileSystem over one caller's view of the tree: the
// names webdav hands it ("/a/b.md") are paths below root, the caller's
// own root or, for a scoped token, its folder. Every change goes through
// the Tree, so the REST API's rules hold here too. One is built per
// request; it remembers what a folder listing read, so a PROPFIND of a
// folder costs a few queries, not a few per child.
type fileSystem struct {
	tree  *knowledge.Tree
	store *store.Store
	audit *audit.Recorder
	c     kb.Caller
	root  string // tree path of "/"
	body  *trackedBody

	mu     sync.Mutex
	cached map[string]knowledge.Entry // by tree path
	props  map[int64][]store.DavProp  // dead properties by node, for cached entries
}

var _ webdav.FileSystem = (*fileSystem)(nil)

// treePath maps a webdav name to a path of the caller's tree.
func (f *fileSystem) treePath(name string) string {
	rel := strings.Trim(path.Clean("/"+name), "/")
	switch {
	case f.root == "":
		return rel
	case rel == "":
		return f.root
	}
	return f.root + "/" + rel
}

func (f *fileSystem) uri(p string, dir bool) string { return kb.NodeURI(f.c.Username, p, dir) }

func (f *fileSystem) refuseGenerated(p string) error {
	return knowledge.GeneratedReadOnly(f.uri(p, false))
}

func (f *fileSystem) stat(ctx context.Context, p string) (knowledge.Entry, error) {
	f.mu.Lock()
	e, ok := f.cached[p]
	f.mu.Unlock()
	if ok {
		return e, nil
	}
	return f.tree.Stat(ctx, f.c, f.uri(p, false))
}

func (f *fileSystem) Stat(ctx context.Context, name string) (os.FileInfo, error) {
	e, err := f.stat(ctx, f.treePath(name))
	if err != nil {
		return nil, fail(ctx, err)
	}
	return fileInfo{e}, nil
}

// parentOf checks that the folder a new node at p goes in exists; a
// missing one is fs.ErrNotExist, which webdav answers 409 Conflict.
func (f *fileSystem) parentOf(ctx context.Context, p string) (knowledge.Entry, error) {
	if p == f.root {
		return knowledge.Entry{}, apierr.Forbidden(apierr.CodeRoot, "the root of the mount always exists")
	}
	dir := path.Dir("/" + p)[1:]
	e, err := f.stat(ctx, dir)
	if err != nil {
		return knowledge.Entry{}, err
	}
	if !e.Dir {
		return knowledge.Entry{}, apierr.NotFound(apierr.CodeNotAFolder, "%s is a file, not a folder", f.uri(dir, false)).WithDetail("uri", f.uri(dir, false))
	}
	return e, nil
}

// writable refuses a change at p before any byte is read. The Tree
// refuses changing a generated node itself; this door is stricter with
// the same rule: nothing is added to or deleted from compile output, so a
// sync client mirroring a folder can neither wipe nor litter the wiki.
func (f *fileSystem) writable(ctx context.Context, p string) error {
	if knowledge.IsGeneratedPath(p) {
		return f.refuseGenerated(p)
	}
	if e, err := f.stat(ctx, p); err == nil && e.Generated {
		return f.refuseGenerated(p)
	}
	// Compile output may live in a folder of its own outside wiki/.
	if dir := path.Dir("/" + p)[1:]; p != f.root {
		if e, err := f.stat(ctx, dir); err == nil && e.Generated {
			return f.refuseGenerated(p)
		}
	}
	return nil
}

func (f *fileSystem) Mkdir(ctx context.Context, name string, _ os.FileMode) error {
	p := f.treePath(name)
	if err := f.writable(ctx, p); err != nil {
		return fail(ctx, err)
	}
	if _, err := f.parentOf(ctx, p); err != nil {
		return fail(ctx, err)
	}
	if _, err := f.tree.Mkdir(ctx, f.c, f.uri(p, true)); err != nil {
		return fail(ctx, err)
	}
	return nil
}

func (f *fileSystem) RemoveAll(ctx context.Context, name string) error {
	p := f.treePath(name)
	if p == f.root {
		return fail(ctx, apierr.Forbidden(apierr.CodeRoot, "the root of the mount cannot be deleted"))
	}
	if err := f.writable(ctx, p); err != nil {
		return fail(ctx, err)
	}
	err := f.tree.Delete(ctx, f.c, f.uri(p, false))
	_ = f.audit.Record(ctx, audit.Event{Action: audit.Delete, Target: f.uri(p, false)}.WithError(err))
	if err != nil {
		return fail(ctx, err)
	}
	return nil
}

func (f *fileSystem) Rename(ctx context.Context, oldName, newName string) error {
	from, to := f.treePath(oldName), f.treePath(newName)
	for _, p := range []string{from, to} {
		if err := f.writable(ctx, p); err != nil {
			return fail(ctx, err)
		}
	}
	if _, err := f.tree.Move(ctx, f.c, f.uri(from, false), f.uri(to, false)); err != nil {
		return fail(ctx, err)
	}
	return nil
}

func (f *fileSystem) OpenFile(ctx context.Context, name string, flag int, _ os.FileMode) (webdav.File, error) {
	p := f.treePath(name)
	// PUT opens with O_CREATE|O_TRUNC; PROPPATCH opens O_RDWR only, to
	// patch properties, not bytes.
	if flag&(os.O_CREATE|os.O_TRUNC) != 0 {
		wf, err := f.openWrite(ctx, p)
		if err != nil {
			return nil, fail(ctx, err)
		}
		return wf, nil
	}
	e, err := f.stat(ctx, p)
	if err != nil {
		return nil, fail(ctx, err)
	}
	if e.Dir {
		return &dirFile{fs: f, ctx: ctx, e: e}, nil
	}
	return &readFile{fs: f, ctx: ctx, e: e}, nil
}

// openWrite starts a PUT of the file at p: the body streams into the blob
// store's staging area as it arrives and becomes a version when the file
// is closed.
func (f *fileSystem) openWrite(ctx context.Context, p string) (*writeFile, error) {
	if err := f.writable(ctx, p); err != nil {
		return nil, err
	}
	if e, err := f.stat(ctx, p); err == nil && e.Dir {
		return nil, apierr.New(http.StatusMethodNotAllowed, apierr.CodeIsAFolder, "%s is a folder; PUT writes files", f.uri(p, true))
	}
	dir, err := f.parentOf(ctx, p)
	if err != nil {
		return nil, err
	}
	if !dir.Writable {
		return nil, apierr.Forbidden(apierr.CodeReadOnly, "%s may be read but not changed with these credentials", f.uri(dir.Path, true)).WithDetail("uri", f.uri(dir.Path, true))
	}
	return newWriteFile(ctx, f, dir.Path, path.Base("/"+p), p), nil
}

// remember keeps a folder's children for the rest of the request, with
// their dead properties read in one query.
func (f *fileSystem) remember(ctx context.Context, es []knowledge.Entry) error {
	ids := make([]int64, len(es))
	for i, e := range es {
		ids[i] = e.NodeID
	}
	props, err := f.store.DavPropsOf(ctx, ids)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cached == nil {
		f.cached, f.props = map[string]knowledge.Entry{}, map[int64][]store.DavProp{}
	}
	for _, e := range es {
		f.cached[e.Path] = e
		f.props[e.NodeID] = props[e.NodeID]
	}
	return nil
}

// forget drops what a change made stale.
func (f *fileSystem) forget(p string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range f.cached {
		if k == p || strings.HasPrefix(k, p+"/") {
			delete(f.cached, k)
		}
	}
}
