package index

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The scanner's usual settings: context on each side of a snippet, in code
// points, and the size of one read.
const (
	SnippetRadius = 40
	ChunkBytes    = 256 << 10
)

// Options chooses how a query matches: a literal ignoring case (simple
// case folding) unless CaseSensitive; Regex: an RE2 expression (ignoring
// case unless CaseSensitive) matched within one line — a match never spans
// a line break, and a line longer than the read chunk is matched in
// chunk-sized pieces, so a match does not span a piece boundary either.
type Options struct{ CaseSensitive, Regex bool }

// Pos is where a scan starts: a byte offset at a code point boundary,
// the code point index and 1-based line number there (0 counts as 1), and
// the first code point at which a match may start (matches already
// reported end before it).
type Pos struct {
	Byte, Char, Line, Accept int64
}

// Hit is one match: its code point offset, the 1-based line it starts
// on, a snippet, and whether that line is a Markdown heading (starts,
// after at most three spaces, with '#'; unknown, so false, on the line a
// resumed scan starts in).
type Hit struct {
	Offset, Line int64
	Snippet      string
	Heading      bool
}

// Result is what one Scan found.
type Result struct {
	Hits   []Hit
	Count  int   // matches found: the hits, then ones only counted
	More   bool  // a match exists after the counted ones; the scan stopped there
	Read   int64 // bytes read from the blob
	Resume *Pos  // set when the byte budget ran out inside the file
	After  *Pos  // just after the last hit: where paging by hits continues
}

// Scanner finds a query in a text blob read in chunks, in one pass.
// Each chunk is searched together with a carry from the previous one, so a
// match across a chunk boundary is found once, with its full snippet.
type Scanner struct {
	lit     *literal
	re      *regexp.Regexp
	radius  int // snippet context on each side, in code points
	chunk   int
	buf     []byte
	ring    []int
	scratch strings.Builder
}

