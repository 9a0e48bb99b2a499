// Package scratch gives each process scratch directories of its own, each
// marked by a lock the process holds while it lives. A process killed
// during an upload, an import or a backup leaves its directory behind; the
// next start (or a periodic sweep) removes it and logs its size, while the
// directories of live processes — another replica sharing the data
// directory, an operator command beside the server — are never touched.
package scratch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ownerFile is the lock a directory's owner holds.
const ownerFile = ".owner"

// legacyAge is how old a directory without an owner file must be to be a
// leftover: it may be one just made, whose owner is about to lock it.
const legacyAge = time.Hour

// Dir is a scratch directory this process owns.
type Dir struct {
	Path string
	lock *os.File
}

// Claim makes a directory named prefix-<random> under parent and holds its
// lock until Release or the process ends.
func Claim(parent, prefix string) (*Dir, error) {
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, fmt.Errorf("scratch: %w", err)
	}
	p, err := os.MkdirTemp(parent, prefix+"-")
	if err != nil {
		return nil, fmt.Errorf("scratch: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(p, ownerFile), os.O_CREATE|os.O_RDWR, 0o600)
	if err == nil {
		if err = lock(f); errors.Is(err, errors.ErrUnsupported) {
			err = nil
		}
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		os.RemoveAll(p)
		return nil, fmt.Errorf("scratch: %w", err)
	}
	return &Dir{Path: p, lock: f}, nil
}

// Release removes the directory and what it holds.
func (d *Dir) Release() {
	if d.lock == nil {
		return
	}
	os.RemoveAll(d.Path)
	d.lock.Close()
	d.lock = nil
}

// Leftover is a directory Sweep removed.
type Leftover struct {
	Path  string
	Bytes int64
}

// Sweep removes the directories prefix-* under parent whose owner no
// longer runs, and those of no owner older than an hour.
func Sweep(parent, prefix string) ([]Leftover, error) {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("scratch: %w", err)
	}
	var out []Leftover
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix+"-") {
			continue
		}
		p := filepath.Join(parent, e.Name())
		if !abandoned(p) {
			continue
		}
		n := sizeOf(p)
		if err := os.RemoveAll(p); err != nil {
			return out, fmt.Errorf("scratch: %w", err)
		}
		out = append(out, Leftover{Path: p, Bytes: n})
	}
	return out, nil
}

// Live tells whether a live process owns dir, a directory Claim made.
func Live(dir string) bool { return !abandoned(dir) }

// abandoned tells whether no live process owns dir.
func abandoned(dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		info, err := os.Stat(dir)
		return err == nil && time.Since(info.ModTime()) > legacyAge
	}
	if err != nil {
		return false
	}
	defer f.Close()
	// The owner's lock ends with its process; taking it proves it gone.
	return lock(f) == nil
}

func sizeOf(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// Files lists the files below parent, every process's, the owners' lock
// files aside: what staging holds (tests check it is left empty).
func Files(parent string) []string {
	var out []string
	_ = filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != ownerFile {
			out = append(out, p)
		}
		return nil
	})
	return out
}
