package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

type searchJSON struct {
	URI   string `json:"uri"`
	Kind  string `json:"kind"`
	Mode  string `json:"mode"`
	Names []struct {
		URI, Name, Kind string
	} `json:"names"`
	NamesComplete bool `json:"names_complete"`
	Items         []struct {
		URI     string `json:"uri"`
		Line    int64  `json:"line"`
		Offset  int64  `json:"offset"`
		Snippet string `json:"snippet"`
	} `json:"items"`
	Complete   bool    `json:"complete"`
	NextCursor *string `json:"next_cursor"`
	Scanned    int     `json:"scanned"`
	MoreHitsIn []string
}

func (e *env) search(token, uri, query string, kv ...string) searchJSON {
	e.t.Helper()
	var out searchJSON
	e.mustOK(e.do(http.MethodGet, q("/api/v1/search", uri, append([]string{"q", query}, kv...)...), token, nil), http.StatusOK, &out)
	return out
}

// hitURIs lists the files of a search's content hits, once each, in order.
func (s searchJSON) hitURIs() []string {
	var out []string
	for _, h := range s.Items {
		if len(out) == 0 || out[len(out)-1] != h.URI {
			out = append(out, h.URI)
		}
	}
	return out
}

func TestSearchAPI(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		_, carol := e.newUser("carol")
		e.mkdir(bob, "kb://me/lib/")
		e.mustUpload(bob, "kb://me/lib/", upFile{"Budget-2027.md", []byte("# Plan\nthe budget is tight\n")},
			upFile{"notes.txt", []byte("nothing here\nsecond line mentions BUDGET once\n")},
			upFile{"预算.md", []byte("今年的预算很紧张。\n")})
		e.mustUpload(carol, "kb://me/", upFile{"budget.md", []byte("carol's budget")})

		all := e.search(bob, "kb://me/lib/", "budget")
		if all.Kind != "all" || len(all.Names) != 1 || all.Names[0].URI != "kb://users/bob/lib/Budget-2027.md" || all.Names[0].Kind != "file" || !all.NamesComplete {
			t.Fatalf("name matches: %+v", all)
		}
		if !all.Complete || all.NextCursor != nil || len(all.Items) != 2 {
			t.Fatalf("content hits: %+v", all)
		}
		for _, h := range all.Items {
			if !strings.HasPrefix(h.URI, "kb://users/bob/") || !strings.Contains(strings.ToLower(h.Snippet), "«budget»") {
				t.Fatalf("hit %+v", h)
			}
		}
		if h := all.Items[1]; h.URI != "kb://users/bob/lib/notes.txt" || h.Offset != int64(len("nothing here\nsecond line mentions ")) {
			t.Fatalf("second hit %+v", h)
		}

		names := e.search(bob, "kb://me/", "budget", "kind", "name")
		if len(names.Names) != 1 || len(names.Items) != 0 {
			t.Fatalf("kind=name: %+v", names)
		}
		content := e.search(bob, "kb://me/", "budget", "kind", "content")
		if len(content.Names) != 0 || len(content.Items) != 2 {
			t.Fatalf("kind=content: %+v", content)
		}
		// A glob filter keeps only matching files, for names and contents.
		md := e.search(bob, "kb://me/", "budget", "path", "*.txt")
		if len(md.Names) != 0 || len(md.Items) != 1 || md.Items[0].URI != "kb://users/bob/lib/notes.txt" {
			t.Fatalf("path=*.txt: %+v", md)
		}
		deep := e.search(bob, "kb://me/", "budget", "path", "lib/**/*.md")
		if len(deep.Items) != 1 || deep.Items[0].URI != "kb://users/bob/lib/Budget-2027.md" {
			t.Fatalf("path=lib/**/*.md: %+v", deep)
		}
		exact := e.search(bob, "kb://me/", "BUDGET", "case_sensitive", "true", "kind", "content")
		if len(exact.Items) != 1 || exact.Items[0].URI != "kb://users/bob/lib/notes.txt" || exact.Items[0].Line != 2 {
			t.Fatalf("case_sensitive: %+v", exact)
		}
		re := e.search(bob, "kb://me/", `bud.et\s+is`, "regex", "true", "kind", "content")
		if len(re.Items) != 1 || re.Items[0].Line != 2 || !strings.Contains(re.Items[0].Snippet, "«budget is»") {
			t.Fatalf("regex: %+v", re)
		}
		cjk := e.search(bob, "kb://me/", "预算")
		if len(cjk.Names) != 1 || len(cjk.Items) != 1 || !strings.Contains(cjk.Items[0].Snippet, "«预算»") {
			t.Fatalf("two-character Chinese query: %+v", cjk)
		}

		// Another user's tree is not found, and never a source of hits.
		wantErr(t, e.do(http.MethodGet, q("/api/v1/search", "kb://users/carol/", "q", "budget"), bob, nil), http.StatusNotFound, "not_found")
		for _, h := range e.search(bob, "kb://me/", "carol").Items {
			t.Fatalf("carol's file leaked into bob's search: %+v", h)
		}
		for _, bad := range []struct {
			kv       []string
			code, in string // the error code, and what its message names
		}{
			{[]string{"q", ""}, "invalid_arguments", "query"},
			{[]string{"q", "   "}, "invalid_arguments", "more than spaces"},
			{[]string{"q", "x", "kind", "files"}, "invalid_kind", "all, name or content"},
			{[]string{"q", "x", "regex", "maybe"}, "invalid_regex", "true or false"},
			// Input quoted in a message is clipped in bytes, on a character.
			{[]string{"q", "x", "regex", strings.Repeat("是", 40)}, "invalid_regex", `"` + strings.Repeat("是", 20) + `…"`},
			{[]string{"q", "x", "path", strings.Repeat("目", 50) + "//x"}, "invalid_arguments", `"` + strings.Repeat("目", 26) + `…"`},
			{[]string{"q", "x", "path", "[a-"}, "invalid_arguments", "not a valid glob"},
			{[]string{"q", "x", "path", strings.Repeat("**/", 16) + "zz"}, "invalid_arguments", `at most 8 "**"`},
			{[]string{"q", "x", "path", strings.Repeat("**/", 60) + "zz"}, "invalid_arguments", `at most 8 "**"`},
			{[]string{"q", "x", "cursor", "nope"}, "invalid_arguments", "not a cursor"},
			{[]string{"q", "a(b", "regex", "true"}, "invalid_arguments", "regex: missing closing )"},
		} {
			r := e.invalid().do(http.MethodGet, q("/api/v1/search", "kb://me/", bad.kv...), bob, nil)
			wantErr(t, r, http.StatusBadRequest, bad.code)
			if _, msg, _ := r.APIError(); !strings.Contains(msg, bad.in) {
				t.Fatalf("%v: message %q does not say %q", bad.kv, msg, bad.in)
			}
		}
	})
}

