package index

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// naiveSearch is the reference: fold every rune, compare rune slices, take
// non-overlapping matches left to right, render snippets the same way.
func naiveSearch(text, query string, radius int) []Hit {
	tr := []rune(text)
	ft := make([]rune, len(tr))
	for i, r := range tr {
		ft[i] = foldRune(r)
	}
	var fq []rune
	for _, r := range norm.NFC.String(query) {
		fq = append(fq, foldRune(r))
	}
	var hits []Hit
	for i := 0; i+len(fq) <= len(ft); {
		if !slices.Equal(ft[i:i+len(fq)], fq) {
			i++
			continue
		}
		from, to := max(0, i-radius), min(len(tr), i+len(fq)+radius)
		s := cleanRunes(tr[from:i]) + "«" + cleanRunes(tr[i:i+len(fq)]) + "»" + cleanRunes(tr[i+len(fq):to])
		if from > 0 {
			s = "…" + s
		}
		if to < len(tr) {
			s += "…"
		}
		hits = append(hits, Hit{Offset: int64(i), Snippet: s})
		i += len(fq)
	}
	return hits
}

// scanAll scans text with a small chunk and budget, resuming until done,
// as consecutive search pages do.
func scanAll(t testing.TB, text, query string, radius int64, chunk int, budget int64) []Hit {
	t.Helper()
	s, err := NewScanner(query, Options{}, radius, chunk)
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReader(text)
	var hits []Hit
	pos := Pos{}
	for range 1_000_000 {
		out, err := s.Scan(context.Background(), r, int64(len(text)), pos, 1<<30, 1<<30, budget)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range out.Hits {
			h.Line, h.Heading = 0, false // checked against a reference in tool_search_scan_test.go
			hits = append(hits, h)
		}
		if out.Resume == nil {
			return hits
		}
		pos = *out.Resume
	}
	t.Fatal("scan does not finish")
	return nil
}

func TestScannerMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "A", "B", "é", "É", "ſ", "s", "S", "K", "k", "\u212a", "会", "議", "🚀", "\n", "Σ", "σ", "ς", "ß", "ẞ", " ", "\t"}
	texts := []string{
		"", "a", "aaaaaaa", "The quick brown fox jumps over the lazy dog. THE END.",
		strings.Repeat("会议纪要 🚀 Launch! ", 50),
		strings.Repeat("ab", 300) + "Kelvin \u212a and k and K",
	}
	for range 16 {
		var b strings.Builder
		for range rng.IntN(400) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	queries := []string{"a", "aa", "AB", "s", "SS", "k", "会议", "🚀 l", "σς", "ß", "é", "\n", "b a"}
	for i, text := range texts {
		for _, q := range queries {
			want := naiveSearch(text, q, 5)
			for _, chunk := range []int{1, 3, 7, 64, 4096} {
				for _, budget := range []int64{1, 1 << 40} {
					got := scanAll(t, text, q, 5, chunk, budget)
					if !slices.Equal(got, want) {
						t.Fatalf("text %d query %q chunk %d budget %d:\n got %+v\nwant %+v", i, q, chunk, budget, got, want)
					}
				}
			}
		}
	}
}

func TestScannerHitCapAndBoundary(t *testing.T) {
	t.Parallel()
	text := strings.Repeat("x", 100) + "NEEDLE" + strings.Repeat("y", 100) + "needle"
	s, _ := NewScanner("needle", Options{}, 3, 103) // the first match spans the chunk boundary
	out, err := s.Scan(context.Background(), strings.NewReader(text), int64(len(text)), Pos{}, 1, 1, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Hits) != 1 || out.Hits[0].Offset != 100 || out.Hits[0].Snippet != "…xxx«NEEDLE»yyy…" || !out.More {
		t.Fatalf("got %+v", out)
	}
	out, _ = s.Scan(context.Background(), strings.NewReader(text), int64(len(text)), Pos{}, 0, 0, 1<<30)
	if len(out.Hits) != 0 || !out.More {
		t.Fatalf("probe: %+v", out)
	}
}

// FuzzScanner checks the chunked scanner against the rune-by-rune
// reference for any text, query, chunk size and page budget.
func FuzzScanner(f *testing.F) {
	f.Add("Hello WORLD hello", "hello", uint8(3), uint8(5))
	f.Add("会议纪要🚀会议", "会议", uint8(1), uint8(1))
	f.Add("Kelvin \u212a k K ſ S s", "ks", uint8(2), uint8(200))
	f.Fuzz(func(t *testing.T, text, query string, chunk, budget uint8) {
		if query == "" || utf8.RuneCountInString(query) > 20 || len(text) > 2000 || !utf8.ValidString(text) || !utf8.ValidString(query) {
			return
		}
		query = strings.ToValidUTF8(query, "")
		if query == "" {
			return
		}
		want := naiveSearch(text, query, 4)
		got := scanAll(t, text, query, 4, int(chunk%64)+1, int64(budget)+1)
		if !slices.Equal(got, want) {
			t.Fatalf("got %+v\nwant %+v", got, want)
		}
		_ = context.Background()
	})
}
