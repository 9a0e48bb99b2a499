package search_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// rankedCorpus is a small known corpus: each question of
// TestRankedOrder has one answering file.
var rankedCorpus = map[string]string{
	"gzip.md": "# compress/gzip\n\nPackage gzip implements reading and writing of gzip format compressed files.\n\n## type Reader\n\nA Reader is an io.Reader that can be read to retrieve uncompressed data from a gzip-format compressed file.\n",
	"tar.md":  "# archive/tar\n\nPackage tar implements access to tar archives.\n\nA tar archive consists of a sequence of files. Reading a file of the archive returns its data.\n",
	"bufio.md": "# bufio\n\nPackage bufio implements buffered I/O.\n\n## type Scanner\n\nScanner provides a convenient interface for reading data such as a file of newline-delimited lines of text. " +
		"Successive calls to the Scan method step through the lines of a file.\n",
	"tabwriter.md": "# text/tabwriter\n\nPackage tabwriter implements a write filter that translates tabbed columns in input into properly aligned text.\n",
	"columns.md":   "# Spreadsheet notes\n\ncolumns columns columns: the columns of a table, columns of numbers, columns and more columns.\n",
	"检索.md":        "# 全文检索\n\n本文介绍如何为中文文档建立全文检索索引，以及 BM25 排序。\n",
}

// TestRankedOrder: a question finds its answering file first, by words
// rather than as one string (the literal search of the same question finds
// nothing); a file's name and title count more than its body; Chinese is
// matched by bigrams.
func TestRankedOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for name, text := range rankedCorpus {
			e.put(e.alice, "kb://me/docs/", name, []byte(text))
		}
		if err := e.index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ query, first string }{
			{"how do I read a compressed file?", "gzip.md"},
			{"read a text file line by line", "bufio.md"},
			{"tabwriter columns", "tabwriter.md"},
			{"spreadsheet notes", "columns.md"},
			{"what is in a tar archive", "tar.md"},
			{"怎么做中文全文检索", "检索.md"},
			{"BM25 排序", "检索.md"},
		} {
			r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": tc.query, "mode": "ranked"})
			if r.Mode != "ranked" || !r.Ranked || !r.Complete || len(r.Hits) == 0 {
				t.Fatalf("%q: %+v", tc.query, r)
			}
			if got := strings.TrimPrefix(r.Hits[0].URI, "kb://users/alice/docs/"); got != tc.first {
				t.Errorf("%q: first %s, want %s (hits %+v)", tc.query, got, tc.first, r.Hits)
			}
			if !strings.Contains(r.Hits[0].Snippet, "«") {
				t.Errorf("%q: the passage marks no match: %q", tc.query, r.Hits[0].Snippet)
			}
		}
		if r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": "how do I read a compressed file?", "mode": "literal"}); len(r.Hits) != 0 {
			t.Errorf("literal search of the whole question found %+v", r.Hits)
		}
		// The passage's offset is a read offset: it lands on the line.
		r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": "uncompressed data retrieve", "mode": "ranked"})
		h := r.Hits[0]
		if !strings.HasSuffix(h.URI, "/gzip.md") || h.Line != 7 || !strings.HasPrefix(rankedCorpus["gzip.md"][len(strings.Join(strings.SplitN(rankedCorpus["gzip.md"], "\n", 7)[:6], "\n"))+1:], "A Reader") {
			t.Errorf("passage %+v", h)
		}
		if !strings.Contains(h.Snippet, "«retrieve» «uncompressed» «data»") {
			t.Errorf("snippet %q", h.Snippet)
		}
	})
}

// TestRankedRareWordsWeighMore: a word few files hold outweighs one most
// files hold, however often they repeat it, and a file holding only the
// common word is still returned, below.
func TestRankedRareWordsWeighMore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for i := range 9 {
			e.put(e.alice, "kb://me/notes/", fmt.Sprintf("release-%d.md", i), []byte(fmt.Sprintf("# Week %d\n\nThe release went out. Release notes: release %d, release candidate, release branch.\n", i, i)))
		}
		e.put(e.alice, "kb://me/notes/", "zoo.md", []byte("# Zoo\n\nA quokka came to the release party.\n"))
		if err := e.index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		r := e.searchWith(e.alice, "kb://me/notes/", map[string]any{"query": "release quokka", "mode": "ranked"})
		if len(r.Hits) == 0 || !strings.HasSuffix(r.Hits[0].URI, "/zoo.md") {
			t.Fatalf("first hit is not zoo.md: %+v", r.Hits)
		}
		if r.MatchedFiles != 10 {
			t.Errorf("matched %d files, want all 10 (the nine with the common word only, below): %+v", r.MatchedFiles, r.Hits)
		}
	})
}