// NewScanner prepares query; a bad regular expression is the caller's
// error.
func NewScanner(query string, opts Options, radius int64, chunk int) (*Scanner, error) {
	s := &Scanner{radius: int(radius), chunk: chunk, ring: make([]int, max(radius, 1))}
	if !opts.Regex {
		s.lit = newLiteral(norm.NFC.String(query), opts.CaseSensitive)
		return s, nil
	}
	if _, err := regexp.Compile(query); err != nil {
		return nil, badQuery("search: regex: %s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	if !opts.CaseSensitive {
		query = "(?i)" + query
	}
	s.re = regexp.MustCompile(query)
	return s, nil
}

// charIndexed is a text blob reader that knows where every stride-th code
// point starts (the blob store's page index, built for valid UTF-8). The
// scanner then counts code points from the checkpoint before a hit, not
// over every byte it drops.
type charIndexed interface {
	CharIndex() (stride int64, offsets []int64) // offsets[k]: code point (k+1)·stride
}

// Scan reads f (size bytes) from start. It reports up to maxHits matches
// as hits and counts further ones up to countUpTo in all, then stops with
// more set at the next match. It stops before reading a chunk that would
// take it past budget bytes, unless it has not yet made progress (every
// call moves the position).
func (s *Scanner) Scan(ctx context.Context, f io.ReaderAt, size int64, start Pos, maxHits, countUpTo int, budget int64) (Result, error) {
	var out Result
	countUpTo = max(countUpTo, maxHits)
	r := s.radius * utf8.UTFMax // bytes that surely hold radius code points
	buf := s.buf[:0]
	defer func() { s.buf = buf[:0] }()
	buf0, pos := start.Byte, start.Byte
	tp := textPos{byte: start.Byte, char: start.Char, line: max(start.Line, 1), lineStart: -1}
	if start.Byte == 0 {
		tp.lineStart = 0
	}
	if ci, ok := f.(charIndexed); ok {
		tp.stride, tp.idx = ci.CharIndex()
	}
	// Code points are counted only as far as a hit or a resume point
	// needs; a call that may stop inside the file counts all it drops.
	resumable := size-start.Byte > budget-int64(s.chunk)
	skip := int(max(0, start.Accept-start.Char))
	accept := -1 // in buf: where a match may start; -1 until skip is resolved
	lineAt := 0  // regex: in buf, the start of the next line to match
	chosen := false
	for {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		// Stop only once the resume point has moved, so that a chain of
		// pages always ends even when the carry is as long as a chunk.
		if out.Read > 0 && out.Read+int64(s.chunk) > budget && buf0 > start.Byte {
			tp.moveTo(buf, buf0, buf0)
			out.Resume = &Pos{Byte: buf0, Char: tp.char, Line: tp.line, Accept: tp.char + countRunes(buf[:accept])}
			return out, nil
		}
		n := int(min(int64(s.chunk), size-pos))
		old := len(buf)
		buf = slices.Grow(buf, n)[:old+n]
		if m, err := f.ReadAt(buf[old:], pos); m < n {
			return out, fmt.Errorf("read blob at %d: %w", pos, err)
		}
		pos += int64(n)
		out.Read += int64(n)
		eof := pos >= size
		end := len(buf)
		if !eof {
			end = completePrefix(buf)
		}
		work := buf[:end]
		if accept < 0 {
			p, left := fwdRunes(work, 0, end, skip)
			if left > 0 && !eof {
				continue // the resumed accept point lies beyond this buffer
			}
			accept = p
		}
		if s.lit != nil && !chosen {
			s.lit.choose(work[:min(len(work), 8<<10)])
			chosen = true
		}
		m := matcher{s: s, out: &out, tp: &tp, work: work, buf0: buf0, size: size, maxHits: maxHits, countUpTo: countUpTo}
		var done bool
		var processed int // matches starting before it have been seen
		if s.lit != nil {
			processed, done = m.literal(accept, eof, r)
		} else {
			lineAt, done = m.lines(lineAt, accept, eof, r)
			processed = lineAt
		}
		if done || eof {
			return out, nil
		}
		accept = max(m.accept, accept, processed)
		keep := boundaryAtOrBefore(work, accept-r, 0)
		if (len(out.Hits) < maxHits || resumable) && tp.byte < buf0+int64(keep) {
			tp.moveTo(work, buf0, buf0+int64(keep))
		}
		buf0 += int64(keep)
		buf = append(buf[:0], buf[keep:]...)
		accept -= keep
		lineAt -= keep
	}
}

// matcher handles the matches in one buffer.
type matcher struct {
	s                  *Scanner
	out                *Result
	tp                 *textPos
	work               []byte
	buf0, size         int64
	maxHits, countUpTo int
	accept             int // in work: after the last match
}

// literal finds the query's matches that start at or after from. Before
// the end of the file, only matches starting before the returned limit
// are taken: their snippets end inside this buffer; later ones are found
// again in the next.
func (m *matcher) literal(from int, eof bool, radiusBytes int) (int, bool) {
	lit, end := m.s.lit, len(m.work)
	limit := end
	if !eof {
		limit = boundaryAtOrBefore(m.work, end-len(lit.fq)*utf8.UTFMax-radiusBytes, 0)
	}
	lit.reset()
	for {
		st, stop, ok := lit.find(m.work, from, limit, end)
		if !ok {
			return limit, false
		}
		if m.found(st, stop, lit.runes()) {
			return limit, true
		}
		from = stop
	}
}

// lines matches the regular expression in each line (or piece of a long
// line) from line on whose snippets end inside this buffer, taking matches
// that start at or after from; it returns where the next line starts.
func (m *matcher) lines(line, from int, eof bool, radiusBytes int) (int, bool) {
	end := len(m.work)
	for line < end {
		var stop, next int
		nl := bytes.IndexByte(m.work[line:end], '\n')
		switch {
		case nl >= 0 && (eof || line+nl+1+radiusBytes <= end):
			stop, next = line+nl, line+nl+1
		case nl < 0 && eof:
			stop, next = end, end
		case nl < 0 && end-line >= m.s.chunk+radiusBytes:
			stop = boundaryAtOrBefore(m.work, line+m.s.chunk, line)
			if stop == line {
				stop, _ = fwdRunes(m.work, line, end, 1)
			}
			next = stop
		default:
			return line, false // the line goes on in the next chunk
		}
		for _, loc := range m.s.re.FindAllIndex(m.work[line:stop], -1) {
			st, e := line+loc[0], line+loc[1]
			if st == e || st < from {
				continue // an empty match marks nothing
			}
			if m.found(st, e, -1) {
				return next, true
			}
			from = e
		}
		line = next
	}
	return line, false
}

// found takes the match work[st:stop] (runes code points long, or -1 to
// count them): a hit while there is room, else only counted. It reports
// whether the scan stops here.
func (m *matcher) found(st, stop int, runes int64) bool {
	out := m.out
	if out.Count == m.countUpTo {
		out.More = true
		return true
	}
	out.Count++
	m.accept = stop
	if len(out.Hits) >= m.maxHits {
		return false
	}
	tp := m.tp
	tp.moveTo(m.work, m.buf0, m.buf0+int64(st))
	out.Hits = append(out.Hits, Hit{Offset: tp.char, Line: tp.line, Snippet: m.s.snippet(m.work, m.buf0, m.size, st, stop), Heading: tp.heading})
	if runes < 0 {
		runes = countRunes(m.work[st:stop])
	}
	after := tp.char + runes
	out.After = &Pos{Byte: m.buf0 + int64(stop), Char: after, Line: tp.line + int64(bytes.Count(m.work[st:stop], newline)), Accept: after}
	return false
}

// snippet renders the match b[st:stop] with radius code points of context
// on each side, the match between « and », line breaks and other control
// characters as spaces; … marks text cut off before or after.
func (s *Scanner) snippet(b []byte, buf0, size int64, st, stop int) string {
	from, _ := backRunes(b, 0, st, s.radius, s.ring)
	to, _ := fwdRunes(b, stop, len(b), s.radius)
	sb := &s.scratch
	sb.Reset()
	if buf0+int64(from) > 0 {
		sb.WriteString("…")
	}
	writeClean(sb, b[from:st])
	sb.WriteString("«")
	writeClean(sb, b[st:stop])
	sb.WriteString("»")
	writeClean(sb, b[stop:to])
	if buf0+int64(to) < size {
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

// MatchesName tells whether a file name holds a match, as the file's text
// would: a name match ranks a file first.
func (s *Scanner) MatchesName(name string) bool {
	if s.re != nil {
		return s.re.MatchString(name)
	}
	if s.lit.plain != nil {
		return strings.Contains(name, string(s.lit.plain))
	}
	folded, _ := Fold(nil, []byte(name), nil)
	return strings.Contains(string(folded), string(s.lit.fq))
}
