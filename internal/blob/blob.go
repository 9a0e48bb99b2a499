// Package blob keeps file bytes addressed by their SHA-256, with a sparse
// character index beside each text blob so a page of a large body can be
// read without scanning the body from the start. The bytes live in a
// Backend: the local disk (default) or an S3-compatible object store.
package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/scratch"
)

// ErrTooLarge means the input passed the limit given to Put.
var ErrTooLarge = errors.New("blob exceeds size limit")

// Store is a set of content-addressed blobs in a backend, staged on disk.
type Store struct {
	b   Backend
	dir string // the disk backend's blobs/<aa>/<hash>, blobs/<aa>/<hash>.idx
	// tmp is this process's staging area, a scratch directory under
	// staging (on the same file system, so rename is atomic).
	tmp     string
	staging string
	own     *scratch.Dir
	// BeforeRemove, when set, runs just before Remove deletes a blob's
	// bytes. Tests use it to interleave an upload deterministically.
	BeforeRemove func(hash string)
}

// Open prepares the blob directories under dataDir, with the blobs on
// the local disk.
func Open(dataDir string) (*Store, error) {
	return OpenWith(dataDir, nil)
}

// OpenWith stages under dataDir and publishes to b; a nil b is the disk
// under dataDir/blobs.
func OpenWith(dataDir string, b Backend) (*Store, error) {
	s := &Store{staging: filepath.Join(dataDir, "tmp")}
	own, err := scratch.Claim(s.staging, stagingPrefix)
	if err != nil {
		return nil, fmt.Errorf("blob staging: %w", err)
	}
	s.own, s.tmp = own, own.Path
	if b == nil {
		s.dir = filepath.Join(dataDir, "blobs")
		b = NewDisk(s.dir, s.tmp)
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			own.Release()
			return nil, fmt.Errorf("blob dir: %w", err)
		}
	}
	s.b = b
	return s, nil
}

// stagingPrefix names each process's staging directory under tmp/.
const stagingPrefix = "proc"

// Close removes this process's staging directory; what a crash leaves
// there, the next CleanStaging removes.
func (s *Store) Close() { s.own.Release() }

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
	// synced is set once the staged bytes are on disk (Put; PutLater
	// leaves it to Sync).
	synced bool
}

// Put streams r into the staging area, hashing and indexing it, and
// flushes it to disk, so that no transaction committing it waits for
// the disk; more than limit bytes gives ErrTooLarge and leaves nothing
// behind.
func (s *Store) Put(r io.Reader, limit int64) (*Pending, error) {
	p, err := s.PutLater(r, limit)
	if err != nil {
		return nil, err
	}
	if err := Sync(p); err != nil {
		p.Abort()
		return nil, err
	}
	return p, nil
}

// stageBufs are PutLater's read buffers: an archive import stages
// thousands of small files, and a fresh 256 KiB buffer each, zeroed and
// soon garbage, cost more than most of them hold.
var stageBufs = sync.Pool{New: func() any { return new([256 << 10]byte) }}

// PutLater is Put without the flush: for many files staged together,
// which the caller flushes with one Sync before the transaction that
// commits them (Commit flushes what it was not given).
func (s *Store) PutLater(r io.Reader, limit int64) (*Pending, error) {
	f, err := os.CreateTemp(s.tmp, "upload-*") // 0600
	if err != nil {
		return nil, fmt.Errorf("stage blob: %w", err)
	}
	p := &Pending{s: s, tmpPath: f.Name()}
	h := sha256.New()
	ix := newIndexer()
	pooled := stageBufs.Get().(*[256 << 10]byte)
	defer stageBufs.Put(pooled)
	buf := pooled[:]
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
	ctx := context.Background()
	if err := Sync(p); err != nil {
		return err
	}
	if _, err := p.s.b.Stat(ctx, blobKey(p.Hash)); err == nil {
		return p.ensureIndex(ctx)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("commit blob: %w", err)
	}
	// The index goes first: a blob that is visible always has its index.
	if err := p.ensureIndex(ctx); err != nil {
		return err
	}
	if err := p.s.b.Put(ctx, blobKey(p.Hash), p.tmpPath, p.Size); err != nil {
		return fmt.Errorf("commit blob: %w", err)
	}
	return nil
}

func (p *Pending) ensureIndex(ctx context.Context) error {
	// A text shorter than Stride has no checkpoint: no index file, which
	// readers take as none (most files of a library: a file create saved
	// for each).
	if !p.ValidUTF8 || p.HasNUL || len(p.index) == 0 {
		return nil
	}
	if _, err := p.s.b.Stat(ctx, indexKey(p.Hash)); err == nil {
		return nil
	}
	return p.s.putIndex(ctx, p.Hash, p.index)
}

// Abort discards the staged copy (committed bytes stay).
func (p *Pending) Abort() { os.Remove(p.tmpPath) }

// Open returns the staged bytes, readable until Abort.
func (p *Pending) Open() (*os.File, error) { return os.Open(p.tmpPath) }

// Open returns the bytes of a stored blob.
func (s *Store) Open(hash string) (File, error) {
	return s.b.Open(context.Background(), blobKey(hash))
}

// Exists tells whether a blob's bytes are stored.
func (s *Store) Exists(hash string) bool {
	_, err := s.b.Stat(context.Background(), blobKey(hash))
	return err == nil
}

// Remove deletes a blob's bytes. The caller holds the hash's lock and has
// seen that nothing references it (knowledge.Tree.FreeBlobs).
func (s *Store) Remove(hash string) error {
	ctx := context.Background()
	if s.BeforeRemove != nil {
		s.BeforeRemove(hash)
	}
	s.b.Delete(ctx, indexKey(hash))
	return s.b.Delete(ctx, blobKey(hash))
}

// StagingMaxAge is how old a file staged by an older version (in tmp/
// itself, with no owner to ask) must be before CleanStaging takes it for a
// crash leftover rather than an upload in flight.
const StagingMaxAge = time.Hour

// CleanStaging removes what crashed processes staged: the staging
// directories whose process no longer runs (here or on another replica
// sharing the data directory), whatever their age, and files of older
// versions past maxAge. It returns what it removed, and the error that
// stopped the sweep of directories.
func (s *Store) CleanStaging(maxAge time.Duration) ([]scratch.Leftover, error) {
	out, err := scratch.Sweep(s.staging, stagingPrefix)
	entries, _ := os.ReadDir(s.staging)
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || e.IsDir() || time.Since(info.ModTime()) <= maxAge {
			continue
		}
		p := filepath.Join(s.staging, e.Name())
		if os.Remove(p) == nil {
			out = append(out, scratch.Leftover{Path: p, Bytes: info.Size()})
		}
	}
	return out, err
}

// path is where the disk backend keeps a blob (tests).
func (s *Store) path(hash string) string {
	return filepath.Join(s.dir, filepath.FromSlash(blobKey(hash)))
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
	if f, err := os.Open(filepath.Join(s.tmp, name)); !errors.Is(err, os.ErrNotExist) {
		return f, err
	}
	// Staged by an older version, in tmp/ itself.
	return os.Open(filepath.Join(s.staging, name))
}

// RemoveStaged discards a staged copy by its StagedName.
func (s *Store) RemoveStaged(name string) {
	if name != "" && name == filepath.Base(name) && name != "." && name != ".." {
		os.Remove(filepath.Join(s.tmp, name))
		os.Remove(filepath.Join(s.staging, name))
	}
}
