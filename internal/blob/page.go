package blob

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ReadChars returns up to limit code points of a text blob starting at code
// point offset. Its cost is bounded by Stride+limit characters, whatever the
// size of the blob.
func (s *Store) ReadChars(hash string, offset, limit int64) (string, error) {
	var start int64
	k := offset / Stride
	if k > 0 {
		var ok bool
		var err error
		if start, ok, err = s.checkpoint(hash, k); err != nil {
			return "", err
		}
		if !ok {
			// No such checkpoint: a text shorter than the offset, or one
			// whose index is lost. Counting from the start is right for
			// both, and short for the first.
			k, start = 0, 0
		}
	}
	f, err := s.Open(hash)
	if err != nil {
		return "", fmt.Errorf("open blob: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(start, io.SeekStart); err != nil {
		return "", err
	}
	r := bufio.NewReaderSize(f, 64<<10)
	for skip := offset - k*Stride; skip > 0; skip-- {
		if _, _, err := r.ReadRune(); err != nil {
			if err == io.EOF {
				return "", nil
			}
			return "", err
		}
	}
	var b strings.Builder
	for n := int64(0); n < limit; n++ {
		ch, _, err := r.ReadRune()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		b.WriteRune(ch)
	}
	return b.String(), nil
}
