package rank

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Passage is one of a file's best lines for a query: where it starts, in
// code points of the text (a read offset) and as a 1-based line, and the
// line cut around its matches with each match between « and », as the
// literal search marks its hits.
type Passage struct {
	Line    int64
	Offset  int64
	Snippet string
	score   int
}

// snippetRunes bounds a passage's snippet.
const snippetRunes = 240

// Passages returns up to n lines of text that hold the most distinct terms
// of q (headings count double), best first, ties in text order.
func Passages(text string, q Query, n int) []Passage {
	stems := make([]string, len(q.Words))
	for i, w := range q.Words {
		stems[i] = Stem(w)
	}
	var found []Passage
	var offset, line int64
	for l := range strings.Lines(text) {
		line++
		spans, distinct := matchLine(l, stems, q.Bigrams)
		if distinct > 0 {
			score := distinct * 2
			if _, ok := heading(strings.TrimSpace(l)); ok {
				score *= 2
			}
			found = append(found, Passage{Line: line, Offset: offset + firstNonSpace(l), Snippet: mark(l, spans), score: score})
		}
		offset += int64(utf8.RuneCountInString(l))
	}
	slices.SortStableFunc(found, func(a, b Passage) int { return b.score - a.score })
	return found[:min(len(found), n)]
}

func firstNonSpace(l string) int64 {
	n := int64(0)
	for _, r := range l {
		if !unicode.IsSpace(r) {
			return n
		}
		n++
	}
	return 0
}

type span struct{ start, end int } // bytes of the line

// matchLine finds the words of l whose stem is one of stems and the
// bigrams it holds; distinct counts the terms found.
func matchLine(l string, stems, bigrams []string) ([]span, int) {
	var spans []span
	hit := map[string]bool{}
	start := -1
	for i, r := range l + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 && !isCJK(r) {
				start = i
			}
			if !isCJK(r) {
				continue
			}
		}
		if start >= 0 {
			s := Stem(strings.ToLower(l[start:i]))
			if slices.Contains(stems, s) {
				spans = append(spans, span{start, i})
				hit[s] = true
			}
			start = -1
		}
	}
	for _, b := range bigrams {
		for from := 0; ; {
			at := strings.Index(l[from:], b)
			if at < 0 {
				break
			}
			spans = append(spans, span{from + at, from + at + len(b)})
			hit[b] = true
			from += at + len(b)
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	return spans, len(hit)
}

// mark cuts l around its first match to at most snippetRunes and puts
// every match in «», joining overlapping ones.
func mark(l string, spans []span) string {
	l = strings.TrimRight(l, "\r\n")
	from := 0
	if len(spans) > 0 && utf8.RuneCountInString(l[:spans[0].start]) > snippetRunes/3 {
		from = spans[0].start
		for back := snippetRunes / 3; back > 0 && from > 0; back-- {
			_, size := utf8.DecodeLastRuneInString(l[:from])
			from -= size
		}
	}
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos, runes := from, 0
	for _, s := range spans {
		if s.end <= pos {
			continue
		}
		s.start = max(s.start, pos)
		runes += utf8.RuneCountInString(l[pos:s.start])
		if runes > snippetRunes {
			break
		}
		b.WriteString(l[pos:s.start])
		end := s.end
		b.WriteString("«" + l[s.start:end] + "»")
		runes += utf8.RuneCountInString(l[s.start:end])
		pos = end
	}
	rest := l[pos:]
	if left := snippetRunes - runes; utf8.RuneCountInString(rest) > max(left, 0) {
		rest = clipRunes(rest, max(left, 0)) + "…"
	}
	b.WriteString(rest)
	return strings.TrimSpace(b.String())
}

// Stem is a light English stemmer for marking matches: it agrees with
// the index's Porter stemmer on plurals and the common verb endings,
// which is what makes "encoding" mark "encode" and "files" mark "file".
func Stem(w string) string {
	if utf8.RuneCountInString(w) <= 3 {
		return w
	}
	for _, s := range []struct{ suffix, repl string }{
		{"ies", "y"}, {"sses", "ss"}, {"ing", ""}, {"ed", ""}, {"es", ""}, {"ly", ""}, {"s", ""},
	} {
		if s.suffix == "s" && strings.HasSuffix(w, "ss") {
			break
		}
		if strings.HasSuffix(w, s.suffix) && len(w)-len(s.suffix) >= 3 {
			w = strings.TrimSuffix(w, s.suffix) + s.repl
			break
		}
	}
	if len(w) > 3 {
		w = strings.TrimSuffix(w, "e")
	}
	return w
}

// proximityLines is the window in which terms count as near each other.
const proximityLines = 3

// Proximity is the largest share of q's distinct terms found together in
// proximityLines consecutive lines of text: 1 when one passage holds every
// term. A page that answers a question tends to hold its words in one
// place; a long page that merely mentions each somewhere does not.
func Proximity(text string, q Query) float64 {
	m := newMatcher(q)
	if m.terms == 0 {
		return 0
	}
	var window [proximityLines]uint64
	best, i := 0, 0
	for l := range strings.Lines(text) {
		window[i%proximityLines] = m.line(l)
		i++
		best = max(best, bits.OnesCount64(window[0]|window[1]|window[2]))
		if best == m.terms {
			break
		}
	}
	return float64(best) / float64(m.terms)
}

// matcher finds q's terms in lines, as a bit per term (MaxTerms ≤ 64).
type matcher struct {
	stems   []string
	bigrams []string
	terms   int
	minLen  int
	maxLen  int
}

func newMatcher(q Query) matcher {
	m := matcher{bigrams: q.Bigrams, terms: len(q.Words) + len(q.Bigrams), minLen: 1 << 30}
	for _, w := range q.Words {
		s := Stem(w)
		m.stems = append(m.stems, s)
		m.minLen, m.maxLen = min(m.minLen, len(s)), max(m.maxLen, len(s)+4)
	}
	return m
}

// line returns the set of terms l holds.
func (m matcher) line(l string) uint64 {
	var set uint64
	if len(m.stems) > 0 {
		start := -1
		for i := 0; i <= len(l); {
			r, size := rune(' '), 1
			if i < len(l) {
				r, size = utf8.DecodeRuneInString(l[i:])
			}
			word := r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
				r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isCJK(r)
			if word {
				if start < 0 {
					start = i
				}
			} else if start >= 0 {
				if n := i - start; n >= m.minLen && n <= m.maxLen {
					s := Stem(strings.ToLower(l[start:i]))
					for k, st := range m.stems {
						if s == st {
							set |= 1 << k
						}
					}
				}
				start = -1
			}
			i += size
		}
	}
	for k, b := range m.bigrams {
		if strings.Contains(l, b) {
			set |= 1 << (len(m.stems) + k)
		}
	}
	return set
}
