package tools

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func searchPage(t testing.TB, e *toolEnv, scope string, args map[string]any) *SearchResult {
	t.Helper()
	return e.mustRun(e.alice, scope, "search", args).Value.(*SearchResult)
}

func TestToolSearchCaseAndScripts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", "en.md", []byte("Project Launch is in MARCH.\nlaunch party later."))
		e.put(e.alice, "kb://me/d/", "el.md", []byte("Ο ΣΊΣΥΦΟΣ ανεβαίνει."))
		e.put(e.alice, "kb://me/d/", "ru.md", []byte("Привет, МИР!"))
		e.put(e.alice, "kb://me/d/", "de.md", []byte("STRASSE und Straße und STRAẞE"))
		e.put(e.alice, "kb://me/d/", "zh.md", []byte("第三次会议纪要：讨论 🚀 发射计划。"))
		e.put(e.alice, "kb://me/d/", "emoji.md", []byte("status: 👩‍💻 coding, then 🚀🚀 launch"))

		cases := []struct {
			query string
			want  []string // uri#offset
		}{
			{"launch", []string{"emoji.md#28", "en.md#8", "en.md#28"}},
			{"march", []string{"en.md#21"}},
			{"σίσυφος", []string{"el.md#2"}},
			{"мир", []string{"ru.md#8"}},
			{"straße", []string{"de.md#12", "de.md#23"}}, // simple folding: ß ~ ẞ, not ss,
			{"会议纪要", []string{"zh.md#3"}},
			{"🚀 发射", []string{"zh.md#11"}},
			{"👩‍💻", []string{"emoji.md#8"}},
			{"🚀🚀", []string{"emoji.md#25"}},
			{"absent", nil},
		}
		for _, mode := range []string{"index", "scan"} {
			if mode == "scan" {
				scanOnly(t, e)
			}
			for _, tc := range cases {
				checkScriptCase(t, e, mode, tc.query, tc.want)
			}
		}
	})
}

// checkScriptCase runs one query of TestToolSearchCaseAndScripts: the same
// hits in either mode, in path order when scanning, best first from the
// index.
func checkScriptCase(t *testing.T, e *toolEnv, mode, query string, want []string) {
	t.Helper()
	r := searchPage(t, e, "kb://me/d/", map[string]any{"uri": "kb://me/d/", "query": query, "mode": "literal"})
	var got []string
	for _, h := range r.Hits {
		got = append(got, fmt.Sprintf("%s#%d", h.URI[len("kb://users/alice/d/"):], h.Offset))
		// The offset is a read offset: read gives back the matched text.
		p := readPage(t, e, h.URI, h.Offset, int64(len([]rune(query))))
		if !strings.Contains(h.Snippet, "«"+p.Text+"»") {
			t.Errorf("%q: snippet %q does not mark %q", query, h.Snippet, p.Text)
		}
	}
	if mode == "index" && query == "launch" {
		want = []string{"en.md#8", "en.md#28", "emoji.md#28"} // more matches first
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s %q: hits %v, want %v", mode, query, got, want)
	}
	matched := len(slices.Compact(fileNames(want)))
	if len([]rune(query)) < 3 {
		mode = "scan" // shorter than a trigram: the index cannot help
	}
	if r.Mode != mode || !r.Complete || r.NextOffset != nil || r.MatchedFiles != matched ||
		(mode == "scan" && r.Scanned != 6) || (mode == "index" && (r.Scanned < matched || r.Scanned > 6)) {
		t.Errorf("%s %q: mode %s scanned %d complete %v matched %d", mode, query, r.Mode, r.Scanned, r.Complete, r.MatchedFiles)
	}
}

func fileNames(hits []string) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h[:strings.IndexByte(h, '#')])
	}
	return out
}

func TestToolSearchHitAcrossReadPageBoundary(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		// "boundary" occupies characters 2997–3004: read's first page ends inside it.
		text := strings.Repeat("会", 2997) + "boundary" + strings.Repeat("z", 5000)
		uri := e.put(e.alice, "kb://me/d/", "long.md", []byte(text))
		p := readPage(t, e, uri, 0, 0)
		if strings.Contains(p.Text, "boundary") {
			t.Fatal("the match should span the page boundary")
		}
		r := searchPage(t, e, "kb://me/d/long.md", map[string]any{"uri": uri, "query": "BOUNDARY"})
		if len(r.Hits) != 1 || r.Hits[0].Offset != 2997 || !r.Complete || r.Scanned != 1 {
			t.Fatalf("got %+v", r)
		}
		want := "…" + strings.Repeat("会", index.SnippetRadius) + "«boundary»" + strings.Repeat("z", index.SnippetRadius) + "…"
		if r.Hits[0].Snippet != want {
			t.Fatalf("snippet %q", r.Hits[0].Snippet)
		}
	})
}

