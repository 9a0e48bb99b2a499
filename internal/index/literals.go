package index

import (
	"regexp/syntax"
	"strings"

	"github.com/knowspace/knowspace/internal/store"
)

// Literals are the case-folded strings every match must contain that
// the index can look up (at least store.MinIndexRunes long). None means
// the index cannot help — a query of one or two characters, a regular
// expression without such a literal — and the search scans.
func Literals(query string, regex bool) ([]string, error) {
	if !regex {
		q := FoldQuery(query)
		if len(q) < store.MinIndexRunes {
			return nil, nil
		}
		return []string{string(q)}, nil
	}
	re, err := syntax.Parse(query, syntax.Perl)
	if err != nil {
		return nil, badQuery("search: regex: %v", err)
	}
	var out []string
	for _, l := range requiredLiterals(re.Simplify()) {
		if f := FoldQuery(l); len(f) >= store.MinIndexRunes {
			out = append(out, string(f))
		}
	}
	return out, nil
}

// requiredLiterals lists strings that every match of re contains: runs of
// literal characters in a concatenation, looking into groups and into
// repetitions that happen at least once. Alternations and optional parts
// contribute nothing, so the list may be empty but is never wrong.
func requiredLiterals(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var out []string
		var run strings.Builder
		flush := func() {
			if run.Len() > 0 {
				out = append(out, run.String())
				run.Reset()
			}
		}
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral {
				run.WriteString(string(sub.Rune))
				continue
			}
			flush()
			out = append(out, requiredLiterals(sub)...)
		}
		flush()
		return out
	}
	return nil
}
