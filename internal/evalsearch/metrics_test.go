package evalsearch_test

import (
	"math"
	"testing"

	"github.com/knowspace/knowspace/internal/evalsearch"
)

func TestFirstRank(t *testing.T) {
	t.Parallel()
	files := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = string(rune('a' + i))
		}
		return out
	}
	for _, c := range []struct {
		name    string
		ranked  []string
		answers []string
		want    int
	}{
		{"first file", []string{"a", "b"}, []string{"a"}, 1},
		{"third file", []string{"a", "b", "c"}, []string{"c"}, 3},
		{"the best of two answers", []string{"a", "b", "c", "d"}, []string{"d", "b"}, 2},
		{"not found", []string{"a", "b"}, []string{"z"}, 0},
		{"no files", nil, []string{"a"}, 0},
		{"tenth counts", files(12), []string{"j"}, 10},
		{"eleventh is beyond the depth", files(12), []string{"k"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := evalsearch.FirstRank(c.ranked, c.answers); got != c.want {
				t.Errorf("FirstRank(%v, %v) = %d, want %d", c.ranked, c.answers, got, c.want)
			}
		})
	}
}

func TestMeasure(t *testing.T) {
	t.Parallel()
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	for _, c := range []struct {
		name   string
		firsts []int
		want   evalsearch.Figures
	}{
		{"none", nil, evalsearch.Figures{}},
		{"every one first", []int{1, 1}, evalsearch.Figures{Questions: 2, RecallAt1: 1, RecallAt5: 1, RecallAt10: 1, MRRAt10: 1}},
		{"mixed", []int{1, 3, 0, 7}, evalsearch.Figures{Questions: 4, RecallAt1: 0.25, RecallAt5: 0.5, RecallAt10: 0.75,
			MRRAt10: (1 + 1.0/3 + 1.0/7) / 4}},
		{"a rank beyond ten counts as not found", []int{11, 2}, evalsearch.Figures{Questions: 2, RecallAt1: 0, RecallAt5: 0.5, RecallAt10: 0.5, MRRAt10: 0.25}},
		{"nothing found", []int{0, 0, 0}, evalsearch.Figures{Questions: 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := evalsearch.Measure(c.firsts)
			if got.Questions != c.want.Questions || !near(got.RecallAt1, c.want.RecallAt1) || !near(got.RecallAt5, c.want.RecallAt5) ||
				!near(got.RecallAt10, c.want.RecallAt10) || !near(got.MRRAt10, c.want.MRRAt10) {
				t.Errorf("Measure(%v) = %+v, want %+v", c.firsts, got, c.want)
			}
		})
	}
}

func TestRecallAndMRRAtAnyDepth(t *testing.T) {
	t.Parallel()
	firsts := []int{2, 4, 0, 1}
	if got := evalsearch.RecallAt(firsts, 2); got != 0.5 {
		t.Errorf("recall@2 = %v, want 0.5", got)
	}
	if got := evalsearch.RecallAt(firsts, 4); got != 0.75 {
		t.Errorf("recall@4 = %v, want 0.75", got)
	}
	if got := evalsearch.MRRAt(firsts, 3); got != (0.5+1)/4 {
		t.Errorf("MRR@3 = %v, want %v", got, (0.5+1)/4)
	}
	if got := evalsearch.RecallAt(nil, 10); got != 0 {
		t.Errorf("recall of no questions = %v, want 0", got)
	}
}