// searchAllPages follows next_offset and returns the pages; between pages
// it calls between(page number).
func searchAllPages(t testing.TB, e *toolEnv, uri, query string, between func(int)) []*SearchResult {
	t.Helper()
	var pages []*SearchResult
	args := map[string]any{"uri": uri, "query": query}
	for i := 0; ; i++ {
		r := searchPage(t, e, uri, args)
		pages = append(pages, r)
		if r.NextOffset == nil {
			if !r.Complete {
				t.Fatal("last page is not complete")
			}
			return pages
		}
		if r.Complete {
			t.Fatal("page with next_offset claims complete")
		}
		if between != nil {
			between(i)
		}
		args["offset"] = *r.NextOffset
		if i > 100 {
			t.Fatal("search does not end")
		}
	}
}

func TestToolSearchPagesCoverTreeOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		scanOnly(t, e)
		var want []string
		for i := range 95 {
			folder := fmt.Sprintf("kb://me/big/f%d/", i%4)
			name := fmt.Sprintf("n%03d.md", i)
			e.put(e.alice, folder, name, []byte(fmt.Sprintf("file %d says hello", i)))
			want = append(want, strings.Replace(folder, "kb://me/", "kb://users/alice/", 1)+name)
		}
		e.put(e.alice, "kb://me/big/", "pic.png", []byte("\x89PNG\r\n\x1a\n\x00"))
		e.put(e.alice, "kb://me/big-sibling/", "x.md", []byte("hello"))
		slices.Sort(want)

		added := false
		pages := searchAllPages(t, e, "kb://me/big/", "HELLO", func(i int) {
			if i == 0 {
				// One file sorts before the cursor, one after it.
				e.put(e.alice, "kb://me/big/f0/", "a-early.md", []byte("hello early"))
				e.put(e.alice, "kb://me/big/f3/", "z-late.md", []byte("hello late"))
				added = true
			}
		})
		if !added {
			t.Fatal("only one page")
		}
		var got []string
		scanned, skipped := 0, 0
		for _, p := range pages {
			if p.Scanned+p.SkippedNoText > SearchFilesPerPage {
				t.Fatalf("a page visited %d files", p.Scanned+p.SkippedNoText)
			}
			scanned += p.Scanned
			skipped += p.SkippedNoText
			for _, h := range p.Hits {
				got = append(got, h.URI)
			}
			if p.MatchedFiles != len(p.Hits) {
				t.Fatalf("matched_files %d for %d hits", p.MatchedFiles, len(p.Hits))
			}
		}
		want = append(want, "kb://users/alice/big/f3/z-late.md")
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("hits cover %d files, want %d (duplicates or gaps)\n%v", len(got), len(want), got)
		}
		if len(pages) != 3 || scanned != 96 || skipped != 1 {
			t.Fatalf("%d pages, scanned %d, skipped %d", len(pages), scanned, skipped)
		}
		if pages[0].Complete || !strings.Contains(pages[0].Note, "call search again") {
			t.Fatalf("first page note %q", pages[0].Note)
		}
	})
}

func TestToolSearchLimitsAndCursor(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		many := e.put(e.alice, "kb://me/d/", "many.md", []byte(strings.Repeat("word ", 20)))
		e.put(e.alice, "kb://me/d/", "one.md", []byte("a word"))
		e.put(e.alice, "kb://me/other/", "x.md", []byte("word"))

		r := searchPage(t, e, "kb://me/d/", map[string]any{"uri": "kb://me/d/", "query": "word"})
		if len(r.Hits) != MaxSearchHitsPerFile+1 || r.MatchedFiles != 2 || !slices.Equal(r.MoreHitsIn, []string{many}) {
			t.Fatalf("per-file cap: %d hits, more in %v", len(r.Hits), r.MoreHitsIn)
		}
		if !strings.Contains(r.Note, "more_hits_in") {
			t.Fatalf("note %q", r.Note)
		}
		// The file alone, continuing inside it from a cursor.
		cur := searchCursor{Path: "d/many.md", Mid: true, Byte: 50, Char: 50, Accept: 50}
		_, n, _ := e.tree.Resolve(context.Background(), e.alice, many)
		bodies, _ := e.st.LatestBodies(context.Background(), []int64{n.ID})
		cur.Hash = hashPrefix(bodies[n.ID]["raw"].BlobHash)
		r = searchPage(t, e, many, map[string]any{"uri": many, "query": "word", "offset": *cur.encode()})
		if len(r.Hits) != 10 || r.Hits[0].Offset != 50 || !r.Complete {
			t.Fatalf("resumed: %+v", r.Hits) // a file's own search shows all its hits, not 5
		}
		// A cursor whose blob changed starts the file again and says so.
		cur.Hash = "0000"
		r = searchPage(t, e, many, map[string]any{"uri": many, "query": "word", "offset": *cur.encode()})
		if r.Hits[0].Offset != 0 || !strings.Contains(r.Note, "changed since the previous page") {
			t.Fatalf("changed blob: %+v", r)
		}

		for _, tc := range []struct{ offset, fragment string }{
			{"40", "not a cursor"},
			{"s1.!!!", "not a cursor"},
			{*searchCursor{Path: "other/x.md"}.encode(), "another uri"},
			{*searchCursor{Path: "d/a", Char: 5, Accept: 1}.encode(), "not a cursor"},
		} {
			_, err := e.run(e.alice, "kb://me/", "search", map[string]any{"uri": "kb://me/d/", "query": "word", "offset": tc.offset})
			wantToolErr(t, err, "invalid_arguments", tc.fragment)
		}
		_, err := e.run(e.alice, "kb://me/", "search", map[string]any{"uri": "kb://me/d/", "query": "   "})
		wantToolErr(t, err, "invalid_arguments", "more than spaces")
	})
}

