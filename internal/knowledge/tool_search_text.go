package knowledge

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// The scanner never folds or decodes the whole text: it finds candidates
// with bytes.Index / bytes.IndexByte and decodes only around them. Code
// points are the ones a forward decode from the file's start sees (an
// invalid byte is one code point, as with bufio.ReadRune); these helpers
// keep every position they return on such a boundary. Any byte that is not
// a UTF-8 continuation byte is one, as a decoder never swallows it.

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

// boundaryAtOrBefore is the last code point boundary at or before p, given
// that lo ≤ p is one.
func boundaryAtOrBefore(b []byte, p, lo int) int {
	if p <= lo {
		return lo
	}
	if utf8.RuneStart(b[p]) {
		return p
	}
	for j := 1; j <= utf8.UTFMax-1 && p-j >= lo; j++ {
		if utf8.RuneStart(b[p-j]) {
			if _, size := utf8.DecodeRune(b[p-j:]); size > j {
				return p - j // p is inside the rune that starts there
			}
			return p
		}
	}
	return p // a stray continuation byte: one invalid code point
}

// backRunes is the boundary n code points before the boundary p, decoding
// forward from a boundary at most n·UTFMax bytes back, never before lo (a
// boundary); ok is false, with lo, when fewer than n code points lie
// between lo and p. ring is scratch of at least n entries.
func backRunes(b []byte, lo, p, n int, ring []int) (int, bool) {
	if n == 0 {
		return p, true
	}
	w := p - n*utf8.UTFMax
	if w <= lo {
		w = lo
	} else {
		w = boundaryAtOrBefore(b, w, lo)
	}
	cnt := 0
	for i := w; i < p; cnt++ {
		ring[cnt%n] = i
		if b[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(b[i:])
			i += size
		}
	}
	if cnt < n {
		return lo, false
	}
	return ring[(cnt-n)%n], true
}

// fwdRunes is the position n code points after the boundary p, or end
// with the number of code points missing.
func fwdRunes(b []byte, p, end, n int) (int, int) {
	for ; n > 0 && p < end; n-- {
		if b[p] < utf8.RuneSelf {
			p++
		} else {
			_, size := utf8.DecodeRune(b[p:end])
			p += size
		}
	}
	return p, n
}

// countRunes counts code points as a forward decode does; runs of ASCII
// go 32 bytes at a time.
func countRunes(b []byte) int64 {
	const hi = 0x8080808080808080
	var n int64
	i := 0
	for i < len(b) {
		if i+32 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:]) | binary.LittleEndian.Uint64(b[i+8:]) |
				binary.LittleEndian.Uint64(b[i+16:]) | binary.LittleEndian.Uint64(b[i+24:])
			if w&hi == 0 {
				i += 32
				n += 32
				continue
			}
		}
		if b[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(b[i:])
			i += size
		}
		n++
	}
	return n
}

// textPos is the code point index and the 1-based line number at an
// absolute byte offset. The scanner moves it only as far as a hit or a
// resume point needs (bytes.Count for lines), not over every byte read.
type textPos struct {
	byte, char, line int64
	lineStart int64 // absolute offset of the line's first byte; -1: unknown
	heading   bool  // that line starts, after ≤ 3 spaces, with '#'
}

var newline = []byte{'\n'}

// moveTo moves p to the boundary abs; buf holds the file from buf0 on and
// covers both p.byte and abs.
func (p *textPos) moveTo(buf []byte, buf0, abs int64) {
	a, z := p.byte-buf0, abs-buf0
	switch {
	case z > a:
		seg := buf[a:z]
		p.char += countRunes(seg)
		if n := bytes.Count(seg, newline); n > 0 {
			p.line += int64(n)
			p.lineStart = buf0 + a + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
		if p.lineStart >= buf0 {
			p.heading = isHeadingLine(buf[p.lineStart-buf0:])
		}
	case z < a:
		// Back to a resume point before a hit: the line start is not
		// needed there.
		seg := buf[z:a]
		p.char -= countRunes(seg)
		p.line -= int64(bytes.Count(seg, newline))
	}
	p.byte = abs
}

// isHeadingLine reports whether a line (b from its start) is a Markdown
// ATX heading: up to three spaces, then '#'.
func isHeadingLine(b []byte) bool {
	for i := 0; i < len(b) && i <= 3; i++ {
		switch b[i] {
		case '#':
			return true
		case ' ':
		default:
			return false
		}
	}
	return false
}
