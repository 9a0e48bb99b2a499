package dav

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"time"

	"golang.org/x/net/webdav"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/knowledge"
)

// fileInfo is a node as os.FileInfo, with its content hash as the ETag
// and its stored media type, so webdav never opens a file to describe it.
type fileInfo struct{ e knowledge.Entry }

func (i fileInfo) Name() string { return i.e.Name }
func (i fileInfo) Size() int64 {
	if i.e.Dir {
		return 0
	}
	return i.e.Size
}
func (i fileInfo) Mode() fs.FileMode {
	if i.e.Dir {
		return fs.ModeDir | 0o755
	}
	return 0o644
}
func (i fileInfo) ModTime() time.Time { return i.e.ModTime }
func (i fileInfo) IsDir() bool        { return i.e.Dir }
func (i fileInfo) Sys() any           { return nil }

// ETag is the strong validator of the file's bytes: their sha256.
func (i fileInfo) ETag(context.Context) (string, error) {
	if i.e.Dir || i.e.Hash == "" {
		return "", webdav.ErrNotImplemented
	}
	return etagOf(i.e), nil
}

func (i fileInfo) ContentType(context.Context) (string, error) {
	if i.e.MediaType == "" {
		return "application/octet-stream", nil
	}
	return i.e.MediaType, nil
}

// etagOf spells the sha256 of the bytes in base64 rather than hex: some
// clients (litmus's neon among them) cut an If header of two hex-ETag
// conditions short.
func etagOf(e knowledge.Entry) string {
	b, err := hex.DecodeString(e.Hash)
	if err != nil {
		return `"` + e.Hash + `"`
	}
	return `"` + base64.RawURLEncoding.EncodeToString(b) + `"`
}

// readFile is a file opened for GET or PROPFIND; its bytes are opened on
// the first read, so describing a file never touches the blob store.
type readFile struct {
	fs  *fileSystem
	ctx context.Context
	e   knowledge.Entry
	f   blob.File
	pos int64
}

func (r *readFile) open() error {
	if r.f != nil {
		return nil
	}
	raw, err := r.fs.tree.OpenEntry(r.e)
	if err != nil {
		return fail(r.ctx, err)
	}
	r.f = raw.File
	if r.pos != 0 {
		if _, err := r.f.Seek(r.pos, io.SeekStart); err != nil {
			return err
		}
	}
	return nil
}

func (r *readFile) Read(p []byte) (int, error) {
	if err := r.open(); err != nil {
		return 0, err
	}
	n, err := r.f.Read(p)
	r.pos += int64(n)
	return n, err
}

// Seek answers the size probe of http.ServeContent (seek to the end and
// back) without opening the bytes.
func (r *readFile) Seek(offset int64, whence int) (int64, error) {
	if r.f != nil {
		n, err := r.f.Seek(offset, whence)
		r.pos = n
		return n, err
	}
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.pos
	case io.SeekEnd:
		offset += r.e.Size
	}
	if offset < 0 {
		return 0, errors.New("seek before the start")
	}
	r.pos = offset
	return offset, nil
}

func (r *readFile) Close() error {
	if r.f != nil {
		return r.f.Close()
	}
	return nil
}

func (r *readFile) Readdir(int) ([]fs.FileInfo, error) { return nil, errNotDir }
func (r *readFile) Stat() (fs.FileInfo, error)         { return fileInfo{r.e}, nil }
func (r *readFile) Write([]byte) (int, error)          { return 0, errReadOnlyHandle }

func (r *readFile) DeadProps() (map[xmlName]webdav.Property, error) {
	return r.fs.deadProps(r.ctx, r.e)
}
func (r *readFile) Patch(ps []webdav.Proppatch) ([]webdav.Propstat, error) {
	return r.fs.patchProps(r.ctx, r.e, ps)
}

var (
	errNotDir         = errors.New("not a folder")
	errReadOnlyHandle = errors.New("file opened for reading")
)

// dirFile is a folder opened for PROPFIND.
type dirFile struct {
	fs   *fileSystem
	ctx  context.Context
	e    knowledge.Entry
	list []fs.FileInfo
	read bool
}

func (d *dirFile) Readdir(count int) ([]fs.FileInfo, error) {
	if !d.read {
		es, err := d.fs.tree.ReadDir(d.ctx, d.fs.c, d.fs.uri(d.e.Path, true))
		if err != nil {
			return nil, fail(d.ctx, err)
		}
		if err := d.fs.remember(d.ctx, es); err != nil {
			return nil, fail(d.ctx, apierr.Internal("webdav readdir: remember entries", err))
		}
		for _, e := range es {
			d.list = append(d.list, fileInfo{e})
		}
		d.read = true
	}
	if count <= 0 {
		out := d.list
		d.list = nil
		return out, nil
	}
	if len(d.list) == 0 {
		return nil, io.EOF
	}
	n := min(count, len(d.list))
	out := d.list[:n]
	d.list = d.list[n:]
	return out, nil
}

func (d *dirFile) Stat() (fs.FileInfo, error)     { return fileInfo{d.e}, nil }
func (d *dirFile) Read([]byte) (int, error)       { return 0, errNotFile }
func (d *dirFile) Seek(int64, int) (int64, error) { return 0, errNotFile }
func (d *dirFile) Write([]byte) (int, error)      { return 0, errNotFile }
func (d *dirFile) Close() error                   { return nil }
func (d *dirFile) DeadProps() (map[xmlName]webdav.Property, error) {
	return d.fs.deadProps(d.ctx, d.e)
}
func (d *dirFile) Patch(ps []webdav.Proppatch) ([]webdav.Propstat, error) {
	return d.fs.patchProps(d.ctx, d.e, ps)
}

var errNotFile = errors.New("a folder has no bytes")
