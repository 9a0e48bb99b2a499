package tools

import "strconv"

// counted is n with its noun, singular for one: "1 hit", "2 hits". The
// tools' summaries are read by models and shown on the tool card as they
// are, so they read as English.
func counted[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(int64(n), 10) + " " + noun + "s"
}
