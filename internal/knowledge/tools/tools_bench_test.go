package tools

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// toolBenchText is prose-like text, mostly ASCII with some accented and CJK
// words, with needle placed once near the end.
func toolBenchText(size int, seed uint64, needle string) []byte {
	words := []string{"knowledge", "Workspace", "notes", "the", "of", "Résumé", "会议", "纪要", "research", "plan", "and", "DATA", "pages", "agent", "search"}
	rng := rand.New(rand.NewPCG(seed, 7))
	var b bytes.Buffer
	for b.Len() < size-len(needle)-200 {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString(needle)
	for b.Len() < size {
		b.WriteByte('.')
	}
	return b.Bytes()
}

// BenchmarkToolLs lists the first and the last page of a folder of 10,000
// children through the tool (scope check, arguments, encoding included).
func BenchmarkToolLs(b *testing.B) {
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			e := newToolEnv(b, dialect)
			ctx := context.Background()
			e.mkdir(e.alice, "kb://me/big/")
			_, dir, _ := e.tree.Resolve(ctx, e.alice, "kb://me/big/")
			err := e.st.InTx(ctx, func(tx *store.Store) error {
				for i := range 10_000 {
					name := fmt.Sprintf("note-%05d.md", i)
					n := store.Node{UserID: e.alice.ID, ParentID: &dir.ID, Name: name, Path: "big/" + name, Kind: store.KindFile, Size: 100}
					if err := tx.CreateNode(ctx, &n); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			for _, offset := range []int{0, 10_000 - DefaultToolListLimit} {
				b.Run(fmt.Sprintf("offset=%d", offset), func(b *testing.B) {
					args := toolArgsJSON(b, map[string]any{"uri": "kb://me/big/", "offset": offset})
					for b.Loop() {
						r, err := e.tree.RunScopedTool(ctx, e.alice, kb.Scope{URI: "kb://me/big/"}, "ls", args)
						if err != nil || len(r.Value.(*LsResult).Items) != DefaultToolListLimit {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}

// BenchmarkToolReadLastPage reads the last page of a 50 MB file.
func BenchmarkToolReadLastPage(b *testing.B) {
	e := newToolEnv(b, store.DialectSQLite)
	uri := e.put(e.alice, "kb://me/", "big.md", toolBenchText(50<<20, 1, "end"))
	first := readPage(b, e, uri, 0, 1)
	args := toolArgsJSON(b, map[string]any{"uri": uri, "offset": first.Total - knowledge.DefaultPageLimit})
	ctx := context.Background()
	for b.Loop() {
		r, err := e.tree.RunScopedTool(ctx, e.alice, kb.Scope{URI: "kb://me/"}, "read", args)
		if err != nil || r.Value.(*ReadResult).NextOffset != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToolSearchPage runs one search page over 40 files of 1 MB (each
// read to the end: one match near its end) and, on the same bytes held in
// memory, bytes.Index (case-sensitive, the floor) and strings.ToLower +
// strings.Index (the obvious case-insensitive way). MB/s compare directly.
func BenchmarkToolSearchPage(b *testing.B) {
	const files, size = 40, 1 << 20
	e := newToolEnv(b, store.DialectSQLite)
	needle := "Needle Phrase"
	var data [][]byte
	for i := range files {
		body := toolBenchText(size, uint64(i), needle)
		data = append(data, body)
		e.put(e.alice, "kb://me/corpus/", fmt.Sprintf("f%02d.md", i), body)
	}
	ctx := context.Background()
	// Every file holds the needle: the index proposes all 40 and the ranked
	// answer reads them all, as the scan path does (measured second).
	for _, mode := range []string{"index", "scan"} {
		b.Run("tool-"+mode, func(b *testing.B) {
			if mode == "scan" {
				scanOnly(b, e)
			}
			args := toolArgsJSON(b, map[string]any{"uri": "kb://me/corpus/", "query": "needle phrase"})
			b.SetBytes(files * size)
			for b.Loop() {
				r, err := e.tree.RunScopedTool(ctx, e.alice, kb.Scope{URI: "kb://me/"}, "search", args)
				if err != nil {
					b.Fatal(err)
				}
				s := r.Value.(*SearchResult)
				if s.Scanned != files || len(s.Hits) != files || !s.Complete || s.Mode != mode {
					b.Fatalf("%s: scanned %d hits %d mode %s", mode, s.Scanned, len(s.Hits), s.Mode)
				}
			}
		})
	}
	b.Run("bytes.Index", func(b *testing.B) {
		q := []byte(needle)
		b.SetBytes(files * size)
		for b.Loop() {
			found := 0
			for _, d := range data {
				for rest := d; ; {
					i := bytes.Index(rest, q)
					if i < 0 {
						break
					}
					found++
					rest = rest[i+len(q):]
				}
			}
			if found != files {
				b.Fatal(found)
			}
		}
	})
	b.Run("strings.ToLower+Index", func(b *testing.B) {
		q := strings.ToLower(needle)
		texts := make([]string, len(data))
		for i, d := range data {
			texts[i] = string(d)
		}
		b.SetBytes(files * size)
		for b.Loop() {
			found := 0
			for _, s := range texts {
				low := strings.ToLower(s)
				for {
					i := strings.Index(low, q)
					if i < 0 {
						break
					}
					found++
					low = low[i+len(q):]
				}
			}
			if found != files {
				b.Fatal(found)
			}
		}
	})
	b.Run("fold-only", func(b *testing.B) {
		var buf []byte
		b.SetBytes(files * size)
		for b.Loop() {
			for _, d := range data {
				buf, _ = index.Fold(buf[:0], d, nil)
			}
		}
	})
}
