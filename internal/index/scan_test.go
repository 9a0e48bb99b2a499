package index

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// refMatch is a match in code points: [start, end).
type refMatch struct{ start, end int }

// refLiteral folds the whole text and takes non-overlapping matches left
// to right: the semantics the scanner keeps without folding the text. A
// case-sensitive query matches the raw bytes.
func refLiteral(text, query string, caseSensitive bool) []refMatch {
	q := []rune(norm.NFC.String(query))
	var out []refMatch
	if caseSensitive {
		qb := string(q)
		for at := 0; ; {
			i := strings.Index(text[at:], qb)
			if i < 0 {
				return out
			}
			s := utf8.RuneCountInString(text[:at+i])
			out = append(out, refMatch{s, s + len(q)})
			at += i + len(qb)
		}
	}
	tr := []rune(text)
	eq := func(a, b rune) bool { return foldRune(a) == foldRune(b) }
	for i := 0; i+len(q) <= len(tr); {
		if len(q) == 0 || !slices.EqualFunc(tr[i:i+len(q)], q, eq) {
			i++
			continue
		}
		out = append(out, refMatch{i, i + len(q)})
		i += len(q)
	}
	return out
}

// refRegex matches re in each line, skipping empty matches.
func refRegex(text string, re *regexp.Regexp) []refMatch {
	var out []refMatch
	at := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		body := strings.TrimSuffix(line, "\n")
		for _, loc := range re.FindAllStringIndex(body, -1) {
			if loc[0] < loc[1] {
				out = append(out, refMatch{utf8.RuneCountInString(text[:at+loc[0]]), utf8.RuneCountInString(text[:at+loc[1]])})
			}
		}
		at += len(line)
	}
	return out
}

