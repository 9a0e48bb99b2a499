package rank

import (
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
}

// snippetRunes bounds a passage's snippet; proximityLines is the window
// in which terms count as near each other.
const (
	snippetRunes   = 240
	proximityLines = 3
)

// Passages returns up to n lines of text that hold the most distinct terms
// of q (headings count double), best first, ties in text order.
func Passages(text string, q Query, n int) []Passage { return Analyze(text, q).Passages(n) }

// Proximity is Analyze(text, q).Proximity().
func Proximity(text string, q Query) float64 { return Analyze(text, q).Proximity() }

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
		// A stem keeps four letters: shorter ones collide with other
		// words ("notes" → "not").
		if strings.HasSuffix(w, s.suffix) && len(w)-len(s.suffix)+len(s.repl) >= 4 {
			w = strings.TrimSuffix(w, s.suffix) + s.repl
			break
		}
	}
	if len(w) > 4 {
		w = strings.TrimSuffix(w, "e")
	}
	return w
}