func TestToolSearchHitBytesStayUnderCeiling(t *testing.T) {
	e := newToolEnv(t, "sqlite")
	long := strings.Repeat("会", 150)
	for i := range 40 {
		body := bytes.Repeat([]byte("🚀"+long+"🚀"), 6)
		e.put(e.alice, "kb://me/d/", fmt.Sprintf("f%02d.md", i), body)
	}
	args := map[string]any{"uri": "kb://me/d/", "query": "🚀" + strings.Repeat("会", 100)}
	// Ranked from the index: the page stops where the hits' bytes run out,
	// and the files not shown yet come on the next page.
	r := e.mustRun(e.alice, "kb://me/d/", "search", args)
	s := r.Value.(*SearchResult)
	if len(r.JSON) > MaxToolResultBytes || len(s.Hits) == 0 || len(s.Hits) >= MaxSearchHitsPerPage || s.MatchedFiles != 40 || s.NextOffset == nil || s.Mode != "index" {
		t.Fatalf("index: %d bytes, %d hits, matched %d, next %v", len(r.JSON), len(s.Hits), s.MatchedFiles, s.NextOffset)
	}
	scanOnly(t, e)
	r = e.mustRun(e.alice, "kb://me/d/", "search", args)
	s = r.Value.(*SearchResult)
	if len(r.JSON) > MaxToolResultBytes || len(s.Hits) == 0 || len(s.Hits) >= MaxSearchHitsPerPage || s.MatchedFiles != 40 || len(s.MoreHitsIn) != 40 {
		t.Fatalf("scan: %d bytes, %d hits, matched %d, more in %d", len(r.JSON), len(s.Hits), s.MatchedFiles, len(s.MoreHitsIn))
	}
}

// scanOnly marks the index as being rebuilt, so searches take the scan
// path, as they do while a rebuild runs.
func scanOnly(t testing.TB, e *toolEnv) {
	t.Helper()
	if err := e.st.MarkSearchIndex(context.Background(), false); err != nil {
		t.Fatal(err)
	}
}

// TestToolSearchPagesThroughOneFile: a file's own search pages by hits (find
// in file): every match once, in order, with its line, across pages.
func TestToolSearchPagesThroughOneFile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		var b strings.Builder
		for i := range 100 {
			fmt.Fprintf(&b, "line %d has a Tern in it\n", i)
		}
		uri := e.put(e.alice, "kb://me/d/", "terns.md", []byte(b.String()))
		args := map[string]any{"uri": uri, "query": "tern", "case_sensitive": true}
		if r := searchPage(t, e, uri, args); len(r.Hits) != 0 || !r.Complete {
			t.Fatalf("case-sensitive miss: %+v", r)
		}
		args["case_sensitive"] = false
		var lines []int64
		pages := 0
		for {
			r := searchPage(t, e, uri, args)
			pages++
			if len(r.Hits) > MaxSearchHitsPerPage {
				t.Fatalf("page of %d hits", len(r.Hits))
			}
			for _, h := range r.Hits {
				lines = append(lines, h.Line)
			}
			if r.Complete {
				break
			}
			args["offset"] = *r.NextOffset
		}
		if pages != 3 || len(lines) != 100 || lines[0] != 1 || lines[40] != 41 || lines[99] != 100 || !slices.IsSorted(lines) {
			t.Fatalf("%d pages, %d hits, lines %v", pages, len(lines), lines)
		}
		args = map[string]any{"uri": uri, "query": `line 9\d has`, "regex": true}
		if r := searchPage(t, e, uri, args); len(r.Hits) != 10 || r.Hits[0].Line != 91 || !strings.Contains(r.Hits[0].Snippet, "«line 90 has»") {
			t.Fatalf("regex: %+v", r)
		}
	})
}
