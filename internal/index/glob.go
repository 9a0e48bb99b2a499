package index

import (
	"path"
	"strings"

	"github.com/knowspace/knowspace/internal/kb"
)

// Glob is a search's path filter. A pattern without "/" matches a file's
// name wherever it is ("*.md"); one with "/" matches the path relative to
// the searched folder, segment by segment, where "**" stands for any
// number of segments ("notes/**/*.md"). Segments use path.Match syntax.
type Glob struct {
	segs     []string
	nameOnly bool
}

// maxGlobStars bounds the "**" segments of one pattern. Matching is linear
// in pattern × path segments, so this is not what keeps it cheap; it keeps
// patterns readable and refuses the shapes only an attacker writes.
const maxGlobStars = 8

// segMatch compares one pattern segment with one path segment; tests count
// its calls to prove the matcher's cost.
var segMatch = path.Match

// ParseGlob checks a path filter; the empty pattern passes everything.
func ParseGlob(p string) (Glob, error) {
	if p == "" {
		return Glob{}, nil
	}
	p = strings.Trim(p, "/")
	segs := strings.Split(p, "/")
	stars := 0
	for _, s := range segs {
		if s == "" {
			return Glob{}, badQuery("search: path %q has an empty segment; write e.g. \"*.md\" or \"notes/**/*.md\"", kb.Clip(p, 80))
		}
		if s == "**" {
			stars++
		}
		if _, err := path.Match(s, ""); err != nil {
			return Glob{}, badQuery("search: path %q is not a valid glob (%v); write e.g. \"*.md\" or \"notes/**/*.md\"", kb.Clip(p, 80), err)
		}
	}
	if stars > maxGlobStars {
		return Glob{}, badQuery("search: path %q has %d \"**\" segments; at most %d \"**\" are allowed", kb.Clip(p, 80), stars, maxGlobStars)
	}
	return Glob{segs: segs, nameOnly: len(segs) == 1 && segs[0] != "**"}, nil
}

// Match tells whether rel, a path relative to the searched folder, passes
// the filter; the empty filter passes everything.
func (g Glob) Match(rel string) bool {
	if len(g.segs) == 0 {
		return true
	}
	if g.nameOnly {
		ok, _ := segMatch(g.segs[0], path.Base(rel))
		return ok
	}
	return matchSegs(g.segs, strings.Split(rel, "/"))
}

// matchSegs walks the pattern once, keeping the set of path prefixes the
// pattern so far can match: each pattern segment meets each path segment at
// most once, where backtracking over "**" doubled the cost with every "**".
func matchSegs(pat, segs []string) bool {
	reach := make([]bool, len(segs)+1)
	next := make([]bool, len(segs)+1)
	reach[0] = true
	for _, p := range pat {
		clear(next)
		if p == "**" {
			seen := false
			for j, r := range reach {
				seen = seen || r
				next[j] = seen
			}
		} else {
			for j := 1; j <= len(segs); j++ {
				if reach[j-1] {
					next[j], _ = segMatch(p, segs[j-1])
				}
			}
		}
		reach, next = next, reach
	}
	return reach[len(segs)]
}
