package blob

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Stride is the distance in code points between two index checkpoints: a
// page read decodes at most Stride characters before its offset.
const Stride = 4096

// indexer follows a byte stream and records the byte offset of every
// Stride-th code point, validating UTF-8 across chunk boundaries.
type indexer struct {
	carry     []byte // an incomplete sequence from the previous chunk
	bytePos   int64  // bytes consumed, excluding carry
	chars     int64
	valid     bool
	nul       bool
	index     []int64
	nextCheck int64
}

func newIndexer() *indexer { return &indexer{valid: true, nextCheck: Stride} }

func (x *indexer) write(chunk []byte) {
	if !x.valid {
		return
	}
	data := chunk
	if len(x.carry) > 0 {
		data = append(x.carry, chunk...)
		x.carry = nil
	}
	// Hold back a trailing incomplete sequence for the next chunk.
	cut := len(data)
	for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				cut = i
			}
			break
		}
	}
	whole := data[:cut]
	if !utf8.Valid(whole) {
		x.valid = false
		return
	}
	if bytes.IndexByte(whole, 0) >= 0 {
		x.nul = true
	}
	n := int64(utf8.RuneCount(whole))
	if x.chars+n >= x.nextCheck {
		x.record(whole)
	}
	x.chars += n
	x.bytePos += int64(cut)
	x.carry = append([]byte(nil), data[cut:]...)
}

// record walks whole rune by rune to find the checkpoints it contains.
func (x *indexer) record(whole []byte) {
	c := x.chars
	for i := 0; i < len(whole); {
		if c == x.nextCheck {
			x.index = append(x.index, x.bytePos+int64(i))
			x.nextCheck += Stride
		}
		_, size := utf8.DecodeRune(whole[i:])
		i += size
		c++
	}
}

func (x *indexer) finish() (valid, nul bool, chars int64, index []int64) {
	if len(x.carry) > 0 {
		x.valid = false
	}
	// A body whose length is a multiple of Stride gets a checkpoint at its end,
	// so a read at offset == length needs no special case.
	if x.chars > 0 && x.chars == x.nextCheck {
		x.index = append(x.index, x.bytePos)
	}
	return x.valid, x.nul, x.chars, x.index
}

// putIndex publishes a blob's checkpoints through a staged file, as the
// bytes themselves are published.
func (s *Store) putIndex(ctx context.Context, hash string, index []int64) error {
	buf := make([]byte, 8*len(index))
	for i, off := range index {
		binary.LittleEndian.PutUint64(buf[8*i:], uint64(off))
	}
	f, err := os.CreateTemp(s.tmp, "index-*")
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.b.Put(ctx, indexKey(hash), f.Name(), int64(len(buf)))
	}
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

// checkpoint returns the byte offset of code point k*Stride (k ≥ 1),
// reading those 8 bytes of the index alone; ok is false when the index
// has no such checkpoint (shorter, or absent: a text shorter than Stride
// has none).
func (s *Store) checkpoint(hash string, k int64) (off int64, ok bool, err error) {
	f, err := s.b.Open(context.Background(), indexKey(hash))
	if errors.Is(err, os.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("open index: %w", err)
	}
	defer f.Close()
	var b [8]byte
	if _, err := f.ReadAt(b[:], 8*(k-1)); errors.Is(err, io.EOF) {
		return 0, false, nil
	} else if err != nil {
		return 0, false, fmt.Errorf("read index: %w", err)
	}
	return int64(binary.LittleEndian.Uint64(b[:])), true, nil
}

// TextFile is an open text blob with its code point checkpoints, for
// readers that count characters from the nearest one instead of from the
// start (the search scanner).
type TextFile struct {
	File
	index []int64
}

// CharIndex returns the checkpoint stride and offsets: offsets[k] is the
// byte where code point (k+1)·Stride starts.
func (f *TextFile) CharIndex() (int64, []int64) { return Stride, f.index }

// OpenText opens a blob with its checkpoints; a blob without an index (not
// valid UTF-8, or shorter than Stride) has none.
func (s *Store) OpenText(hash string) (*TextFile, error) {
	f, err := s.Open(hash)
	if err != nil {
		return nil, err
	}
	raw, err := s.readIndex(hash)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read index: %w", err)
	}
	index := make([]int64, len(raw)/8)
	for i := range index {
		index[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return &TextFile{File: f, index: index}, nil
}

func (s *Store) readIndex(hash string) ([]byte, error) {
	f, err := s.b.Open(context.Background(), indexKey(hash))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
