package tools

import (
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// Search modes (SPEC §6). literal and ranked answer always; meaning and
// hybrid need an embedding model, and are refused without one.
const (
	ModeLiteral = "literal"
	ModeRanked  = "ranked"
	ModeMeaning = "meaning"
	ModeHybrid  = "hybrid"
)

var searchModes = []string{ModeLiteral, ModeRanked, ModeHybrid, ModeMeaning}

// SearchModes lists every search mode, as the search tool's schema does.
func SearchModes() []string { return slices.Clone(searchModes) }

// door is the kind of front door a call came through: it decides what a
// search without a mode means. Scripts (REST, /command) keep the literal
// search they were written against; a model (the agent, MCP) gets ranked
// retrieval for a question.
type door int

const (
	doorScript door = iota
	doorModel
)

// searchMode returns the mode a search runs in and the query it runs
// with: an explicit mode wins; without one a script's search is literal,
// and a model's is, for a query of several words, hybrid when the server
// has an embedding model (meaning) and ranked otherwise, and literal for a
// single token or a "quoted string" (searched without its quotes).
func searchMode(call toolCall, query string, meaning bool) (string, string, error) {
	mode := call.args.str("mode")
	switch mode {
	case ModeLiteral, ModeRanked:
	case ModeMeaning, ModeHybrid:
		if !meaning {
			return "", "", apierr.BadRequest(apierr.CodeNoEmbeddingModel,
				"search mode %q needs an embedding model and none is configured on this server; use mode \"ranked\" (words, best files first) or \"literal\" (an exact string)", mode)
		}
	case "":
		mode = ModeLiteral
		if call.door == doorModel && !call.args.boolean("regex") && !call.args.boolean("case_sensitive") {
			q := strings.TrimSpace(query)
			if unq, ok := quoted(q); ok {
				return ModeLiteral, unq, nil
			}
			if len(strings.Fields(q)) > 1 {
				mode = ModeRanked
				if meaning {
					mode = ModeHybrid
				}
			}
		}
	default:
		return "", "", apierr.BadRequest(apierr.CodeInvalidSearchMode, "mode must be one of %s, not %q", strings.Join(searchModes, ", "), kb.Clip(mode, 40))
	}
	if mode != ModeLiteral && (call.args.boolean("regex") || call.args.boolean("case_sensitive")) {
		return "", "", invalidArgs("search: regex and case_sensitive apply to mode \"literal\" only; mode %q matches words ignoring case", mode)
	}
	return mode, query, nil
}

// quoted returns the text inside a query wrapped in double quotes.
func quoted(q string) (string, bool) {
	for _, p := range [][2]string{{`"`, `"`}, {"“", "”"}, {"「", "」"}} {
		if strings.HasPrefix(q, p[0]) && strings.HasSuffix(q, p[1]) && len(q) > len(p[0])+len(p[1]) {
			if in := strings.TrimSpace(q[len(p[0]) : len(q)-len(p[1])]); in != "" {
				return in, true
			}
		}
	}
	return "", false
}
