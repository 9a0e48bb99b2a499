package knowledge

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
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

// foldMark ties a code point index to its byte offsets in the source and
// in the folded text, at a rune boundary.
type foldMark struct {
	char, src, folded int64
}

// foldMarkEvery is the distance in folded bytes between two marks: finding
// a hit's code point offset then decodes at most this many bytes.
const foldMarkEvery = 4096

// foldAppend appends the folded form of src to dst and returns it with the
// number of code points of src (an invalid byte counts as one, as when
// reading with bufio.ReadRune); marks, when not nil, gets a foldMark about
// every foldMarkEvery bytes.
func foldAppend(dst, src []byte, marks *[]foldMark) ([]byte, int64) {
	const hi = 0x8080808080808080
	table := foldTable()
	dst = slices.Grow(dst, len(src))
	base := len(dst)
	next := foldMarkEvery
	var n int64
	for i := 0; i < len(src); {
		if marks != nil && len(dst)-base >= next {
			*marks = append(*marks, foldMark{char: n, src: int64(i), folded: int64(len(dst) - base)})
			next += foldMarkEvery
		}
		if i+8 <= len(src) {
			w := binary.LittleEndian.Uint64(src[i:])
			if m := w & hi; m != 0 {
				// Fold the ASCII bytes before the first multi-byte one.
				k := bits.TrailingZeros64(m) / 8
				for _, c := range src[i : i+k] {
					dst = append(dst, asciiFold[c])
				}
				i += k
				n += int64(k)
			} else {
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
		f := r
		if r < 0x10000 {
			f = table[r]
		} else {
			f = foldSlow(r)
		}
		if f == r && size > 1 {
			dst = append(dst, src[i:i+size]...) // most non-Latin text has no case
		} else {
			dst = utf8.AppendRune(dst, f)
		}
		i += size
		n++
	}
	return dst, n
}

// caseless reports whether no rune of the folded query has another case,
// so the raw text can be searched without folding it.
func caseless(fq []byte) bool {
	for _, r := range string(fq) {
		if unicode.SimpleFold(r) != r {
			return false
		}
	}
	return true
}

// foldQuery prepares a query: NFC (the form uploads and names mostly use),
// then folded.
func foldQuery(q string) ([]byte, int64) {
	return foldAppend(nil, []byte(norm.NFC.String(q)), nil)
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

// runeCursor converts between code point indexes and byte offsets in b,
// from the nearest fold mark or from its last answer, whichever is closer;
// an all-single-byte buffer needs no walk at all.
type runeCursor struct {
	b         []byte
	single    bool
	marks     []foldMark
	folded    bool // b is the folded text (else the source)
	pos, char int64
}

func newRuneCursor(b []byte, runes int64, marks []foldMark, folded bool) runeCursor {
	return runeCursor{b: b, single: runes == int64(len(b)), marks: marks, folded: folded}
}

func (c *runeCursor) markPos(m foldMark) int64 {
	if c.folded {
		return m.folded
	}
	return m.src
}

func (c *runeCursor) byteAt(char int64) int64 {
	if c.single {
		return char
	}
	if char < c.char {
		c.pos, c.char = 0, 0
	}
	if i := sort.Search(len(c.marks), func(i int) bool { return c.marks[i].char > char }) - 1; i >= 0 && c.marks[i].char > c.char {
		c.pos, c.char = c.markPos(c.marks[i]), c.marks[i].char
	}
	for c.char < char && c.pos < int64(len(c.b)) {
		_, size := utf8.DecodeRune(c.b[c.pos:])
		c.pos += int64(size)
		c.char++
	}
	return c.pos
}

func (c *runeCursor) charAt(pos int64) int64 {
	if c.single {
		return pos
	}
	if pos < c.pos {
		c.pos, c.char = 0, 0
	}
	if i := sort.Search(len(c.marks), func(i int) bool { return c.markPos(c.marks[i]) > pos }) - 1; i >= 0 && c.markPos(c.marks[i]) > c.pos {
		c.pos, c.char = c.markPos(c.marks[i]), c.marks[i].char
	}
	c.char += int64(utf8.RuneCount(c.b[c.pos:pos]))
	c.pos = pos
	return c.char
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
	plain   bool  // the query has no cased rune: search the raw bytes
	radius  int64 // snippet context on each side, in code points
	chunk   int
	buf     []byte
	folded  []byte
	marks   []foldMark
	scratch strings.Builder
}

func newFileScanner(query string, radius int64, chunk int) *fileScanner {
	fq, n := foldQuery(query)
	return &fileScanner{fq: fq, qRunes: n, plain: caseless(fq), radius: radius, chunk: chunk}
}

// scan reads f (size bytes) from start and returns up to maxHits matches.
// It stops before reading a chunk that would take it past budget bytes,
// unless it has not yet made progress (every call moves the position).
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
		// Stop only once the resume point has moved, so that a chain of
		// pages always ends even when the carry is as long as a chunk.
		if out.read > 0 && out.read+int64(s.chunk) > budget && bufByte0 > start.Byte {
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
		folded := work
		s.marks = s.marks[:0]
		if s.plain {
			runes = int64(utf8.RuneCount(work))
		} else {
			s.folded, runes = foldAppend(s.folded[:0], work, &s.marks)
			folded = s.folded
		}
		// A match may start before hi only when its whole snippet lies in
		// this buffer; later ones are found again in the next buffer.
		hi := runes - (q + r)
		if eof {
			hi = runes
		}
		orig := newRuneCursor(work, runes, s.marks, false)
		if lo := accept - bufChar0; lo < hi {
			fc := newRuneCursor(folded, runes, s.marks, true)
			fpos := fc.byteAt(lo)
			for {
				i := bytes.Index(folded[fpos:], s.fq)
				if i < 0 {
					break
				}
				p := fpos + int64(i)
				at := fc.charAt(p)
				if at >= hi {
					break
				}
				if len(out.hits) == maxHits {
					out.more = true
					return out, nil
				}
				out.hits = append(out.hits, scanHit{Offset: bufChar0 + at, Snippet: s.snippet(&orig, runes, at, bufChar0 > 0)})
				fpos = p + int64(len(s.fq))
				accept = bufChar0 + at + q
			}
		}
		if eof {
			return out, nil
		}
		keep := max(0, hi-r)
		accept = max(accept, bufChar0+hi)
		kb := tailByte(work, runes, keep)
		bufByte0 += kb
		bufChar0 += keep
		buf = append(buf[:0], buf[kb:]...)
	}
}

// tailByte is the byte offset of code point keep in b (runes long),
// walking back from the end: the carry is short, the chunk long.
func tailByte(b []byte, runes, keep int64) int64 {
	if runes == int64(len(b)) {
		return keep
	}
	i := len(b)
	for c := runes; c > keep; c-- {
		_, size := utf8.DecodeLastRune(b[:i])
		i -= size
	}
	return int64(i)
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
