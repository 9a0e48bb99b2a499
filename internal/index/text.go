package index

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"sort"
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

// countRunes counts code points as a forward decode does (b starts at a
// boundary). Blocks of 64 bytes of valid UTF-8 are counted as their bytes
// less their continuation bytes, eight at a time; a block that fails that
// check (invalid bytes, 4-byte sequences) is decoded rune by rune.
func countRunes(b []byte) int64 {
	var n int64
	i := 0
	for i+64 <= len(b) {
		blk := (*[64]byte)(b[i : i+64])
		le := binary.LittleEndian
		if (le.Uint64(blk[0:8])|le.Uint64(blk[8:16])|le.Uint64(blk[16:24])|le.Uint64(blk[24:32])|
			le.Uint64(blk[32:40])|le.Uint64(blk[40:48])|le.Uint64(blk[48:56])|le.Uint64(blk[56:64]))&hi == 0 {
			n += 64
			i += 64
			continue
		}
		c, open, ok := blockCont(blk)
		if ok && open {
			// The block's last rune goes on after it: decode that one.
			p := i + 63
			for !utf8.RuneStart(b[p]) {
				p--
			}
			if _, size := utf8.DecodeRune(b[p:]); p+size > i+64 {
				n += 64 - c
				i = p + size
				continue
			}
			ok = false
		}
		if ok {
			n += 64 - c
			i += 64
			continue
		}
		for stop := i + 64; i < stop; n++ {
			if b[i] < utf8.RuneSelf {
				i++
			} else {
				_, size := utf8.DecodeRune(b[i:])
				i += size
			}
		}
	}
	for ; i < len(b); n++ {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return n
}

const (
	ones = 0x0101010101010101
	hi   = 0x8080808080808080
)

// zeroBytes has the top bit of every zero byte of x set.
func zeroBytes(x uint64) uint64 {
	return ^((x&^hi + ^uint64(hi)) | x) & hi
}

// blockCont counts the continuation bytes of a 64-byte block that starts
// at a boundary; ok is false unless every lead byte is followed by exactly
// its continuation bytes (1- to 3-byte sequences; C0, C1 and the narrower
// second bytes after E0, overlong, and ED, surrogates, are checked too),
// with open set when the last sequence goes on past the block.
func blockCont(b *[64]byte) (cont int64, open, ok bool) {
	var carry, bad uint64
	for k := 0; k < 64; k += 8 {
		x := binary.LittleEndian.Uint64(b[k : k+8])
		x1, x2 := x<<1, x<<2 // bits 6 and 5 of each byte moved to its top bit
		c := x &^ x1 & hi    // 10xxxxxx
		l := x & x1 & hi     // 11xxxxxx
		l3 := l & x2         // 111xxxxx
		bad |= l3&(x<<3) | (l<<8 | l3<<16 | carry) ^ c
		if l != 0 {
			e0, ed := zeroBytes(x^(0xE0*ones)), zeroBytes(x^(0xED*ones))
			bad |= zeroBytes(x&^ones^(0xC0*ones)) | (e0|ed)>>56 | e0<<8&^x2 | ed<<8&x2
		}
		carry = l>>56 | l3>>48
		cont += int64(bits.OnesCount64(c))
	}
	return cont, carry != 0, bad == 0
}

// textPos is the code point index and the 1-based line number at an
// absolute byte offset. The scanner moves it only as far as a hit or a
// resume point needs (bytes.Count for lines), not over every byte read.
type textPos struct {
	byte, char, line int64
	stride           int64   // with idx: the blob's code point checkpoints
	idx              []int64 // idx[k] is the offset of code point (k+1)·stride
	lineStart        int64   // absolute offset of the line's first byte; -1: unknown
	heading          bool    // that line starts, after ≤ 3 spaces, with '#'
}

var newline = []byte{'\n'}

// moveTo moves p to the boundary abs; buf holds the file from buf0 on and
// covers both p.byte and abs.
func (p *textPos) moveTo(buf []byte, buf0, abs int64) {
	a, z := p.byte-buf0, abs-buf0
	switch {
	case z > a:
		seg, from := buf[a:z], a
		if p.stride > 0 {
			// Count code points from the last checkpoint only.
			k := sort.Search(len(p.idx), func(i int) bool { return p.idx[i] > abs }) - 1
			if k >= 0 && p.idx[k] > p.byte {
				from, p.char = p.idx[k]-buf0, int64(k+1)*p.stride
			}
		}
		p.char += countRunes(buf[from:z])
		if n := bytes.Count(seg, newline); n > 0 {
			p.line += int64(n)
			p.lineStart = buf0 + a + int64(bytes.LastIndexByte(seg, '\n')) + 1
		}
	case z < a:
		// Back to a resume point before a hit, which needs no line start.
		seg := buf[z:a]
		p.char -= countRunes(seg)
		p.line -= int64(bytes.Count(seg, newline))
		p.lineStart = -1
	}
	p.byte = abs
	if p.lineStart >= buf0 {
		p.heading = isHeadingLine(buf[p.lineStart-buf0:])
	} else if p.lineStart < 0 {
		p.heading = false
	}
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