// cleanRunes renders runes as a snippet does: control characters as spaces.
func cleanRunes(rs []rune) string {
	var b strings.Builder
	for _, r := range rs {
		if unicode.IsControl(r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// refHits renders matches as the scanner should: offset, line, heading,
// snippet with radius code points around the match.
func refHits(text string, ms []refMatch, radius int) []Hit {
	tr := []rune(text)
	var hits []Hit
	for _, m := range ms {
		from, to := max(0, m.start-radius), min(len(tr), m.end+radius)
		s := cleanRunes(tr[from:m.start]) + "«" + cleanRunes(tr[m.start:m.end]) + "»" + cleanRunes(tr[m.end:to])
		if from > 0 {
			s = "…" + s
		}
		if to < len(tr) {
			s += "…"
		}
		before := string(tr[:m.start])
		ls := strings.LastIndexByte(before, '\n') + 1
		hits = append(hits, Hit{
			Offset:  int64(m.start),
			Line:    int64(strings.Count(before, "\n")) + 1,
			Snippet: s,
			Heading: isHeadingLine([]byte(string(tr[utf8.RuneCountInString(before[:ls]):]))),
		})
	}
	return hits
}

// indexedReader is a text blob with the blob store's code point index:
// the byte offset of every stride-th code point.
type indexedReader struct {
	*strings.Reader
	stride int64
	idx    []int64
}

func (r indexedReader) CharIndex() (int64, []int64) { return r.stride, r.idx }

func newIndexedReader(text string, stride int64) indexedReader {
	r := indexedReader{Reader: strings.NewReader(text), stride: stride}
	c := int64(0)
	for i := range text {
		if c > 0 && c%stride == 0 {
			r.idx = append(r.idx, int64(i))
		}
		c++
	}
	return r
}

// scanPages scans text through consecutive calls, as search pages do;
// with stride > 0 the reader has a code point index.
func scanPages(t testing.TB, s *Scanner, text string, stride int64, budget int64) []Hit {
	t.Helper()
	var r io.ReaderAt = strings.NewReader(text)
	if stride > 0 {
		r = newIndexedReader(text, stride)
	}
	var hits []Hit
	pos := Pos{}
	for range 1_000_000 {
		out, err := s.Scan(context.Background(), r, int64(len(text)), pos, 1<<30, 1<<30, budget)
		if err != nil {
			t.Fatal(err)
		}
		hits = append(hits, out.Hits...)
		if out.Resume == nil {
			return hits
		}
		if out.Resume.Byte <= pos.Byte {
			t.Fatalf("resume at %d does not move on from %d", out.Resume.Byte, pos.Byte)
		}
		pos = *out.Resume
	}
	t.Fatal("scan does not finish")
	return nil
}

func randomText(rng *rand.Rand, n int) string {
	alphabet := []string{"a", "b", "A", "B", "é", "É", "e\u0301", "ſ", "s", "S", "K", "k", "\u212a", "会", "議", "🚀", "\n", "\n# ", "\n   #", "#",
		"Σ", "σ", "ς", "ß", "ẞ", " ", "\t", "1", "\xff", "\x80", "\xe4\xb8", "\xc3", "\xed\xa0\x80", "\ufffd", "ab", "kS"}
	var b strings.Builder
	for range rng.IntN(n) {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

func maxLineBytes(text string) int {
	m := 0
	for _, l := range strings.Split(text, "\n") {
		m = max(m, len(l))
	}
	return m
}

// TestScanMatchesReference compares every mode with the references on
// random text with invalid UTF-8, tiny chunks and resumed pages.
func TestScanMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	texts := []string{"", "k", "# kk\n  # KK\n    # kk", strings.Repeat("🚀", 9) + "\U0001F680ab🚀🚀Σ🚀" + strings.Repeat("🚀", 9), strings.Repeat("ab", 200) + "\xff\xfe KELVIN \u212aelvin"}
	for range 40 {
		texts = append(texts, randomText(rng, 300))
	}
	literals := []string{"a", "🚀a", "🚀🚀ab🚀", "🚀σ", "ab", "AB", "s", "SS", "k", "ks", "会议", "会k", "🚀 a", "σς", "ß", "é", "\n", "b a", "\ufffd", "\ufffd\ufffd", "a\ufffd", "#", "1", "e\u0301"}
	regexes := []string{"k+", "[aé]b", "^#", "s$", `\bab`, "x*", "会.", "(a|b)+", `\x{fffd}`}
	const radius = 5
	for i, text := range texts {
		type mode struct {
			name  string
			opts  Options
			query string
			want  []Hit
		}
		var modes []mode
		for _, q := range literals {
			for _, cs := range []bool{false, true} {
				modes = append(modes, mode{"literal", Options{CaseSensitive: cs}, q, refHits(text, refLiteral(text, q, cs), radius)})
			}
		}
		for _, q := range regexes {
			for _, cs := range []bool{false, true} {
				expr := q
				if !cs {
					expr = "(?i)" + q
				}
				modes = append(modes, mode{"regex", Options{CaseSensitive: cs, Regex: true}, q, refHits(text, refRegex(text, regexp.MustCompile(expr)), radius)})
			}
		}
		for _, md := range modes {
			s, err := NewScanner(md.query, md.opts, radius, 1)
			if err != nil {
				t.Fatal(err)
			}
			for _, chunk := range []int{1, 2, 3, 7, 64, 4096} {
				if md.opts.Regex && maxLineBytes(text) >= chunk {
					continue // a longer line is matched in pieces
				}
				s.chunk = chunk
				strides := []int64{0}
				if utf8.ValidString(text) {
					strides = append(strides, 1, 3)
				}
				for _, budget := range []int64{1, 100, 1 << 40} {
					stride := strides[(chunk+int(budget%7))%len(strides)]
					got := scanPages(t, s, text, stride, budget)
					want := md.want
					if budget < 1<<40 {
						// A resumed page does not know whether its first line is a heading.
						want = slices.Clone(want)
						for j := range got {
							if j < len(want) && got[j].Heading != want[j].Heading && !got[j].Heading {
								want[j].Heading = false
							}
						}
					}
					if !slices.Equal(got, want) {
						t.Fatalf("text %d %q: %s %q case-sensitive %v chunk %d budget %d stride %d:\n got %+v\nwant %+v",
							i, text, md.name, md.query, md.opts.CaseSensitive, chunk, budget, stride, got, want)
					}
				}
			}
		}
	}
}

// TestScanCountsBeyondHits checks count, more and after for every split
// of a file's matches into hits and counted ones.
func TestScanCountsBeyondHits(t *testing.T) {
	t.Parallel()
	text := "Word one\n# word two ẞ\nlast WORD and word"
	all := refHits(text, refLiteral(text, "word", false), 40)
	s, _ := NewScanner("word", Options{}, 40, 8)
	for maxHits := 0; maxHits <= len(all); maxHits++ {
		for countUpTo := maxHits; countUpTo <= len(all)+1; countUpTo++ {
			out, err := s.Scan(context.Background(), strings.NewReader(text), int64(len(text)), Pos{}, maxHits, countUpTo, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out.Hits, all[:maxHits]) || out.Count != min(countUpTo, len(all)) || out.More != (countUpTo < len(all)) {
				t.Fatalf("maxHits %d countUpTo %d: %+v", maxHits, countUpTo, out)
			}
			if maxHits == 0 {
				if out.After != nil {
					t.Fatalf("after without hits: %+v", out.After)
				}
				continue
			}
			// Paging by hits: continuing at after gives the next hits.
			rest, _ := s.Scan(context.Background(), strings.NewReader(text), int64(len(text)), *out.After, len(all), len(all), 1<<30)
			for j := range rest.Hits {
				rest.Hits[j].Snippet = all[maxHits+j].Snippet // a resumed scan does not know its own line's start
				rest.Hits[j].Heading = all[maxHits+j].Heading
			}
			if !slices.Equal(rest.Hits, all[maxHits:]) {
				t.Fatalf("after %+v: %+v", out.After, rest.Hits)
			}
		}
	}
	if all[1].Line != 2 || !all[1].Heading || all[0].Heading || all[2].Line != 3 {
		t.Fatalf("lines and headings: %+v", all)
	}
}

func TestScanRegexLongLineAndErrors(t *testing.T) {
	t.Parallel()
	// A line longer than the chunk is matched in pieces of a chunk: a
	// match across a piece boundary is not found, the others are.
	line := strings.Repeat("x", 30) + "ab" + strings.Repeat("y", 100)
	s, err := NewScanner("x+ab|yy", Options{Regex: true}, 2, 16)
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Scan(context.Background(), strings.NewReader(line), int64(len(line)), Pos{}, 100, 100, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Hits) == 0 || out.Hits[0].Offset >= 32 || out.Count < 40 {
		t.Fatalf("pieces: %+v", out)
	}
	for _, h := range out.Hits {
		if !strings.Contains(h.Snippet, "«") {
			t.Fatalf("snippet %q", h.Snippet)
		}
	}
	_, err = NewScanner("a(b", Options{Regex: true}, 2, 16)
	var qe *QueryError
	if !errors.As(err, &qe) || !strings.Contains(qe.Error(), "search: regex: missing closing )") {
		t.Fatalf("bad regex: %v", err)
	}
}

// FuzzScan compares the literal scan with the reference on any text.
func FuzzScan(f *testing.F) {
	f.Add([]byte("Kelvin \u212a k\xffK"), "k", uint8(3))
	f.Add([]byte("会议 ſ S s\n# x"), "会s", uint8(1))
	f.Fuzz(func(t *testing.T, text []byte, query string, chunk uint8) {
		if query == "" || len(query) > 20 || !utf8.ValidString(query) {
			return
		}
		s, err := NewScanner(query, Options{}, 4, int(chunk%64)+1)
		if err != nil {
			t.Fatal(err)
		}
		want := refHits(string(text), refLiteral(string(text), query, false), 4)
		got := scanPages(t, s, string(text), 0, 1<<40)
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("got %+v\nwant %+v", got, want)
		}
	})
}

func TestScanEmptyQueryFindsNothing(t *testing.T) {
	t.Parallel()
	for _, opts := range []Options{{}, {CaseSensitive: true}, {Regex: true}} {
		s, err := NewScanner("", opts, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		out, err := s.Scan(context.Background(), strings.NewReader("some text"), 9, Pos{}, 5, 5, 1<<30)
		if err != nil || out.Count != 0 || out.More {
			t.Fatalf("%+v: %+v %v", opts, out, err)
		}
	}
}
