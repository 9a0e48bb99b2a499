package dav

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge"
)

// writeFile is a PUT in progress. webdav copies the body with io.Copy,
// which hands it to ReadFrom: the Tree's staging reads it straight from
// the request, streaming it to the blob store and enforcing the upload
// limit. Close commits the staged bytes as the file's next version with
// the same call the REST upload makes (replace keeps the old version).
// Plain Writes (or none, for the empty file a LOCK creates) go through a
// pipe to the same staging.
type writeFile struct {
	ctx  context.Context
	fs   *fileSystem
	dir  string // tree path of the folder
	name string
	path string

	staging bool // Stage has been started, by ReadFrom or the pipe
	pw      *io.PipeWriter
	done    chan struct{} // closed when the pipe's Stage returns
	staged  knowledge.Staged
	err     error // staging's

	closed bool
	entry  knowledge.Entry // after a successful close
}

func newWriteFile(ctx context.Context, f *fileSystem, dir, name, p string) *writeFile {
	return &writeFile{ctx: ctx, fs: f, dir: dir, name: name, path: p}
}

// ReadFrom stages the whole of r.
func (w *writeFile) ReadFrom(r io.Reader) (int64, error) {
	if w.staging {
		return io.Copy(writerOnly{w}, r)
	}
	w.staging = true
	cr := &countingReader{r: r}
	w.staged, w.err = w.fs.tree.Stage(w.name, cr)
	if w.err != nil {
		return cr.n, fail(w.ctx, w.err)
	}
	return cr.n, nil
}

func (w *writeFile) Write(p []byte) (int, error) {
	if !w.staging {
		w.startPipe()
	}
	if w.pw == nil {
		return 0, errors.New("the body was already staged")
	}
	n, err := w.pw.Write(p)
	if err != nil {
		<-w.done
		if w.err != nil {
			return n, fail(w.ctx, w.err)
		}
	}
	return n, err
}

func (w *writeFile) startPipe() {
	w.staging = true
	pr, pw := io.Pipe()
	w.pw, w.done = pw, make(chan struct{})
	go func() {
		defer close(w.done)
		w.staged, w.err = w.fs.tree.Stage(w.name, pr)
		// A writer blocked on a limit that was hit must learn of it.
		pr.CloseWithError(errStaged)
	}()
}

var errStaged = errors.New("the upload stopped")

// Close publishes the bytes, unless the request body did not arrive
// whole: a PUT cut short must not become a version.
func (w *writeFile) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if !w.staging {
		w.staging = true
		w.staged, w.err = w.fs.tree.Stage(w.name, strings.NewReader(""))
	}
	if b := w.fs.body; b != nil && !b.complete() {
		w.finishPipe(errIncomplete)
		if w.err == nil {
			knowledge.Discard([]knowledge.Staged{w.staged})
		}
		return fail(w.ctx, apierr.BadRequest(apierr.CodeIncompleteBody, "the request body ended early; nothing was stored").WithCause(b.err))
	}
	w.finishPipe(nil)
	if w.err != nil {
		return fail(w.ctx, w.err)
	}
	items, err := w.fs.tree.CommitUpload(w.ctx, w.fs.c, w.fs.uri(w.dir, true), []knowledge.Staged{w.staged}, knowledge.ConflictReplace)
	if isNotFound(err) {
		// webdav answers every failed Close 405; a folder gone by the
		// commit is the 409 of a PUT whose folder is missing (RFC 4918
		// §9.7.1), as when it was gone at the start.
		err = apierr.Conflict(apierr.CodeNoParent, "the folder of %s was moved or deleted meanwhile; nothing was stored", w.fs.uri(w.path, false)).WithCause(err)
	}
	if err != nil {
		return fail(w.ctx, err)
	}
	w.fs.forget(w.path)
	// The answer describes what was committed, never a second look by
	// path: the commit follows its folder through a concurrent move, and
	// a look at the old path would then turn a stored version into a 405.
	it := items[0]
	w.entry = knowledge.Entry{Name: it.Name, Size: it.Size, ModTime: it.UpdatedAt, Hash: w.staged.Hash()}
	return nil
}

// finishPipe ends the pipe's staging, if there is one, and waits for it.
func (w *writeFile) finishPipe(cause error) {
	if w.pw == nil {
		return
	}
	w.pw.CloseWithError(cause)
	<-w.done
}

type writerOnly struct{ io.Writer }

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

var errIncomplete = errors.New("the request body ended early")

// Stat is asked before Close; the ETag it carries is read after, when
// the bytes are committed.
func (w *writeFile) Stat() (fs.FileInfo, error) { return writeInfo{w}, nil }

func (w *writeFile) Read([]byte) (int, error)           { return 0, errWriteOnly }
func (w *writeFile) Seek(int64, int) (int64, error)     { return 0, errWriteOnly }
func (w *writeFile) Readdir(int) ([]fs.FileInfo, error) { return nil, errNotDir }

var errWriteOnly = errors.New("file opened for writing")

type writeInfo struct{ w *writeFile }

func (i writeInfo) Name() string       { return i.w.name }
func (i writeInfo) Size() int64        { return i.w.entry.Size }
func (i writeInfo) Mode() fs.FileMode  { return 0o644 }
func (i writeInfo) ModTime() time.Time { return i.w.entry.ModTime }
func (i writeInfo) IsDir() bool        { return false }
func (i writeInfo) Sys() any           { return nil }
func (i writeInfo) ETag(context.Context) (string, error) {
	if i.w.entry.Hash == "" {
		return "", errors.New("the file was not stored")
	}
	return etagOf(i.w.entry), nil
}

// trackedBody tells whether a request body was read to its end.
type trackedBody struct {
	io.ReadCloser
	eof bool
	err error
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil && b.err == nil:
		b.err = err
	}
	return n, err
}

func (b *trackedBody) complete() bool { return b.eof && b.err == nil }
