package kb

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseURI checks the invariants that keep URIs from escaping a tree:
// a parsed URI re-parses to itself, never holds dot or empty segments, and
// stays in the caller's tree unless it names another user explicitly.
func FuzzParseURI(f *testing.F) {
	for _, s := range []string{"kb://me/a/b.md", "kb://users/bob/../alice/", "kb://users/", "kb://me/%2e%2e/x", "kb://me/a//b", "kb://me/café/😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ParseURI(raw, "alice")
		if err != nil {
			return
		}
		s := u.String()
		again, err := ParseURI(s, "alice")
		if err != nil || again != u {
			t.Fatalf("%q → %q does not round-trip: %+v vs %+v (%v)", raw, s, u, again, err)
		}
		if !utf8.ValidString(s) {
			t.Fatalf("invalid UTF-8 in %q", s)
		}
		if u.Path != "" {
			for _, seg := range strings.Split(u.Path, "/") {
				if seg == "" || seg == "." || seg == ".." || len(seg) > MaxNameBytes {
					t.Fatalf("%q gave bad segment %q", raw, seg)
				}
			}
		}
		if u.Username != "alice" && !strings.HasPrefix(strings.ToLower(raw), "kb://users/"+u.Username) {
			t.Fatalf("%q resolved to user %q without naming it", raw, u.Username)
		}
	})
}
