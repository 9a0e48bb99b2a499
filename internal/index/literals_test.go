package index

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestIndexLiterals(t *testing.T) {
	for _, tc := range []struct {
		query string
		regex bool
		want  []string
	}{
		{"Budget", false, []string{"BUDGET"}},
		{"预算", false, nil}, // two characters: shorter than a trigram
		{"会议纪要", false, []string{"会议纪要"}},
		{`error \d+ in (parser|lexer)`, true, []string{"ERROR ", " IN "}},
		{`(?i)timeout(s)?`, true, []string{"TIMEOUT"}},
		{`colou?r`, true, []string{"COLO"}}, // "r" is too short to look up
		{`(abc)+def`, true, []string{"ABC", "DEF"}},
		{`x{2,}yz`, true, nil},
		{`a|bcd`, true, nil},
		{`.*`, true, nil},
	} {
		got, err := Literals(tc.query, tc.regex)
		if err != nil {
			t.Fatalf("%q: %v", tc.query, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: literals %q, want %q", tc.query, got, tc.want)
		}
		// Never wrong: every literal occurs in a matching text.
		if tc.regex {
			re := regexp.MustCompile(tc.query)
			for _, sample := range []string{"error 42 in lexer", "TIMEOUTS", "color", "colour", "abcabcdef", "xxxyz", "bcd"} {
				if !re.MatchString(sample) {
					continue
				}
				m := FoldQuery(re.FindString(sample))
				for _, l := range got {
					if !strings.Contains(string(m), l) {
						t.Errorf("%q matches %q, which lacks the literal %q", tc.query, sample, l)
					}
				}
			}
		}
	}
	if _, err := Literals(`a(b`, true); err == nil || !strings.Contains(err.Error(), "regex") {
		t.Fatalf("bad regex: %v", err)
	}
}
