package rank

import (
	"strings"
	"unicode"
)

// MaxTerms bounds the terms of one query: a pasted paragraph is cut, not
// turned into a query the index spends seconds on.
const MaxTerms = 32

// Query is a question cut into the terms the word index is asked for.
type Query struct {
	// Words are lower-case words of letters and digits only (so no query
	// operator can slip into FTS5 or to_tsquery), stop words removed
	// (unless nothing else is left); the index stems them as it stemmed
	// the text.
	Words []string
	// Bigrams are the CJK runs of the question as overlapping bigrams.
	Bigrams []string
}

// Empty tells the query has nothing to look up.
func (q Query) Empty() bool { return len(q.Words) == 0 && len(q.Bigrams) == 0 }

// Terms are the query's words and bigrams together.
func (q Query) Terms() []string { return append(append([]string(nil), q.Words...), q.Bigrams...) }

// ParseQuery cuts a question into terms: words are runs of letters and
// digits, CJK runs become bigrams, everything else separates.
func ParseQuery(s string) Query {
	words, cjk := Split(s)
	var q Query
	seen := map[string]bool{}
	var stops []string
	for _, w := range strings.FieldsFunc(strings.ToLower(words), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if seen[w] {
			continue
		}
		seen[w] = true
		if stopWords[w] {
			stops = append(stops, w)
			continue
		}
		q.Words = append(q.Words, w)
	}
	for _, b := range strings.Fields(cjk) {
		if !seen[b] {
			seen[b] = true
			q.Bigrams = append(q.Bigrams, b)
		}
	}
	if len(q.Words) == 0 && len(q.Bigrams) == 0 {
		q.Words = stops
	}
	q.Words = q.Words[:min(len(q.Words), MaxTerms)]
	q.Bigrams = q.Bigrams[:min(len(q.Bigrams), MaxTerms-len(q.Words))]
	return q
}

// FTS5 spells the query for an FTS5 MATCH: any term, each quoted (the
// tokenizer stems it as it stemmed the text).
func (q Query) FTS5() string {
	terms := q.Terms()
	for i, t := range terms {
		terms[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(terms, " OR ")
}

// stopWords are English words too common to tell pages apart: a question
// made of them would match every page. The list is Lucene's English
// stop set plus the words of how people phrase a question.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for if in into is it no not of on or such that the
their then there these they this to was will with
how what when where which who whom why do does did done doing i me my we our you your he she his her its
can could should would may might must shall am been being have has had having
so than too very just also some any all each every both few more most other own same only
get got make made use using used want need like way best does don t s
about above after again against below between during from further here once out over under until up down off
through while before because nor those them him i'm it's`) {
		m[w] = true
	}
	return m
}()
