package rank

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Analysis is where a query's terms occur in a text, line by line: what
// both the proximity reordering and the passages need, found in one pass
// that looks each term up with strings.Index rather than cutting every
// word of the text (a ranked answer analyses up to 30 files per query).
type Analysis struct {
	text  string
	q     Query
	stems []string
	terms int
	lines []lineHit // the lines holding a term, in text order
}

type lineHit struct {
	no         int64 // 1-based
	start, end int   // bytes of the line, its newline excluded
	mask       uint64
}

// Analyze finds q's terms in text. Words are matched by their stem, letter
// case folded for ASCII letters (other scripts match as written, lower
// case; the index itself folds all of them).
func Analyze(text string, q Query) Analysis {
	a := Analysis{text: text, q: q, terms: len(q.Words) + len(q.Bigrams)}
	for _, w := range q.Words {
		a.stems = append(a.stems, Stem(w))
	}
	if a.terms == 0 || text == "" {
		return a
	}
	starts := []int{0}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	masks := map[int]uint64{} // by line index
	hit := func(at int, bit int) {
		line, _ := slices.BinarySearch(starts, at+1)
		masks[line-1] |= 1 << bit
	}
	lower := asciiLower(text)
	for k, st := range a.stems {
		prefix := st
		if len(st) > 3 {
			prefix = st[:len(st)-1] // "queries" → "query": the stem's last letter may differ
		}
		for from := 0; ; {
			i := strings.Index(lower[from:], prefix)
			if i < 0 {
				break
			}
			i += from
			from = i + len(prefix)
			if r, _ := utf8.DecodeLastRuneInString(lower[:i]); i > 0 && isWordRune(r) {
				continue
			}
			j := i + len(prefix)
			for j < len(lower) {
				r, size := utf8.DecodeRuneInString(lower[j:])
				if !isWordRune(r) {
					break
				}
				j += size
			}
			if Stem(lower[i:j]) == st {
				hit(i, k)
			}
			from = j
		}
	}
	for k, b := range q.Bigrams {
		for from := 0; ; {
			i := strings.Index(text[from:], b)
			if i < 0 {
				break
			}
			hit(from+i, len(a.stems)+k)
			from += i + len(b)
		}
	}
	for line, m := range masks {
		end := len(text)
		if line+1 < len(starts) {
			end = starts[line+1] - 1
		}
		a.lines = append(a.lines, lineHit{no: int64(line + 1), start: starts[line], end: end, mask: m})
	}
	slices.SortFunc(a.lines, func(x, y lineHit) int { return int(x.no - y.no) })
	return a
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
}

// asciiLower lowers ASCII letters only, so that byte offsets stay those of
// the text.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Proximity is the largest share of the query's distinct terms found
// together in proximityLines consecutive lines: 1 when one passage holds
// every term. A page that answers a question tends to hold its words in
// one place; a long page that merely mentions each somewhere does not.
func (a Analysis) Proximity() float64 {
	if a.terms == 0 {
		return 0
	}
	best := 0
	for i, l := range a.lines {
		m := l.mask
		for j := i - 1; j >= 0 && a.lines[j].no > l.no-proximityLines; j-- {
			m |= a.lines[j].mask
		}
		best = max(best, bits.OnesCount64(m))
	}
	return float64(best) / float64(a.terms)
}

// Passages returns up to n lines that hold the most distinct terms
// (headings count double), best first, ties in text order, each with its
// matches marked.
func (a Analysis) Passages(n int) []Passage {
	type scored struct {
		l     lineHit
		score int
	}
	var found []scored
	for _, l := range a.lines {
		s := bits.OnesCount64(l.mask) * 2
		if _, ok := heading(strings.TrimSpace(a.text[l.start:l.end])); ok {
			s *= 2
		}
		found = append(found, scored{l, s})
	}
	slices.SortStableFunc(found, func(x, y scored) int { return y.score - x.score })
	var out []Passage
	for _, f := range found[:min(len(found), n)] {
		line := a.text[f.l.start:f.l.end]
		spans, _ := matchLine(line, a.stems, a.q.Bigrams)
		out = append(out, Passage{Line: f.l.no, Offset: int64(utf8.RuneCountInString(a.text[:f.l.start])) + firstNonSpace(line), Snippet: mark(line, spans)})
	}
	return out
}

// Lead is the text's first non-empty line, cut to a snippet's length: what
// a file shows that matched by its name alone.
func (a Analysis) Lead() string {
	first, _, _ := strings.Cut(strings.TrimSpace(a.text), "\n")
	if first = strings.TrimSpace(first); utf8.RuneCountInString(first) > snippetRunes {
		return clipRunes(first, snippetRunes) + "…"
	}
	return first
}

// Within is the passage of the text's bytes [start, end), a chunk that a
// meaning search found (line is the 1-based line it starts on): its line
// holding the most terms, marked, or else its first non-empty line.
func (a Analysis) Within(start, end int, line int64) Passage {
	end = min(end, len(a.text))
	start = min(start, end)
	var best *lineHit
	for i, l := range a.lines {
		if l.start >= start && l.start < end && (best == nil || bits.OnesCount64(l.mask) > bits.OnesCount64(best.mask)) {
			best = &a.lines[i]
		}
	}
	if best != nil {
		l := a.text[best.start:best.end]
		spans, _ := matchLine(l, a.stems, a.q.Bigrams)
		return Passage{Line: best.no, Offset: int64(utf8.RuneCountInString(a.text[:best.start])) + firstNonSpace(l), Snippet: mark(l, spans)}
	}
	for at := start; at < end; line++ {
		stop := strings.IndexByte(a.text[at:end], '\n')
		if stop < 0 {
			stop = end - at
		}
		if l := a.text[at : at+stop]; strings.TrimSpace(l) != "" {
			snippet := strings.TrimSpace(l)
			if utf8.RuneCountInString(snippet) > snippetRunes {
				snippet = clipRunes(snippet, snippetRunes) + "…"
			}
			return Passage{Line: line, Offset: int64(utf8.RuneCountInString(a.text[:at])) + firstNonSpace(l), Snippet: snippet}
		}
		at += stop + 1
	}
	return Passage{Line: line, Offset: int64(utf8.RuneCountInString(a.text[:start]))}
}
