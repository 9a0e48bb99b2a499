package store

import (
	"encoding/hex"
	"iter"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgtype"
)

// SQLite's trigram index gets each chunk's distinct trigrams, not its
// text: the index has no positions (detail=none), so one entry per
// trigram and row is all it keeps, and letting FTS5's trigram tokenizer
// find them meant hashing every character of the text into its pending
// terms — most of the index writer's CPU. Each trigram is written as the
// hex of its UTF-8 bytes, a word FTS5's ascii tokenizer takes whole
// (migration 00036).
//
// A chunk ends before the trigram that would make it hold more than
// maxChunkGrams distinct ones, which bounds the work of its transaction;
// prose repeats its trigrams, so a chunk of it spans megabytes, while
// Chinese text, whose trigrams rarely repeat, gets shorter chunks.
const maxChunkGrams = 32 << 10

// gramSet is the distinct trigrams seen in a chunk: a bitmap for those of
// three ASCII characters, a map for the rest.
type gramSet struct {
	ascii   [1 << 21 / 64]uint64
	touched []uint32 // ASCII trigrams set, to clear them
	other   map[uint64]struct{}
	n       int
}

var gramSets = sync.Pool{New: func() any { return &gramSet{other: map[uint64]struct{}{}} }}

// add records a trigram and tells whether it is new.
func (s *gramSet) add(r0, r1, r2 rune) bool {
	if r0|r1|r2 < utf8.RuneSelf {
		k := uint32(r0)<<14 | uint32(r1)<<7 | uint32(r2)
		if s.ascii[k/64]&(1<<(k%64)) != 0 {
			return false
		}
		s.ascii[k/64] |= 1 << (k % 64)
		s.touched = append(s.touched, k)
	} else {
		k := uint64(r0)<<42 | uint64(r1)<<21 | uint64(r2)
		if _, ok := s.other[k]; ok {
			return false
		}
		s.other[k] = struct{}{}
	}
	s.n++
	return true
}

func (s *gramSet) reset() {
	for _, k := range s.touched {
		s.ascii[k/64] = 0
	}
	s.touched = s.touched[:0]
	clear(s.other)
	s.n = 0
}

// appendGram appends the index term of the trigram r0 r1 r2.
func appendGram(dst []byte, r0, r1, r2 rune) []byte {
	var b [3 * utf8.UTFMax]byte
	e := utf8.AppendRune(utf8.AppendRune(utf8.AppendRune(b[:0], r0), r1), r2)
	dst = hex.AppendEncode(dst, e)
	return append(dst, ' ')
}

// gramChunk collects the distinct trigrams of text from start until the
// one past limit, and returns them as index terms with where the chunk
// ends (len(text) when it reached the end).
func gramChunk(set *gramSet, dst []byte, text string, start, limit int) ([]byte, int) {
	set.reset()
	var r0, r1 rune
	seen := 0
	for i, r := range text[start:] {
		if seen >= 2 && set.n >= limit {
			// Full: the chunk ends before r only if r brings a new trigram.
			if set.add(r0, r1, r) {
				return dst, start + i
			}
		} else if seen >= 2 && set.add(r0, r1, r) {
			dst = appendGram(dst, r0, r1, r)
		}
		seen++
		r0, r1 = r1, r
	}
	return dst, len(text)
}

// gramTerms is every distinct trigram of text as index terms, one row's
// worth: for a small file, indexed whole.
func gramTerms(text string) string {
	set := gramSets.Get().(*gramSet)
	defer gramSets.Put(set)
	terms, _ := gramChunk(set, make([]byte, 0, len(text)/4), text, 0, len(text)+1)
	return string(terms)
}

// gramKeys is every distinct trigram of text as PostgreSQL's index holds
// them: an int8 of the three runes' code points, 21 bits each, sorted
// (GIN sorts what it gets, at once when it comes sorted).
func gramKeys(text string) []int64 {
	set := gramSets.Get().(*gramSet)
	defer gramSets.Put(set)
	set.reset()
	var keys []int64
	var r0, r1 rune
	seen := 0
	for _, r := range text {
		if seen >= 2 && set.add(r0, r1, r) {
			keys = append(keys, int64(r0)<<42|int64(r1)<<21|int64(r))
		}
		seen++
		r0, r1 = r1, r
	}
	slices.Sort(keys)
	return keys
}

// pgArray passes xs as one array parameter; gorm would spell a slice as a
// list of parameters.
func pgArray[T any](xs []T) pgtype.Array[T] {
	a := pgtype.Array[T]{Elements: xs, Valid: true}
	if len(xs) > 0 {
		a.Dims = []pgtype.ArrayDimension{{Length: int32(len(xs)), LowerBound: 1}}
	}
	return a
}

// indexChunks cuts text into overlapping chunks of at most maxChunkGrams
// distinct trigrams and yields where each chunk ends with its trigrams as
// index terms; an empty text is one empty chunk, so the old chunks still
// get replaced. Consecutive chunks overlap by searchChunkOverlap bytes,
// so any run of text that long lies whole in one chunk.
func indexChunks(text string) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		set := gramSets.Get().(*gramSet)
		defer gramSets.Put(set)
		var buf []byte
		for start := 0; ; {
			var end int
			buf, end = gramChunk(set, buf[:0], text, start, maxChunkGrams)
			if !yield(end, string(buf)) || end == len(text) {
				return
			}
			next := end - searchChunkOverlap
			for next > start && !utf8.RuneStart(text[next]) {
				next--
			}
			if next <= start {
				next = end // unreachable while a chunk of maxChunkGrams trigrams outgrows the overlap
			}
			start = next
		}
	}
}

// ftsQuery asks FTS5 for rows holding every trigram of the literal's
// first maxChunkLiteralRunes runes, each its own term, ANDed (detail=none
// keeps no positions for a phrase). The literal comes cleaned as the text
// was (SearchCandidates), so its trigrams are the ones the index holds.
func ftsQuery(literal string) string {
	rs := []rune(literal)
	rs = rs[:min(len(rs), maxChunkLiteralRunes)]
	seen := map[string]bool{}
	var terms []string
	for i := 0; i+MinIndexRunes <= len(rs); i++ {
		g := strings.TrimSpace(string(appendGram(nil, rs[i], rs[i+1], rs[i+2])))
		if seen[g] {
			continue
		}
		seen[g] = true
		terms = append(terms, `"`+g+`"`)
	}
	return strings.Join(terms, " AND ")
}
