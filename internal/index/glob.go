package index

import (
	"path"
	"strings"
)

// Glob is a search's path filter. A pattern without "/" matches a file's
// name wherever it is ("*.md"); one with "/" matches the path relative to
// the searched folder, segment by segment, where "**" stands for any
// number of segments ("notes/**/*.md"). Segments use path.Match syntax.
type Glob struct {
	segs     []string
	nameOnly bool
}

func ParseGlob(p string) (Glob, error) {
	if p == "" {
		return Glob{}, nil
	}
	p = strings.Trim(p, "/")
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if s == "" {
			return Glob{}, badQuery("search: path %q has an empty segment; write e.g. \"*.md\" or \"notes/**/*.md\"", clip(p, 80))
		}
		if _, err := path.Match(s, ""); err != nil {
			return Glob{}, badQuery("search: path %q is not a valid glob (%v); write e.g. \"*.md\" or \"notes/**/*.md\"", clip(p, 80), err)
		}
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
		ok, _ := path.Match(g.segs[0], path.Base(rel))
		return ok
	}
	return matchSegs(g.segs, strings.Split(rel, "/"))
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := len(segs); i >= 0; i-- {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
