package knowledge

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Case-insensitive matching folds text and query to one representative per
// Unicode simple case-folding orbit (the smallest rune of it: 'K' for k, K
// and the Kelvin sign). Simple folding maps one rune to one rune, so code
// point offsets in the folded text are offsets in the original text.

// foldTable holds the representative of every BMP rune; it is built on
// first use (a few milliseconds).
var foldTable = sync.OnceValue(func() []rune {
	t := make([]rune, 0x10000)
	for r := range t {
		t[r] = foldSlow(rune(r))
	}
	return t
})

func foldSlow(r rune) rune {
	m := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		m = min(m, f)
	}
	return m
}

func foldRune(r rune) rune {
	if r < 0x10000 {
		return foldTable()[r]
	}
	return foldSlow(r)
}

// asciiFold maps ASCII bytes: the representative of a Latin letter's orbit
// is its upper-case form.
var asciiFold = func() (t [128]byte) {
	for i := range t {
		t[i] = byte(foldRune(rune(i)))
	}
	return t
}()

// foldAppend appends the folded form of src to dst and returns it with the
// number of code points of src (an invalid byte counts as one, as when
// reading with bufio.ReadRune).
func foldAppend(dst, src []byte) ([]byte, int64) {
	const hi = 0x8080808080808080
	table := foldTable()
	var n int64
	for i := 0; i < len(src); {
		if i+8 <= len(src) {
			w := binary.LittleEndian.Uint64(src[i:])
			if w&hi == 0 {
				// Eight ASCII bytes: upper-case a–z in one go. Adding 0x1f
				// sets a byte's top bit when it is ≥ 'a', adding 0x05 when it
				// is > 'z'; no byte carries into the next as all are < 0x80.
				lower := (w + 0x1f1f1f1f1f1f1f1f) &^ (w + 0x0505050505050505) & hi
				dst = binary.LittleEndian.AppendUint64(dst, w-lower>>2)
				i += 8
				n += 8
				continue
			}
		}
		c := src[i]
		if c < utf8.RuneSelf {
			dst = append(dst, asciiFold[c])
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r < 0x10000 {
			r = table[r]
		} else {
			r = foldSlow(r)
		}
		dst = utf8.AppendRune(dst, r)
		i += size
		n++
	}
	return dst, n
}

// foldQuery prepares a query: NFC (the form uploads and names mostly use),
// then folded.
func foldQuery(q string) ([]byte, int64) {
	return foldAppend(nil, []byte(norm.NFC.String(q)))
}

// completePrefix is the length of buf without a trailing incomplete UTF-8
// sequence, which the next chunk completes.
func completePrefix(buf []byte) int {
	for i := len(buf) - 1; i >= 0 && i >= len(buf)-utf8.UTFMax; i-- {
		if utf8.RuneStart(buf[i]) {
			if !utf8.FullRune(buf[i:]) {
				return i
			}
			break
		}
	}
	return len(buf)
}

// runeCursor converts code point indexes to byte offsets in b, walking
// forward from the last answer; an all-single-byte buffer needs no walk.
type runeCursor struct {
	b           []byte
	single      bool
	byte_, char int64
}

func newRuneCursor(b []byte, runes int64) runeCursor {
	return runeCursor{b: b, single: runes == int64(len(b))}
}

func (c *runeCursor) byteAt(char int64) int64 {
	if c.single {
		return char
	}
	if char < c.char {
		c.byte_, c.char = 0, 0
	}
	for c.char < char && c.byte_ < int64(len(c.b)) {
		_, size := utf8.DecodeRune(c.b[c.byte_:])
		c.byte_ += int64(size)
		c.char++
	}
	return c.byte_
}

// scanPos is where a scan starts: a byte offset at a code point boundary,
// the code point index there, and the first code point at which a match may
// start (matches already reported end before it).
type scanPos struct {
	Byte, Char, Accept int64
}

type scanHit struct {
	Offset  int64
	Snippet string
}

type scanOut struct {
	hits   []scanHit
	more   bool     // another match exists after the hits; the scan stopped there
	read   int64    // bytes read from the blob
	resume *scanPos // set when the byte budget ran out inside the file
}

// fileScanner finds a folded query in a text blob read in chunks. Each
// chunk is searched together with a carry from the previous one, so a
// match across a chunk boundary is found once, with its full snippet.
type fileScanner struct {
	fq      []byte
	qRunes  int64
	radius  int64 // snippet context on each side, in code points
	chunk   int
	buf     []byte
	folded  []byte
	scratch strings.Builder
}

func newFileScanner(query string, radius int64, chunk int) *fileScanner {
	fq, n := foldQuery(query)
	return &fileScanner{fq: fq, qRunes: n, radius: radius, chunk: chunk}
}

// scan reads f (size bytes) from start and returns up to maxHits matches.
// It stops before reading a chunk that would take it past budget bytes,
// unless it has read nothing yet (every call makes progress).
func (s *fileScanner) scan(ctx context.Context, f io.ReaderAt, size int64, start scanPos, maxHits int, budget int64) (scanOut, error) {
	var out scanOut
	q, r := s.qRunes, s.radius
	buf := s.buf[:0]
	defer func() { s.buf = buf[:0] }()
	bufByte0, bufChar0 := start.Byte, start.Char
	accept := max(start.Accept, start.Char)
	pos := start.Byte
	for {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		if out.read > 0 && out.read+int64(s.chunk) > budget {
			out.resume = &scanPos{Byte: bufByte0, Char: bufChar0, Accept: accept}
			return out, nil
		}
		n := int(min(int64(s.chunk), size-pos))
		old := len(buf)
		buf = slices.Grow(buf, n)[:old+n]
		if m, err := f.ReadAt(buf[old:], pos); m < n {
			return out, fmt.Errorf("read blob at %d: %w", pos, err)
		}
		pos += int64(n)
		out.read += int64(n)
		eof := pos >= size
		work := buf
		if !eof {
			work = buf[:completePrefix(buf)]
		}
		var runes int64
		s.folded, runes = foldAppend(s.folded[:0], work)
		// A match may start before hi only when its whole snippet lies in
		// this buffer; later ones are found again in the next buffer.
		hi := runes - (q + r)
		if eof {
			hi = runes
		}
		orig := newRuneCursor(work, runes)
		if lo := accept - bufChar0; lo < hi {
			fc := newRuneCursor(s.folded, runes)
			fpos := fc.byteAt(lo)
			at := lo
			for {
				i := bytes.Index(s.folded[fpos:], s.fq)
				if i < 0 {
					break
				}
				if fc.single {
					at += int64(i)
				} else {
					at += int64(utf8.RuneCount(s.folded[fpos : fpos+int64(i)]))
				}
				if at >= hi {
					break
				}
				if len(out.hits) == maxHits {
					out.more = true
					return out, nil
				}
				out.hits = append(out.hits, scanHit{Offset: bufChar0 + at, Snippet: s.snippet(&orig, runes, at, bufChar0 > 0)})
				fpos += int64(i + len(s.fq))
				at += q
				accept = bufChar0 + at
			}
		}
		if eof {
			return out, nil
		}
		keep := max(0, hi-r)
		accept = max(accept, bufChar0+hi)
		kb := orig.byteAt(keep)
		bufByte0 += kb
		bufChar0 += keep
		buf = append(buf[:0], buf[kb:]...)
	}
}

// snippet renders the match at code point at with radius code points of
// context on each side, the match between « and », line breaks and other
// control characters as spaces.
func (s *fileScanner) snippet(c *runeCursor, runes, at int64, textBefore bool) string {
	from, to := max(0, at-s.radius), min(runes, at+s.qRunes+s.radius)
	b0, b1, b2, b3 := c.byteAt(from), c.byteAt(at), c.byteAt(at+s.qRunes), c.byteAt(to)
	sb := &s.scratch
	sb.Reset()
	if from > 0 || textBefore {
		sb.WriteString("…")
	}
	writeClean(sb, c.b[b0:b1])
	sb.WriteString("«")
	writeClean(sb, c.b[b1:b2])
	sb.WriteString("»")
	writeClean(sb, c.b[b2:b3])
	if to < runes {
		sb.WriteString("…")
	}
	return sb.String()
}

func writeClean(sb *strings.Builder, b []byte) {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if unicode.IsControl(r) {
			r = ' '
		}
		sb.WriteRune(r)
		b = b[size:]
	}
}
