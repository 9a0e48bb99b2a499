package index

import (
	"path"
	"strings"
	"testing"
)

func TestGlobMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pat, rel string
		want     bool
	}{
		{"", "a/b/c.md", true},
		{"*.md", "a/b/c.md", true},
		{"*.md", "a/b/c.txt", false},
		{"notes/**/*.md", "notes/c.md", true},
		{"notes/**/*.md", "notes/x/y/c.md", true},
		{"notes/**/*.md", "other/c.md", false},
		{"**", "a/b", true},
		{"**/b", "a/x/b", true},
		{"**/b", "b", true},
		{"a/**", "a", true},
		{"a/**", "a/b/c", true},
		{"a/*/c", "a/b/c", true},
		{"a/*/c", "a/b/x/c", false},
		{"a/**/b/**/c", "a/b/c", true},
		{"a/**/b/**/c", "a/x/b/y/z/c", true},
		{"a/**/b/**/c", "a/x/y/c", false},
		{"**/**/c", "c", true},
	} {
		g, err := ParseGlob(tc.pat)
		if err != nil {
			t.Fatalf("%q: %v", tc.pat, err)
		}
		if got := g.Match(tc.rel); got != tc.want {
			t.Errorf("%q on %q: %v, want %v", tc.pat, tc.rel, got, tc.want)
		}
	}
}

// TestGlobCostIsLinear: "**/**/…/zz" against a deep path that does not
// match once took time doubling with each "**" (16 of them cost 8 s of CPU).
// Now each pattern segment meets each path segment at most once, and past
// maxGlobStars the pattern is refused before any file is read.
func TestGlobCostIsLinear(t *testing.T) {
	deep := strings.Repeat("d/", 15) + "file.txt"
	stars := func(n int) string { return strings.Repeat("**/", n) + "zz" }

	calls := 0
	segMatch = func(p, s string) (bool, error) { calls++; return path.Match(p, s) }
	defer func() { segMatch = path.Match }()

	g, err := ParseGlob(stars(maxGlobStars))
	if err != nil {
		t.Fatalf("%d stars refused: %v", maxGlobStars, err)
	}
	if g.Match(deep) {
		t.Fatal("matched a path without zz")
	}
	pat, segs := maxGlobStars+1, 16
	if calls > pat*segs {
		t.Fatalf("%d segment comparisons for %d pattern × %d path segments", calls, pat, segs)
	}

	for _, n := range []int{maxGlobStars + 1, 16, 60} {
		_, err := ParseGlob(stars(n))
		if err == nil || !strings.Contains(err.Error(), `at most 8 "**"`) {
			t.Fatalf("%d stars: %v", n, err)
		}
	}
}

// BenchmarkGlobDeep is the attacker's shape at the cap: 8 "**" against a
// path 15 folders deep that does not match.
func BenchmarkGlobDeep(b *testing.B) {
	g, err := ParseGlob(strings.Repeat("**/", maxGlobStars) + "zz")
	if err != nil {
		b.Fatal(err)
	}
	deep := strings.Repeat("d/", 15) + "file.txt"
	for b.Loop() {
		if g.Match(deep) {
			b.Fatal("matched")
		}
	}
}
