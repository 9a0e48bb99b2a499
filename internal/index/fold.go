package index

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Case-insensitive matching compares text and query runes by one
// representative per Unicode simple case-folding orbit (the smallest rune
// of it: 'K' for k, K and the Kelvin sign). Simple folding maps one rune to
// one rune, so a match has as many code points as the query.

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

// orbit lists the runes that fold to the same representative as r.
func orbit(r rune) []rune {
	out := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, f)
	}
	return out
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

// foldMarkEvery is the distance in folded bytes between two marks.
const foldMarkEvery = 4096

// Fold appends the folded form of src to dst and returns it with the
// number of code points of src (an invalid byte counts as one and folds to
// U+FFFD); marks, when not nil, gets a foldMark about every foldMarkEvery
// bytes. The scanner folds only queries with it (it verifies candidates
// rune by rune); folding a whole text is the cost the scan benchmarks
// compare against.
func Fold(dst, src []byte, marks *[]foldMark) ([]byte, int64) {
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

// FoldQuery prepares a query: NFC (the form uploads and names mostly use),
// then folded rune by rune.
func FoldQuery(q string) []rune {
	fq, _ := Fold(nil, []byte(norm.NFC.String(q)), nil)
	return []rune(string(fq))
}
