package index

import (
	"bytes"
	"slices"
	"unicode/utf8"
)

// literal finds a query in raw bytes. A plain query (case-sensitive, or no
// rune of it has another case) is one bytes.Index. A folded query is found
// through an anchor, without folding the text: its longest run of caseless
// runes (found with bytes.Index, the bytes are the same in any case) or one
// cased rune, found with bytes.IndexByte on the first byte of each rune of
// its orbit. Each candidate is verified by decoding and folding the few
// runes around it.
type literal struct {
	plain []byte // plain query bytes; nil for a folded query
	fq    []rune // folded query
	// ascii: every rune of fq has only ASCII runes in its orbit, so a
	// match is len(fq) bytes compared through asciiFold.
	ascii []byte

	// The anchor is fq[at : at+n]: the bytes run, or one rune whose orbit
	// members start with the bytes first (nearest occurrence of each at
	// next, per buffer). n == 0: no anchor (a query of U+FFFD only, which
	// invalid bytes match), every boundary is a candidate.
	at, n int
	run   []byte
	first []byte
	next  []int
	ring  []int
	table []rune // foldTable, looked up once
}

func (m *literal) fold(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		return rune(asciiFold[r])
	case r < 0x10000:
		return m.table[r]
	}
	return foldSlow(r)
}

func newLiteral(nfc string, caseSensitive bool) *literal {
	fq := FoldQuery(nfc)
	if caseSensitive || caselessRunes(fq) {
		return &literal{plain: []byte(nfc), fq: []rune(nfc)}
	}
	m := &literal{fq: fq, ring: make([]int, len(fq)), table: foldTable()}
	var ascii []byte
	for _, r := range fq {
		if slices.ContainsFunc(orbit(r), func(o rune) bool { return o >= utf8.RuneSelf }) {
			return m
		}
		ascii = append(ascii, byte(r))
	}
	m.ascii = ascii
	return m
}

// runes is the length of a match in code points.
func (m *literal) runes() int64 { return int64(len(m.fq)) }

// caselessRunes reports whether no rune has another case (so the raw text
// can be searched as it is); U+FFFD counts as cased, as invalid bytes in
// the text match it.
func caselessRunes(rs []rune) bool {
	for _, r := range rs {
		if r == utf8.RuneError || len(orbit(r)) > 1 {
			return false
		}
	}
	return true
}

// byteFreq estimates how often a byte occurs in text like sample: its
// count there, smoothed by a static guess (English letter frequencies,
// capitals a tenth of small letters) that dominates short samples.
type byteFreq struct {
	count [256]int
	total int
}

var englishFreq = map[byte]float64{
	'e': .127, 't': .091, 'a': .082, 'o': .075, 'i': .070, 'n': .067, 's': .063, 'h': .061, 'r': .060,
	'd': .043, 'l': .040, 'c': .028, 'u': .028, 'm': .024, 'w': .024, 'f': .022, 'g': .020, 'y': .020,
	'p': .019, 'b': .015, 'v': .010, 'k': .008, 'j': .002, 'x': .002, 'q': .001, 'z': .001,
}

func staticFreq(c byte) float64 {
	switch {
	case c >= 'a' && c <= 'z':
		return englishFreq[c] * 0.8
	case c >= 'A' && c <= 'Z':
		return englishFreq[c+'a'-'A'] * 0.08
	case c == ' ':
		return 0.15
	case c == '\n' || c == '.' || c == ',':
		return 0.015
	}
	return 0.003
}

func newByteFreq(sample []byte) *byteFreq {
	f := &byteFreq{total: len(sample)}
	for _, c := range sample {
		f.count[c]++
	}
	return f
}

func (f *byteFreq) of(c byte) float64 {
	const prior = 256 // weight of the static guess, in sample bytes
	return (float64(f.count[c]) + prior*staticFreq(c)) / float64(f.total+prior)
}

// passCost is the cost of one more IndexByte pass over the text, in
// candidates per byte: a pass runs at tens of GB/s, a candidate costs
// about as much as a pass over several hundred bytes.
const passCost = 0.002

