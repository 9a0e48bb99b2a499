// Package blobtest is the one suite every blob backend passes: the disk
// and a real S3-compatible server run the same cases.
package blobtest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/blob"
)

// Run runs the suite; backend returns a fresh, empty backend for a test.
func Run(t *testing.T, backend func(t *testing.T) blob.Backend) {
	open := func(t *testing.T) (*blob.Store, *Counting) {
		c := &Counting{Backend: backend(t)}
		s, err := blob.OpenWith(t.TempDir(), c)
		if err != nil {
			t.Fatal(err)
		}
		return s, c
	}
	t.Run("RoundTrip", func(t *testing.T) {
		s, _ := open(t)
		rng := rand.New(rand.NewSource(7))
		for _, size := range []int{0, 1, blob.Stride, 3*blob.Stride + 5} {
			text := randomText(rng, size)
			p := put(t, s, text)
			sum := sha256.Sum256([]byte(text))
			if p.Hash != hex.EncodeToString(sum[:]) || p.Size != int64(len(text)) {
				t.Fatalf("size %d: hash %s size %d", size, p.Hash, p.Size)
			}
			f, err := s.Open(p.Hash)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(f)
			f.Close()
			if err != nil || string(got) != text {
				t.Fatalf("size %d: read back %d bytes, err %v", size, len(got), err)
			}
			if !s.Exists(p.Hash) {
				t.Fatalf("size %d: not there after commit", size)
			}
			// Committing the same content again keeps it as it is.
			if err := p.Commit(); err != nil {
				t.Fatal(err)
			}
			p.Abort()
		}
	})
	t.Run("RangesAndSeek", func(t *testing.T) {
		s, _ := open(t)
		text := strings.Repeat("0123456789", 1000)
		p := put(t, s, text)
		f, err := s.Open(p.Hash)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 10)
		if n, err := f.ReadAt(buf, 9995); n != 5 || !errors.Is(err, io.EOF) || string(buf[:5]) != "56789" {
			t.Fatalf("ReadAt at the end: n=%d err=%v %q", n, err, buf[:n])
		}
		if n, err := f.ReadAt(buf, 4321); n != 10 || err != nil || string(buf) != "1234567890" {
			t.Fatalf("ReadAt: n=%d err=%v %q", n, err, buf)
		}
		if _, err := f.Seek(7003, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(f, buf[:4]); err != nil || string(buf[:4]) != "3456" {
			t.Fatalf("after Seek: %q %v", buf[:4], err)
		}
		if _, err := f.Seek(-3, io.SeekEnd); err != nil {
			t.Fatal(err)
		}
		rest, err := io.ReadAll(f)
		if err != nil || string(rest) != "789" {
			t.Fatalf("tail: %q %v", rest, err)
		}
		if st, err := f.Stat(); err != nil || st.Size() != int64(len(text)) {
			t.Fatalf("Stat: %v %v", st, err)
		}
	})
	t.Run("ReadCharsFetchesOnlyThePage", func(t *testing.T) {
		s, c := open(t)
		rng := rand.New(rand.NewSource(3))
		text := randomText(rng, 2<<20) // 2 MiB of mixed-width characters
		runes := []rune(text)
		p := put(t, s, text)
		off := int64(len(runes) - 5000)
		c.read.Store(0)
		got, err := s.ReadChars(p.Hash, off, 3000)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(runes[off:off+3000]) {
			t.Fatalf("page differs: %d runes", len([]rune(got)))
		}
		// The page starts at most Stride characters after a checkpoint; a
		// character is at most 4 bytes, plus the 64 KiB read buffer.
		if n := c.read.Load(); n > 4*(blob.Stride+3000)+64<<10 {
			t.Fatalf("a page read fetched %d bytes of a %d-byte blob", n, len(text))
		}
		tf, err := s.OpenText(p.Hash)
		if err != nil {
			t.Fatal(err)
		}
		stride, idx := tf.CharIndex()
		tf.Close()
		if stride != blob.Stride || int64(len(idx)) != int64(len(runes))/blob.Stride {
			t.Fatalf("index: stride %d, %d checkpoints for %d runes", stride, len(idx), len(runes))
		}
	})
	t.Run("MissingIsNotExist", func(t *testing.T) {
		s, _ := open(t)
		if _, err := s.Open(strings.Repeat("ab", 32)); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("open missing: %v", err)
		}
		if s.Exists(strings.Repeat("ab", 32)) {
			t.Fatal("missing blob exists")
		}
		if err := s.Remove(strings.Repeat("ab", 32)); err != nil {
			t.Fatalf("remove missing: %v", err)
		}
	})
	t.Run("RemoveTakesIndexToo", func(t *testing.T) {
		s, c := open(t)
		p := put(t, s, strings.Repeat("x", 2*blob.Stride))
		if err := s.Remove(p.Hash); err != nil {
			t.Fatal(err)
		}
		if s.Exists(p.Hash) {
			t.Fatal("still there")
		}
		if keys := c.keys(t); len(keys) != 0 {
			t.Fatalf("left behind: %v", keys)
		}
	})
	t.Run("SweepOffersOldBlobsOnly", func(t *testing.T) {
		s, _ := open(t)
		a := put(t, s, strings.Repeat("a", blob.Stride+1))
		b := put(t, s, "b")
		var offered []string
		free := func(_ context.Context, hs []string) (int, error) {
			offered = append(offered, hs...)
			for _, h := range hs {
				if h == a.Hash {
					if err := s.Remove(h); err != nil {
						return 0, err
					}
				}
			}
			return 1, nil
		}
		if n, err := s.Sweep(context.Background(), time.Hour, free); err != nil || n != 0 || len(offered) != 0 {
			t.Fatalf("young blobs offered: %v %d %v", offered, n, err)
		}
		n, err := s.Sweep(context.Background(), -time.Hour, free)
		if err != nil || n != 1 {
			t.Fatalf("sweep: %d %v", n, err)
		}
		sort.Strings(offered)
		want := []string{a.Hash, b.Hash}
		sort.Strings(want)
		if strings.Join(offered, ",") != strings.Join(want, ",") {
			t.Fatalf("offered %v, want %v (index files are not blobs)", offered, want)
		}
		hs, err := s.Hashes()
		if err != nil || len(hs) != 1 || hs[0] != b.Hash {
			t.Fatalf("Hashes after sweep: %v %v", hs, err)
		}
	})
	t.Run("LargeUploadStreams", func(t *testing.T) {
		if testing.Short() {
			t.Skip("short")
		}
		s, _ := open(t)
		// Larger than one S3 part, so it goes up in parts.
		const size = 40 << 20
		p, err := s.Put(io.LimitReader(zeroes{}, size), size)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Abort()
		if err := p.Commit(); err != nil {
			t.Fatal(err)
		}
		f, err := s.Open(p.Hash)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sum := sha256.New()
		if n, err := io.Copy(sum, f); err != nil || n != size || hex.EncodeToString(sum.Sum(nil)) != p.Hash {
			t.Fatalf("read back %d bytes: %v", n, err)
		}
	})
}

