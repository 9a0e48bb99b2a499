// Package blob keeps file bytes on disk, addressed by their SHA-256, with a
// sparse character index beside each text blob so a page of a large body can
// be read without scanning the body from the start.
package blob

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// ErrTooLarge means the input passed the limit given to Put.
var ErrTooLarge = errors.New("blob exceeds size limit")

// Store is a directory of content-addressed blobs.
type Store struct {
	dir string // blobs/<aa>/<hash>, blobs/<aa>/<hash>.idx
	tmp string // staging area on the same file system, so rename is atomic
}

// Open prepares the blob directories under dataDir.
func Open(dataDir string) (*Store, error) {
	s := &Store{dir: filepath.Join(dataDir, "blobs"), tmp: filepath.Join(dataDir, "tmp")}
	for _, d := range []string{s.dir, s.tmp} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, fmt.Errorf("blob dir: %w", err)
		}
	}
	return s, nil
}

// Info describes a blob's bytes as seen while it was written.
type Info struct {
	Hash      string
	Size      int64
	ValidUTF8 bool
	HasNUL    bool
	Chars     int64  // code points; meaningful only when ValidUTF8
	Head      []byte // first bytes, for content sniffing
}

// Pending is a blob written to the staging area but not yet visible.
type Pending struct {
	Info
	s       *Store
	tmpPath string
	index   []int64
	created os.FileInfo // set by Commit when this blob was new
}

// Put streams r into the staging area, hashing and indexing it; more than
// limit bytes gives ErrTooLarge and leaves nothing behind.
func (s *Store) Put(r io.Reader, limit int64) (*Pending, error) {
	f, err := os.CreateTemp(s.tmp, "upload-*")
	if err != nil {
		return nil, fmt.Errorf("stage blob: %w", err)
	}
	p := &Pending{s: s, tmpPath: f.Name()}
	h := sha256.New()
	ix := newIndexer()
	buf := make([]byte, 256<<10)
	var size int64
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			size += int64(n)
			if size > limit {
				f.Close()
				os.Remove(p.tmpPath)
				return nil, ErrTooLarge
			}
			chunk := buf[:n]
			h.Write(chunk)
			ix.write(chunk)
			if len(p.Head) < 512 {
				p.Head = append(p.Head, chunk[:min(len(chunk), 512-len(p.Head))]...)
			}
			if _, err := f.Write(chunk); err != nil {
				f.Close()
				os.Remove(p.tmpPath)
				return nil, fmt.Errorf("stage blob: %w", err)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			f.Close()
			os.Remove(p.tmpPath)
			return nil, fmt.Errorf("read upload: %w", rerr)
		}
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(p.tmpPath)
		return nil, fmt.Errorf("stage blob: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(p.tmpPath)
		return nil, fmt.Errorf("stage blob: %w", err)
	}
	p.Hash = hex.EncodeToString(h.Sum(nil))
	p.Size = size
	p.ValidUTF8, p.HasNUL, p.Chars, p.index = ix.finish()
	return p, nil
}

// Commit makes the blob visible under its hash. Committing content that is
// already stored just drops the staged copy.
func (p *Pending) Commit() error {
	final := p.s.path(p.Hash)
	if err := os.MkdirAll(filepath.Dir(final), 0o750); err != nil {
		return err
	}
	if p.ValidUTF8 && !p.HasNUL {
		if err := writeIndex(final+".idx", p.index); err != nil {
			return err
		}
	}
	_, existed := os.Stat(final)
	// Renaming over an existing identical blob refreshes its mtime, which
	// protects it from a concurrent garbage collection (see Remove).
	if err := os.Rename(p.tmpPath, final); err != nil {
		os.Remove(p.tmpPath)
		return fmt.Errorf("commit blob: %w", err)
	}
	if existed != nil {
		p.created, _ = os.Stat(final)
	}
	return nil
}

// Undo removes a blob this Pending created, after the rows that were to
// reference it failed to commit. A blob that another upload has committed
// again since (a new file under the same name) is left alone.
func (p *Pending) Undo() {
	if p.created == nil {
		return
	}
	final := p.s.path(p.Hash)
	if now, err := os.Stat(final); err == nil && os.SameFile(now, p.created) {
		os.Remove(final + ".idx")
		os.Remove(final)
	}
	p.created = nil
}

// Abort discards a staged blob.
func (p *Pending) Abort() { os.Remove(p.tmpPath) }

// Open returns the bytes of a stored blob.
func (s *Store) Open(hash string) (*os.File, error) {
	return os.Open(s.path(hash))
}

// gcGrace keeps recently written blobs from collection: an upload commits the
// blob before the row that references it.
const gcGrace = 10 * time.Minute

// Remove deletes a blob no row references any more, unless it was written in
// the last few minutes.
func (s *Store) Remove(hash string) error {
	p := s.path(hash)
	st, err := os.Stat(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	if time.Since(st.ModTime()) < gcGrace {
		return nil
	}
	os.Remove(p + ".idx")
	return os.Remove(p)
}

// CleanStaging removes staged files a crash left behind; recent ones may be
// uploads in flight on another replica sharing the data directory.
func (s *Store) CleanStaging() {
	entries, _ := os.ReadDir(s.tmp)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.Remove(filepath.Join(s.tmp, e.Name()))
		}
	}
}

func (s *Store) path(hash string) string {
	if len(hash) < 2 {
		return filepath.Join(s.dir, "_", hash)
	}
	return filepath.Join(s.dir, hash[:2], hash)
}
