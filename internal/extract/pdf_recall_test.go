package extract

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// words splits text into the bag of words that recall is measured on:
// NFKC-folded (so a ligature counts as its letters), lower-case runs of
// letters and digits, and each CJK character as a word of its own, since
// those scripts do not separate words and engines break lines differently.
func words(s string) map[string]int {
	bag := map[string]int{}
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			bag[w.String()]++
			w.Reset()
		}
	}
	for _, r := range norm.NFKC.String(s) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			bag[string(r)]++
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			w.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return bag
}

// hyphenated finds the first halves of words broken at a line end
// ("docu-" before a line break or, where pdftotext interleaves two
// columns, before the other column's text).
var hyphenated = regexp.MustCompile(`(\pL+)-\s`)

// recall is the share of the reference's words (with multiplicity) that
// got also contains; 1 when the reference has none. PDFium joins words
// hyphenated at a line end and pdftotext keeps the halves; both are right,
// so a joined word in got pays for both halves in ref.
func recall(ref, got string) float64 {
	rb, gb := words(ref), words(got)
	total, hit := 0, 0
	for w, n := range rb {
		total += n
		hit += min(n, gb[w])
	}
	for _, m := range hyphenated.FindAllStringSubmatch(norm.NFKC.String(ref), -1) {
		head := strings.ToLower(m[1])
		if rb[head] <= gb[head] {
			continue // this half was found as it is
		}
		for g, n := range gb {
			tail, ok := strings.CutPrefix(g, head)
			if !ok || tail == "" || n <= rb[g] || rb[tail] <= gb[tail] {
				continue
			}
			hit += 2
			rb[head]--
			rb[tail]--
			gb[g]--
			break
		}
	}
	if total == 0 {
		return 1
	}
	return float64(hit) / float64(total)
}

func wordCount(s string) int {
	n := 0
	for _, c := range words(s) {
		n += c
	}
	return n
}