// TestRankedScope: another user's file, a trashed file and a file outside
// a scoped token's folder never come back from a ranked search, though
// they hold every word of the query.
func TestRankedScope(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		text := []byte("# Quarterly budget\n\nThe quarterly budget review of the zanzibar project.\n")
		e.put(e.alice, "kb://me/work/", "budget.md", text)
		e.put(e.alice, "kb://me/private/", "budget.md", text)
		gone := e.put(e.alice, "kb://me/work/", "old-budget.md", text)
		e.put(e.bob, "kb://me/", "budget.md", text)
		if err := e.tree.Delete(ctx, e.alice, gone); err != nil {
			t.Fatal(err)
		}
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		q := map[string]any{"query": "zanzibar quarterly budget review", "mode": "ranked"}
		got := func(c kb.Caller, scope string) []string {
			var out []string
			for _, h := range e.searchWith(c, scope, q).Hits {
				if len(out) == 0 || out[len(out)-1] != h.URI {
					out = append(out, h.URI)
				}
			}
			return out
		}
		if all := got(e.alice, "kb://me/"); strings.Join(all, " ") != "kb://users/alice/private/budget.md kb://users/alice/work/budget.md" {
			t.Errorf("alice's own files: %v", all)
		}
		_, work, err := e.tree.Resolve(ctx, e.alice, "kb://me/work/")
		if err != nil {
			t.Fatal(err)
		}
		scoped := e.alice
		scoped.ScopeID, scoped.ScopePath = work.ID, work.Path
		if in := got(scoped, "kb://me/"); strings.Join(in, " ") != "kb://users/alice/work/budget.md" {
			t.Errorf("a token scoped to work/: %v", in)
		}
		if b := got(e.bob, "kb://me/"); strings.Join(b, " ") != "kb://users/bob/budget.md" {
			t.Errorf("bob: %v", b)
		}
	})
}

// TestSearchModeDefaults: the agent's search is ranked for a question and
// literal for one word or a quoted phrase; an explicit mode wins; meaning
// and hybrid say that no embedding model is configured.
func TestSearchModeDefaults(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/", "gzip.md", []byte(rankedCorpus["gzip.md"]))
		if err := e.index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args map[string]any
			mode string
			hits int
		}{
			{map[string]any{"query": "read compressed files"}, "ranked", 1},
			{map[string]any{"query": "gzip"}, "index", 4},
			{map[string]any{"query": `"compressed files"`}, "index", 1},
			{map[string]any{"query": "read compressed files", "mode": "literal"}, "index", 0},
			{map[string]any{"query": "gzip", "mode": "ranked"}, "ranked", 1},
		} {
			r := e.searchWith(e.alice, "kb://me/", tc.args)
			files := map[string]bool{}
			for _, h := range r.Hits {
				files[h.URI] = true
			}
			if r.Mode != tc.mode || (tc.mode == "ranked" && len(files) != tc.hits) || (tc.mode != "ranked" && len(r.Hits) != tc.hits) {
				t.Errorf("%v: mode %s, %d hits, want %s and %d", tc.args, r.Mode, len(r.Hits), tc.mode, tc.hits)
			}
		}
		for _, mode := range []string{"hybrid", "meaning"} {
			args := toolArgsJSON(t, map[string]any{"uri": "kb://me/", "query": "read compressed files", "mode": mode})
			_, err := tools.New(e.tree).RunScopedTool(context.Background(), e.alice, kb.Scope{URI: "kb://me/"}, "search", args)
			if err == nil || !strings.Contains(err.Error(), "no embedding model") && !strings.Contains(err.Error(), "embedding model") {
				t.Errorf("mode %s: %v", mode, err)
			}
		}
	})
}

// searchWith runs the agent's search tool on scope with args.
func (e *env) searchWith(c kb.Caller, scope string, args map[string]any) *tools.SearchResult {
	e.t.Helper()
	args["uri"] = scope
	res, err := tools.New(e.tree).RunScopedTool(context.Background(), c, kb.Scope{URI: scope}, "search", toolArgsJSON(e.t, args))
	if err != nil {
		e.t.Fatalf("search %v: %v", args, err)
	}
	return res.Value.(*tools.SearchResult)
}