type zeroes struct{}

func (zeroes) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func put(t *testing.T, s *blob.Store, text string) *blob.Pending {
	t.Helper()
	p, err := s.Put(strings.NewReader(text), 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Abort)
	return p
}

func randomText(rng *rand.Rand, n int) string {
	alphabet := []string{"a", "Z", " ", "\n", "é", "中", "😀", "e\u0301"}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(alphabet[rng.Intn(len(alphabet))])
	}
	return b.String()
}

// Counting wraps a backend and counts the bytes read from it, to show
// that a page read fetches a page and not the blob.
type Counting struct {
	blob.Backend
	read atomic.Int64
}

func (c *Counting) Open(ctx context.Context, key string) (blob.File, error) {
	f, err := c.Backend.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	return &countingFile{File: f, n: &c.read}, nil
}

func (c *Counting) keys(t *testing.T) []string {
	var out []string
	if err := c.List(context.Background(), func(k string, _ blob.ObjectInfo) error {
		out = append(out, k)
		return nil
	}); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

type countingFile struct {
	blob.File
	n *atomic.Int64
}

func (f *countingFile) Read(p []byte) (int, error) {
	n, err := f.File.Read(p)
	f.n.Add(int64(n))
	return n, err
}

func (f *countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := f.File.ReadAt(p, off)
	f.n.Add(int64(n))
	return n, err
}
