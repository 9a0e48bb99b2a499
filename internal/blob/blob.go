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
	// BeforeRemove, when set, runs just before Remove deletes a blob's
	// bytes. Tests use it to interleave an upload deterministically.
	BeforeRemove func(hash string)
}

// Open prepares the blob directories under dataDir.
func Open(dataDir string) (*Store, error) {
	s := &Store{dir: filepath.Join(dataDir, "blobs"), tmp: filepath.Join(dataDir, "tmp")}
	for _, d := range []string{s.dir, s.tmp} {
		if err := os.MkdirAll(d, 0o700); err != nil {
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
}

// Put streams r into the staging area, hashing and indexing it; more than
// limit bytes gives ErrTooLarge and leaves nothing behind.
func (s *Store) Put(r io.Reader, limit int64) (*Pending, error) {
	f, err := os.CreateTemp(s.tmp, "upload-*") // 0600
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

// Commit makes the blob visible under its hash; content already stored is
// kept as it is. The caller holds the hash's lock (store.LockBlobs) so no
// collection removes the bytes before the row naming them commits. The
// staged copy stays until Abort, so a transaction that is retried can
// commit again.
func (p *Pending) Commit() error {
	final := p.s.path(p.Hash)
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return err
	}
	if _, err := os.Stat(final); err == nil {
		return p.ensureIndex(final)
	}
	if err := p.ensureIndex(final); err != nil {
		return err
	}
	// A hard link publishes the staged bytes atomically and keeps them
	// staged; a file system without links gets a copy through a rename.
	if err := os.Link(p.tmpPath, final); err != nil && !errors.Is(err, os.ErrExist) {
		if cerr := copyInto(p.tmpPath, final, p.s.tmp); cerr != nil {
			return fmt.Errorf("commit blob: %w", cerr)
		}
	}
	return nil
}

func (p *Pending) ensureIndex(final string) error {
	if !p.ValidUTF8 || p.HasNUL {
		return nil
	}
	if _, err := os.Stat(final + ".idx"); err == nil {
		return nil
	}
	return writeIndex(final+".idx", p.index)
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

// Abort discards the staged copy (committed bytes stay).
func (p *Pending) Abort() { os.Remove(p.tmpPath) }

// Open returns the staged bytes, readable until Abort.
func (p *Pending) Open() (*os.File, error) { return os.Open(p.tmpPath) }

// Open returns the bytes of a stored blob.
func (s *Store) Open(hash string) (*os.File, error) {
	return os.Open(s.path(hash))
}

// Exists tells whether a blob's bytes are stored.
func (s *Store) Exists(hash string) bool {
	_, err := os.Stat(s.path(hash))
	return err == nil
}

// Remove deletes a blob's bytes. The caller holds the hash's lock and has
// seen that nothing references it (knowledge.Tree.FreeBlobs).
func (s *Store) Remove(hash string) error {
	p := s.path(hash)
	if s.BeforeRemove != nil {
		s.BeforeRemove(hash)
	}
	os.Remove(p + ".idx")
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// StagingMaxAge is how old a staged file must be before CleanStaging takes
// it for a crash leftover rather than an upload in flight.
const StagingMaxAge = time.Hour

// CleanStaging removes staged files older than maxAge; recent ones may be
// uploads in flight, here or on another replica sharing the data directory.
// It returns how many it removed.
func (s *Store) CleanStaging(maxAge time.Duration) int {
	entries, _ := os.ReadDir(s.tmp)
	n := 0
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > maxAge {
			if os.Remove(filepath.Join(s.tmp, e.Name())) == nil {
				n++
			}
		}
	}
	return n
}

func (s *Store) path(hash string) string {
	if len(hash) < 2 {
		return filepath.Join(s.dir, "_", hash)
	}
	return filepath.Join(s.dir, hash[:2], hash)
}

// StagedName is the staged copy's name in the staging area, which every
// replica sharing the data directory sees: a job can name it to a worker
// elsewhere (OpenStaged, RemoveStaged).
func (p *Pending) StagedName() string { return filepath.Base(p.tmpPath) }

// OpenStaged opens a staged copy by its StagedName.
func (s *Store) OpenStaged(name string) (*os.File, error) {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
		return nil, fmt.Errorf("bad staged name %q", name)
	}
	return os.Open(filepath.Join(s.tmp, name))
}

// RemoveStaged discards a staged copy by its StagedName.
func (s *Store) RemoveStaged(name string) {
	if name != "" && name == filepath.Base(name) && name != "." && name != ".." {
		os.Remove(filepath.Join(s.tmp, name))
	}
}
