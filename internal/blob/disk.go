package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Disk is the default backend: a directory tree on the local file system.
type Disk struct {
	dir string // <aa>/<hash>, <aa>/<hash>.idx
	tmp string // on the same file system, so rename is atomic
}

// NewDisk keeps objects under dir, copying through tmp where a hard link
// is impossible.
func NewDisk(dir, tmp string) *Disk { return &Disk{dir: dir, tmp: tmp} }

func (d *Disk) path(key string) string { return filepath.Join(d.dir, filepath.FromSlash(key)) }

func (d *Disk) Put(_ context.Context, key, path string, _ int64) error {
	final := d.path(key)
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return err
	}
	// A hard link publishes the staged bytes atomically and keeps them
	// staged; a file system without links gets a copy through a rename.
	if err := os.Link(path, final); err != nil && !errors.Is(err, os.ErrExist) {
		if cerr := copyInto(path, final, d.tmp); cerr != nil {
			return fmt.Errorf("publish %s: %w", key, cerr)
		}
	}
	return nil
}

func (d *Disk) Open(_ context.Context, key string) (File, error) {
	f, err := os.Open(d.path(key))
	if err != nil {
		return nil, err // *os.File as File would hide a nil behind a non-nil interface
	}
	return f, nil
}

func (d *Disk) Stat(_ context.Context, key string) (ObjectInfo, error) {
	fi, err := os.Stat(d.path(key))
	if err != nil {
		return ObjectInfo{}, err
	}
	return ObjectInfo{Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

func (d *Disk) Delete(_ context.Context, key string) error {
	if err := os.Remove(d.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func (d *Disk) List(ctx context.Context, fn func(string, ObjectInfo) error) error {
	return filepath.WalkDir(d.dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		info, err := e.Info()
		if err != nil {
			return nil // removed while walking
		}
		rel, err := filepath.Rel(d.dir, p)
		if err != nil {
			return err
		}
		return fn(filepath.ToSlash(rel), ObjectInfo{Size: info.Size(), ModTime: info.ModTime()})
	})
}

func copyInto(src, dst, tmpDir string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.CreateTemp(tmpDir, "copy-*")
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(out.Name(), dst)
	}
	if err != nil {
		os.Remove(out.Name())
	}
	return err
}