// TestSearchFollowsWrites: a file is found as soon as its upload answers,
// under its new name after a rename, and not at all once deleted.
func TestSearchFollowsWrites(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mustUpload(bob, "kb://me/", upFile{"a.md", []byte("an aardvark named zebulon\n")})
		if got := e.search(bob, "kb://me/", "zebulon").hitURIs(); len(got) != 1 || got[0] != "kb://users/bob/a.md" {
			t.Fatalf("after upload: %v", got)
		}
		e.mustOK(e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{"uri": "kb://me/a.md", "new_uri": "kb://me/b.md"}), http.StatusOK, nil)
		if got := e.search(bob, "kb://me/", "zebulon").hitURIs(); len(got) != 1 || got[0] != "kb://users/bob/b.md" {
			t.Fatalf("after rename: %v", got)
		}
		e.mustOK(e.uploadMode(bob, "kb://me/", "replace", upFile{"b.md", []byte("now about quokkas\n")}), http.StatusCreated, nil)
		if got := e.search(bob, "kb://me/", "zebulon").hitURIs(); len(got) != 0 {
			t.Fatalf("after replace, the old text is still found: %v", got)
		}
		if got := e.search(bob, "kb://me/", "quokka").hitURIs(); len(got) != 1 {
			t.Fatalf("after replace, the new text is not found: %v", got)
		}
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/b.md"), bob, nil), http.StatusNoContent, nil)
		if got := e.search(bob, "kb://me/", "quokka"); len(got.Items) != 0 || len(got.Names) != 0 {
			t.Fatalf("after delete: %+v", got)
		}
	})
}

// TestSearchIndexCoversScopeInOneCall: among 5,000 files, a rare word is
// found by one call that says it considered every file; a rebuilt index
// answers the same; a two-character query scans, and says it is partial.
func TestSearchIndexCoversScopeInOneCall(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mkdir(bob, "kb://me/big/")
		for b := range 25 {
			var files []upFile
			for i := range 200 {
				n := b*200 + i
				body := fmt.Sprintf("note %d about tides and 潮汐\n", n)
				if n == 4321 {
					body += "the word xyzzy-quux appears once\n"
				}
				files = append(files, upFile{fmt.Sprintf("n%04d.md", n), []byte(body)})
			}
			e.mustUpload(bob, "kb://me/big/", files...)
		}
		check := func(when string) {
			r := e.search(bob, "kb://me/big/", "XYZZY-quux", "kind", "content")
			if r.Mode != "index" || !r.Complete || r.NextCursor != nil || len(r.Items) != 1 || r.Items[0].URI != "kb://users/bob/big/n4321.md" {
				t.Fatalf("%s: %+v", when, r)
			}
		}
		check("after upload")
		if _, err := e.Index.Reindex(context.Background()); err != nil {
			t.Fatal(err)
		}
		check("after reindex")
		// A common phrase: too many candidates to rank, so pages go in path
		// order; together they show each of the 1,111 files once.
		seen, pages := map[string]int{}, 0
		for cursor := ""; ; pages++ {
			kv := []string{"kind", "content"}
			if cursor != "" {
				kv = append(kv, "cursor", cursor)
			}
			r := e.search(bob, "kb://me/big/", "note 1", kv...)
			if r.Mode != "index" || pages > 100 {
				t.Fatalf("page %d: %+v", pages, r)
			}
			for _, h := range r.Items {
				seen[h.URI]++
			}
			if r.Complete {
				break
			}
			cursor = *r.NextCursor
		}
		if len(seen) != 1111 || seen["kb://users/bob/big/n1999.md"] != 1 {
			var missing []string
			for n := range 5000 {
				u := fmt.Sprintf("kb://users/bob/big/n%04d.md", n)
				if strings.Contains(fmt.Sprintf("note %d about", n), "note 1") && seen[u] == 0 {
					missing = append(missing, u)
				}
			}
			t.Fatalf("%d pages found %d files; missing %v", pages, len(seen), missing)
		}
		for uri, n := range seen {
			if n != 1 {
				t.Fatalf("%s on %d pages", uri, n)
			}
		}
		short := e.search(bob, "kb://me/big/", "潮汐", "kind", "content")
		if short.Mode != "scan" || short.Complete || short.NextCursor == nil || short.Scanned != 40 {
			t.Fatalf("two-character query: mode %s complete %v scanned %d", short.Mode, short.Complete, short.Scanned)
		}
	})
}
