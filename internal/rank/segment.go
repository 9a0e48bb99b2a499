// Package rank holds what ranked retrieval needs apart from the database:
// how a text is cut into the words the word index holds (English words
// as they are, Chinese and Japanese as overlapping character bigrams),
// the fields a file contributes (name, title, headings, body), how a
// question becomes a query, and how the best passages of a file are found
// and marked. The store turns its output into FTS5 or tsvector rows; the
// tools pick passages with it. It imports nothing of the project.
package rank

import (
	"strings"
	"unicode"
)

// isCJK tells whether r is written without spaces between words (Han,
// Hiragana, Katakana, Hangul): such runs are indexed as bigrams, since no
// tokenizer of either database can find their words.
func isCJK(r rune) bool {
	// Nothing below Hangul Jamo, the first of the four, is one of them:
	// Latin text skips unicode.In, which was a tenth of the index writer's CPU.
	return r >= firstCJK && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

const firstCJK = 0x1100

// Split cuts text into what the word index holds: words, the text with
// its CJK runs blanked, for a stemming tokenizer; and cjk, every CJK run
// as overlapping bigrams separated by spaces ("全文检索" → "全文 文检 检索"),
// for a tokenizer that keeps them as they are. A run of one character is
// kept as itself.
func Split(text string) (words, cjk string) {
	var w, c strings.Builder
	w.Grow(len(text))
	var run []rune
	flush := func() {
		switch {
		case len(run) == 1:
			c.WriteString(string(run) + " ")
		case len(run) > 1:
			for i := 0; i+1 < len(run); i++ {
				c.WriteString(string(run[i:i+2]) + " ")
			}
		}
		run = run[:0]
	}
	for _, r := range text {
		if isCJK(r) {
			run = append(run, r)
			continue
		}
		if len(run) > 0 {
			flush()
			w.WriteByte(' ')
		}
		w.WriteRune(r)
	}
	flush()
	return w.String(), strings.TrimSpace(c.String())
}

// Segment is Split joined: the text a single-column index of both holds.
func Segment(text string) string {
	words, cjk := Split(text)
	if cjk == "" {
		return words
	}
	return words + "\n" + cjk
}
