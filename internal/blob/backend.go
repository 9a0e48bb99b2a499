package blob

import (
	"context"
	"io"
	"io/fs"
	"time"
)

// File is an open stored object: read in order, or a range at a time
// (ReadAt, Seek), so a page read fetches only the bytes it needs.
type File interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	// Stat gives the size and modification time (the backup's tar headers).
	Stat() (fs.FileInfo, error)
}

// ObjectInfo is what a backend knows of one stored object.
type ObjectInfo struct {
	Size    int64
	ModTime time.Time
}

// Backend keeps the published objects: a blob's bytes under "<aa>/<hash>"
// and its character index under "<aa>/<hash>.idx". Staging stays on the
// local disk whatever the backend, so an upload is hashed and checked
// before anything is published. A missing object is an error that
// errors.Is(err, fs.ErrNotExist) recognises.
type Backend interface {
	// Put publishes the staged file at path (size bytes) under key,
	// streaming it; the staged file stays where it is.
	Put(ctx context.Context, key, path string, size int64) error
	Open(ctx context.Context, key string) (File, error)
	Stat(ctx context.Context, key string) (ObjectInfo, error)
	// Delete removes key; a key already gone is not an error.
	Delete(ctx context.Context, key string) error
	// List calls fn for every stored object, index files included.
	List(ctx context.Context, fn func(key string, info ObjectInfo) error) error
}

func blobKey(hash string) string {
	if len(hash) < 2 {
		return "_/" + hash
	}
	return hash[:2] + "/" + hash
}

func indexKey(hash string) string { return blobKey(hash) + ".idx" }
