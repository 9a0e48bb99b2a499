package access

import (
	"slices"
	"testing"
)

func TestAncestorsOutermostFirst(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"", "a"}},
		{"a b/c/d.md", []string{"", "a b", "a b/c", "a b/c/d.md"}},
	} {
		if got := Ancestors(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Ancestors(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWithinIsSegmentWise(t *testing.T) {
	for _, c := range []struct {
		path, root string
		want       bool
	}{
		{"a/b", "", true}, {"a", "a", true}, {"a/b", "a", true},
		{"ab", "a", false}, {"a b/c", "a", false}, {"a", "a/b", false},
	} {
		if got := Within(c.path, c.root); got != c.want {
			t.Errorf("Within(%q, %q) = %v", c.path, c.root, got)
		}
	}
}
