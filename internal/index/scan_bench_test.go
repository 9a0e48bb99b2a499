package index

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"testing"
)

// scanBenchCorpus is prose-like text: English words, and with mixed set
// accented Latin and CJK words too, one line break every dozen words.
func scanBenchCorpus(size int, mixed bool) []byte {
	words := []string{"the", "of", "and", "to", "in", "is", "that", "for", "it", "with", "as", "was", "on", "be", "at", "by", "this",
		"have", "from", "or", "one", "had", "not", "but", "what", "all", "were", "when", "we", "there", "can", "an", "your",
		"which", "their", "said", "if", "do", "will", "each", "about", "how", "up", "out", "them", "then", "she", "many",
		"some", "so", "these", "would", "other", "into", "has", "more", "her", "two", "like", "him", "see", "time", "could",
		"no", "make", "than", "first", "been", "its", "who", "now", "people", "my", "made", "over", "did", "down", "only",
		"way", "find", "use", "may", "water", "long", "little", "very", "after", "words", "called", "just", "where", "most",
		"Knowledge", "Workspace", "notes", "research", "plan", "DATA", "pages", "agent", "search", "project", "meeting", "budget"}
	if mixed {
		words = append(words, "café", "naïve", "Résumé", "über", "Straße", "français", "niño", "Zoë", "会议", "纪要", "東京", "研究", "計画", "データ")
	}
	rng := rand.New(rand.NewPCG(11, uint64(len(words))))
	var b bytes.Buffer
	b.Grow(size + 32)
	for b.Len() < size {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.Bytes()[:size]
}

// BenchmarkScan runs the scanner over a 4 MB text in memory (the
// production chunk size, hits capped at 5, every further match counted so
// the whole text is read; also with the blob store's code point index)
// and, over the same bytes, bytes.Index with the query as written
// (case-sensitive, the floor), alone and after ReadAt copies of the
// chunks. Rare queries have no match: the worst case. MB/s compare
// directly.
func BenchmarkScan(b *testing.B) {
	const size = 4 << 20
	for _, corpus := range []struct {
		name  string
		mixed bool
	}{{"mixed", true}, {"ascii", false}} {
		data := scanBenchCorpus(size, corpus.mixed)
		for _, q := range []struct{ name, query string }{
			{"rare-needle", "needle phrase"},
			{"rare-Zephyr", "Zephyr quota"},
			{"rare-cjk", "量子计算"},
			{"rare-digits", "2026-11-30"},
			{"common-the", "the"},
			{"common-budget", "budget"},
		} {
			want := bytes.Count(data, []byte(q.query))
			for _, indexed := range []bool{false, true} {
				name := "/scan"
				var r io.ReaderAt = bytes.NewReader(data)
				if indexed {
					// The blob store's code point index (every 4,096th).
					name, r = "/scan-indexed", newIndexedReader(string(data), 4096)
				}
				b.Run(corpus.name+"/"+q.name+name, func(b *testing.B) {
					s, err := NewScanner(q.query, Options{}, SnippetRadius, ChunkBytes)
					if err != nil {
						b.Fatal(err)
					}
					b.SetBytes(size)
					for b.Loop() {
						out, err := s.Scan(context.Background(), r, size, Pos{}, 5, 1<<30, 1<<40)
						if err != nil || out.Count < want || out.Read != size {
							b.Fatalf("%v: %d matches, want ≥ %d", err, out.Count, want)
						}
					}
				})
			}
			b.Run(corpus.name+"/"+q.name+"/read+bytes.Index", func(b *testing.B) {
				// The floor of any chunked scan: ReadAt copies each chunk.
				needle, r := []byte(q.query), bytes.NewReader(data)
				buf := make([]byte, ChunkBytes)
				b.SetBytes(size)
				for b.Loop() {
					n := 0
					for off := int64(0); off < size; off += ChunkBytes {
						m, _ := r.ReadAt(buf, off)
						n += bytes.Count(buf[:m], needle)
					}
					if n > want {
						b.Fatal(n)
					}
				}
			})
			b.Run(corpus.name+"/"+q.name+"/bytes.Index", func(b *testing.B) {
				needle := []byte(q.query)
				b.SetBytes(size)
				for b.Loop() {
					n := 0
					for rest := data; ; {
						i := bytes.Index(rest, needle)
						if i < 0 {
							break
						}
						n++
						rest = rest[i+len(needle):]
					}
					if n != want {
						b.Fatal(n)
					}
				}
			})
		}
	}
}
