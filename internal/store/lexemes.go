package store

import (
	"iter"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/english"
)

// PostgreSQL's word index holds lexemes cut here, not by to_tsvector:
// its parser was 29 % of the server's CPU while a 10,000-file library was
// indexed (perf), for words the query side split apart anyway. A word is
// a run of letters and digits, lower-cased; English stop words are
// dropped and the rest stemmed by Snowball's English stemmer, the one
// PostgreSQL's english configuration runs. CJK bigrams are kept as they
// are, as its simple configuration did.

// maxLexemeBytes is the longest word indexed: PostgreSQL's own bound on a
// lexeme, which also keeps a posting well inside a B-tree page.
const maxLexemeBytes = 2047

// lexemeCounts adds weight to counts for each occurrence of each of
// words' lexemes. Occurrences are counted by word first and each distinct
// word is made a lexeme once: a file repeats its words, and the word
// counts' small map is cheaper per occurrence than the stem cache's large
// one.
func lexemeCounts(counts map[string]float32, words string, weight float32) {
	seen := map[string]int{}
	for w := range wordsOf(words) {
		if len(w) <= maxLexemeBytes {
			seen[w]++
		}
	}
	for w, n := range seen {
		if lx, ok := englishLexeme(w); ok {
			counts[lx] += weight * float32(n)
		}
	}
}

// wordsOf yields the runs of letters and digits of s.
func wordsOf(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for i := 0; i < len(s); {
			n, ok := wordRuneAt(s, i)
			if !ok {
				i += n
				continue
			}
			j := i + n
			for j < len(s) {
				m, ok := wordRuneAt(s, j)
				if !ok {
					break
				}
				j += m
			}
			if !yield(s[i:j]) {
				return
			}
			i = j
		}
	}
}

// wordRuneAt tells the length of the character at s[i] and whether it is
// a letter or digit, without decoding ASCII.
func wordRuneAt(s string, i int) (int, bool) {
	if c := s[i]; c < utf8.RuneSelf {
		return 1, 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return n, isWordRune(r)
}

// countFields is len(strings.Fields(s)) without the slice.
func countFields(s string) int {
	n, inField := 0, false
	for i := 0; i < len(s); {
		c, size := rune(s[i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		space := unicode.IsSpace(c)
		if !space && !inField {
			n++
		}
		inField = !space
		i += size
	}
	return n
}

// bigramCounts adds weight to counts for each of cjk's bigrams.
func bigramCounts(counts map[string]float32, cjk string, weight float32) {
	for _, b := range strings.Fields(cjk) {
		counts[strings.ToLower(b)] += weight
	}
}

// queryLexemes are the distinct lexemes a query's words and CJK bigrams
// are looked up by.
func queryLexemes(words, bigrams []string) []string {
	counts := map[string]float32{}
	for _, w := range words {
		lexemeCounts(counts, w, 1)
	}
	for _, b := range bigrams {
		bigramCounts(counts, b, 1)
	}
	return slices.Sorted(maps.Keys(counts))
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// stems caches the stems of the words seen most recently: a library's
// files share most of their words, and stemming is most of cutting one
// (the Go specification cut at 46 MB/s with the cache, 12 MB/s without).
var stems = struct {
	sync.Mutex
	m map[string]string
}{m: map[string]string{}}

const maxCachedStems = 1 << 16

// englishLexeme lower-cases w and stems it, unless it is a stop word. A
// word holding a digit is only lower-cased, as PostgreSQL's english
// configuration leaves it ("float64s", "0xbadface").
func englishLexeme(w string) (string, bool) {
	w = lowerWord(w)
	if strings.ContainsFunc(w, unicode.IsDigit) {
		return w, true
	}
	if englishStopWords[w] {
		return "", false
	}
	stems.Lock()
	lx, ok := stems.m[w]
	stems.Unlock()
	if ok {
		return lx, true
	}
	env := snowball.NewEnv(w)
	english.Stem(env)
	lx = env.Current()
	stems.Lock()
	if len(stems.m) >= maxCachedStems {
		clear(stems.m)
	}
	stems.m[strings.Clone(w)] = lx
	stems.Unlock()
	return lx, true
}

// lowerWord is strings.ToLower without its copy for a word already in
// lower case, which most are.
func lowerWord(w string) string {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || ('A' <= c && c <= 'Z') {
			return strings.ToLower(w)
		}
	}
	return w
}

// englishStopWords are PostgreSQL's english.stop, Snowball's list.
var englishStopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`i me my myself we our ours ourselves you your yours yourself yourselves
he him his himself she her hers herself it its itself they them their theirs themselves
what which who whom this that these those am is are was were be been being have has had having
do does did doing a an the and but if or because as until while of at by for with about against
between into through during before after above below to from up down in out on off over under
again further then once here there when where why how all any both each few more most other some
such no nor not only own same so than too very s t can will just don should now`) {
		m[w] = true
	}
	return m
}()
