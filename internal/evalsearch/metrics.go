// Package evalsearch measures search against known answers: a user's own
// questions, each with the files that answer it, asked in each search mode
// through the search the doors run, scored as recall@1, recall@5,
// recall@10 and MRR@10. The same figures serve the ranked-search
// benchmark, the operator command (knowspace eval-search) and the admin
// API.
package evalsearch

// Depth is how far down a ranking the figures look: recall@10 and MRR@10.
const Depth = 10

// FirstRank returns the rank, from 1, of the first file of ranked (the
// distinct files of a search's hits, best first) that is one of answers,
// looking at the first Depth files only; 0 when none of them is.
func FirstRank(ranked, answers []string) int {
	want := make(map[string]bool, len(answers))
	for _, a := range answers {
		want[a] = true
	}
	for i, f := range ranked[:min(len(ranked), Depth)] {
		if want[f] {
			return i + 1
		}
	}
	return 0
}

// RecallAt is the share of questions with an answering file among the
// first k files, given each question's first rank (0: none found).
func RecallAt(firsts []int, k int) float64 {
	if len(firsts) == 0 {
		return 0
	}
	n := 0
	for _, r := range firsts {
		if r >= 1 && r <= k {
			n++
		}
	}
	return float64(n) / float64(len(firsts))
}

// MRRAt is the mean over the questions of 1/rank of the first answering
// file, counting 0 for a question with none among the first k.
func MRRAt(firsts []int, k int) float64 {
	if len(firsts) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range firsts {
		if r >= 1 && r <= k {
			sum += 1 / float64(r)
		}
	}
	return sum / float64(len(firsts))
}

// Figures are the known-answer measures of one set of questions in one
// search mode.
type Figures struct {
	Questions  int     `json:"questions"`
	RecallAt1  float64 `json:"recall_at_1"`
	RecallAt5  float64 `json:"recall_at_5"`
	RecallAt10 float64 `json:"recall_at_10"`
	MRRAt10    float64 `json:"mrr_at_10"`
}

// Measure computes the figures from each question's first rank.
func Measure(firsts []int) Figures {
	return Figures{
		Questions:  len(firsts),
		RecallAt1:  RecallAt(firsts, 1),
		RecallAt5:  RecallAt(firsts, 5),
		RecallAt10: RecallAt(firsts, Depth),
		MRRAt10:    MRRAt(firsts, Depth),
	}
}
