package fakellm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxSearchQueryRunes keeps a scripted query within the search tool's limit.
const maxSearchQueryRunes = 200

var (
	// searchVerb is the word that makes the default script search; \b keeps
	// "research" and "findings" from counting.
	searchVerb = regexp.MustCompile(`(?i)\b(?:find|search)\b|查找|搜索`)
	// quoted is a phrase in double, curly or CJK quotes (not single ones:
	// apostrophes would pair up across words).
	quoted = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|「([^」]+)」`)
	// clauseEnd ends the words after the verb.
	clauseEnd = regexp.MustCompile(`[.?!,;:。？！，；：\n]`)
	forWhat   = regexp.MustCompile(`(?i)^.*?\bfor\s+(.*)$`)
	andMore   = regexp.MustCompile(`(?i)\s+(?:and|then)\s+`)
	// filler is what often sits between the verb and what to find.
	filler = regexp.MustCompile(`(?i)^(?:the word|the phrase|the|a|an|me|mentions of)\s+`)
)

// searchQuery is what a question asks the default script to search for: a
// quoted phrase if there is one, else the words after "find" or "search"
// (or 查找 / 搜索) up to the end of the clause, or the words after "for"
// when the verb names a place first ("search my notes for X"). It is "" when the question
// does not ask to find anything. kb:// URIs are scope, not query: a file
// named search.md does not make a question a search.
func searchQuery(question string) string {
	q := kbURI.ReplaceAllString(question, " ")
	loc := searchVerb.FindStringIndex(q)
	if loc == nil {
		return ""
	}
	if m := quoted.FindStringSubmatch(q); m != nil {
		for _, g := range m[1:] {
			if g = strings.TrimSpace(g); g != "" {
				return clip(g)
			}
		}
	}
	rest := strings.TrimSpace(q[loc[1]:])
	if end := clauseEnd.FindStringIndex(rest); end != nil {
		rest = rest[:end[0]]
	}
	// "search my files for deadlines and list them": what follows "for",
	// up to the next "and".
	if m := forWhat.FindStringSubmatchIndex(rest); m != nil {
		rest = rest[m[2]:]
	}
	if m := andMore.FindStringIndex(rest); m != nil {
		rest = rest[:m[0]]
	}
	for {
		trimmed := filler.ReplaceAllString(rest, "")
		if trimmed == rest {
			break
		}
		rest = trimmed
	}
	return clip(strings.TrimSpace(rest))
}

func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxSearchQueryRunes {
		return s
	}
	return string([]rune(s)[:maxSearchQueryRunes])
}

// searchAnswer turns a search tool result into an answer that cites each
// file it found once, at the line of its first hit (#L<n>) when the result
// says which line that is. ok is false for a result that is not a search's.
func searchAnswer(content string) (string, bool) {
	var res struct {
		Query    *string `json:"query"`
		Complete bool    `json:"complete"`
		Hits     []struct {
			URI     string `json:"uri"`
			Line    int64  `json:"line"`
			Snippet string `json:"snippet"`
		} `json:"hits"`
	}
	if json.Unmarshal([]byte(content), &res) != nil || res.Query == nil {
		return "", false
	}
	if len(res.Hits) == 0 {
		more := ""
		if !res.Complete {
			more = " so far (the search did not cover every file)"
		}
		return fmt.Sprintf("I found no mention of %q%s.", *res.Query, more), true
	}
	var cited []string
	seen := map[string]bool{}
	var b strings.Builder
	hits := "hits"
	if len(res.Hits) == 1 {
		hits = "hit"
	}
	fmt.Fprintf(&b, "I found %d %s for %q", len(res.Hits), hits, *res.Query)
	if !res.Complete {
		b.WriteString(" so far (the search did not cover every file)")
	}
	b.WriteString(":\n")
	for _, h := range res.Hits {
		if seen[h.URI] || !strings.HasPrefix(h.URI, "kb://") {
			continue
		}
		seen[h.URI] = true
		uri := h.URI
		if h.Line > 0 {
			uri = fmt.Sprintf("%s#L%d", h.URI, h.Line)
		}
		cited = append(cited, uri)
		fmt.Fprintf(&b, "\n- %s: %s", uri, firstRunes(h.Snippet, 120))
	}
	b.WriteString("\n\nSources: " + strings.Join(cited, ", "))
	return b.String(), true
}