// TestRankedPages: a ranked answer pages by its cursor, every matching file
// once, best first across the pages; a literal search refuses its cursor.
func TestRankedPages(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		for i := range 25 {
			text := "# Note\n\n" + strings.Repeat("filler words here\n", i) + "the quarterly zanzibar review\n"
			e.put(e.alice, "kb://me/n/", fmt.Sprintf("n%02d.md", i), []byte(text))
		}
		if err := e.index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		args := map[string]any{"query": "zanzibar review", "mode": "ranked"}
		seen := map[string]bool{}
		var order []string
		for page := 0; ; page++ {
			r := e.searchWith(e.alice, "kb://me/n/", args)
			if r.MatchedFiles != 25 || page > 5 {
				t.Fatalf("page %d: %+v", page, r)
			}
			for _, h := range r.Hits {
				if !seen[h.URI] {
					seen[h.URI] = true
					order = append(order, strings.TrimPrefix(h.URI, "kb://users/alice/n/"))
				} else if order[len(order)-1] != strings.TrimPrefix(h.URI, "kb://users/alice/n/") {
					t.Fatalf("%s shown again on page %d", h.URI, page)
				}
			}
			if r.NextOffset == nil {
				if !r.Complete {
					t.Fatalf("last page not complete: %+v", r)
				}
				break
			}
			args["offset"] = *r.NextOffset
		}
		// Shorter files rank higher (BM25's length normalization).
		if len(order) != 25 || order[0] != "n00.md" || order[24] != "n24.md" {
			t.Errorf("order %v", order)
		}
		args["mode"] = "literal"
		_, err := tools.New(e.tree).RunScopedTool(context.Background(), e.alice, kb.Scope{URI: "kb://me/n/"}, "search", toolArgsJSON(t, map[string]any{"uri": "kb://me/n/", "query": "zanzibar", "mode": "literal", "offset": args["offset"]}))
		if err == nil || !strings.Contains(err.Error(), "continues a ranked search") {
			t.Errorf("a ranked cursor in a literal search: %v", err)
		}
	})
}

// TestRankedAfterRebuild: a rebuild (an upgrade from an index without
// words) fills the word index again, and a deleted file leaves it.
func TestRankedAfterRebuild(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/d/", "gzip.md", []byte(rankedCorpus["gzip.md"]))
		tar := e.put(e.alice, "kb://me/d/", "tar.md", []byte(rankedCorpus["tar.md"]))
		if _, err := e.index.Reindex(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		files := func() string {
			var out []string
			for _, h := range e.searchWith(e.alice, "kb://me/d/", map[string]any{"query": "read compressed files", "mode": "ranked"}).Hits {
				if u := strings.TrimPrefix(h.URI, "kb://users/alice/d/"); len(out) == 0 || out[len(out)-1] != u {
					out = append(out, u)
				}
			}
			return strings.Join(out, " ")
		}
		if got := files(); got != "gzip.md tar.md" {
			t.Fatalf("after the rebuild: %s", got)
		}
		if err := e.tree.Delete(ctx, e.alice, tar); err != nil {
			t.Fatal(err)
		}
		if got := files(); got != "gzip.md" {
			t.Fatalf("after a delete: %s", got)
		}
	})
}

// TestRankedUnindexed: a file whose new text is too large for the index is
// not ranked by its old text; the answer counts it and is not complete.
func TestRankedUnindexed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/d/", "gzip.md", []byte(rankedCorpus["gzip.md"]))
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		e.tree.SetMaxIndexedBytes(64)
		e.put(e.alice, "kb://me/d/", "gzip.md", []byte(rankedCorpus["gzip.md"]+strings.Repeat("more text\n", 20)))
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		r := e.searchWith(e.alice, "kb://me/d/", map[string]any{"query": "read compressed files", "mode": "ranked"})
		if len(r.Hits) != 0 || r.UnrankedFiles != 1 || r.Complete || !strings.Contains(r.Note, "not ranked") {
			t.Fatalf("%+v", r)
		}
	})
}

// TestRankedFollowsRename: a renamed file is ranked by its new name.
func TestRankedFollowsRename(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/d/", "a.md", []byte("the weekly report\n"))
		e.put(e.alice, "kb://me/d/", "b.md", []byte("the weekly report\n"))
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.tree.Move(ctx, e.alice, "kb://me/d/b.md", "kb://me/d/zebra.md"); err != nil {
			t.Fatal(err)
		}
		if err := e.index.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		r := e.searchWith(e.alice, "kb://me/d/", map[string]any{"query": "zebra report", "mode": "ranked"})
		if len(r.Hits) != 2 || r.Hits[0].URI != "kb://users/alice/d/zebra.md" {
			t.Fatalf("%+v", r.Hits)
		}
	})
}