// choose picks the anchor that should give the fewest candidates in text
// like sample.
func (m *literal) choose(sample []byte) {
	if m.plain != nil {
		return
	}
	f := newByteFreq(sample)
	best := -1.0
	consider := func(score float64, at, n int, run, first []byte) {
		if best < 0 || score < best {
			best, m.at, m.n, m.run, m.first = score, at, n, run, first
		}
	}
	for i := 0; i < len(m.fq); {
		r := m.fq[i]
		if r != utf8.RuneError && len(orbit(r)) == 1 {
			j := i
			var run []byte
			for j < len(m.fq) && m.fq[j] != utf8.RuneError && len(orbit(m.fq[j])) == 1 {
				run = utf8.AppendRune(run, m.fq[j])
				j++
			}
			// bytes.Index skips on the first byte, then compares.
			score := passCost + f.of(run[0])
			for range min(len(run)-1, 3) {
				score *= 0.3
			}
			consider(score, i, j-i, run, nil)
			i = j
			continue
		}
		if r != utf8.RuneError {
			var first []byte
			for _, o := range orbit(r) {
				var enc [utf8.UTFMax]byte
				utf8.EncodeRune(enc[:], o)
				if bytes.IndexByte(first, enc[0]) < 0 {
					first = append(first, enc[0])
				}
			}
			if len(first) <= 4 {
				score := 0.0
				for _, c := range first {
					score += passCost + f.of(c)
				}
				consider(score, i, 1, nil, first)
			}
		}
		i++
	}
	if best < 0 {
		m.at, m.n, m.run, m.first = 0, 0, nil, nil
	}
	m.next = make([]int, len(m.first))
}

// reset forgets the candidate positions of the previous buffer.
func (m *literal) reset() {
	for i := range m.next {
		m.next[i] = -1
	}
}

// find returns the first match in b that starts at or after from (a
// boundary) and before limit; b[:end] may be read. For a folded query
// reset must have been called for b.
func (m *literal) find(b []byte, from, limit, end int) (int, int, bool) {
	if m.plain != nil {
		if from >= limit || len(m.plain) == 0 {
			return 0, 0, false
		}
		i := bytes.Index(b[from:end], m.plain)
		if i < 0 || from+i >= limit {
			return 0, 0, false
		}
		return from + i, from + i + len(m.plain), true
	}
	if m.n == 0 {
		for p := from; p < limit; {
			if st, stop, ok := m.verify(b, from, p, end); ok {
				return st, stop, true
			}
			_, size := utf8.DecodeRune(b[p:end])
			p += size
		}
		return 0, 0, false
	}
	// A match starting before limit has its anchor before pend: each rune
	// before the anchor takes 1 to UTFMax bytes.
	pend := min(end, limit+m.at*utf8.UTFMax)
	for s := from + m.at; s < pend; {
		p := m.candidate(b, s, end)
		if p < 0 || p >= pend {
			return 0, 0, false
		}
		s = p + 1
		if st, stop, ok := m.verify(b, from, p, end); ok {
			if st >= limit {
				continue
			}
			return st, stop, true
		}
	}
	return 0, 0, false
}

// candidate is the next position at or after s where the anchor may be.
func (m *literal) candidate(b []byte, s, end int) int {
	switch {
	case m.run != nil:
		i := bytes.Index(b[s:end], m.run)
		if i < 0 {
			return -1
		}
		return s + i
	}
	p := -1
	for k, c := range m.first {
		n := m.next[k]
		if n < s && n != end {
			if i := bytes.IndexByte(b[s:end], c); i >= 0 {
				n = s + i
			} else {
				n = end
			}
			m.next[k] = n
		}
		if n < end && (p < 0 || n < p) {
			p = n
		}
	}
	return p
}

// verify checks for a match whose anchor starts at p, returning its
// bounds; it must not start before from.
func (m *literal) verify(b []byte, from, p, end int) (int, int, bool) {
	if m.ascii != nil {
		st := p - m.at
		if st < from || st+len(m.ascii) > end {
			return 0, 0, false
		}
		for k, want := range m.ascii {
			if c := b[st+k]; c >= utf8.RuneSelf || asciiFold[c] != want {
				return 0, 0, false
			}
		}
		return st, st + len(m.ascii), true
	}
	q := p
	if m.run != nil {
		q += len(m.run)
	} else if m.n > 0 {
		r, size := utf8.DecodeRune(b[p:end])
		if m.fold(r) != m.fq[m.at] {
			return 0, 0, false
		}
		q += size
	}
	for _, want := range m.fq[m.at+m.n:] {
		if q >= end {
			return 0, 0, false
		}
		r, size := rune(b[q]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[q:end])
		}
		if m.fold(r) != want {
			return 0, 0, false
		}
		q += size
	}
	st, ok := backRunes(b, from, p, m.at, m.ring)
	if !ok {
		return 0, 0, false
	}
	for i, k := st, 0; k < m.at; k++ {
		r, size := utf8.DecodeRune(b[i:end])
		if m.fold(r) != m.fq[k] {
			return 0, 0, false
		}
		i += size
	}
	return st, q, true
}
