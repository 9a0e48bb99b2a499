package httpapi_test

import (
	"bytes"
	"fmt"
	"mime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestListPaging creates more children than a page holds and walks the pages.
func TestListPaging(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")

		// The sample root: folders first, then files, each by name.
		if got := strings.Join(e.names(bob, "kb://me/"), ","); got != "data,notes,Welcome.md" {
			t.Fatalf("sample root %s", got)
		}
		var root listingJSON
		e.mustOK(e.do("GET", "/api/v1/resources", bob, nil), 200, &root)
		if root.URI != "kb://users/bob/" || root.NextOffset != nil || len(root.Items) != 3 {
			t.Fatalf("root listing %+v", root)
		}
		for _, it := range root.Items {
			want := "kb://users/bob/" + it.Name
			if it.Kind == "dir" {
				want += "/"
			}
			if it.URI != want || it.UpdatedAt.IsZero() || it.Generated {
				t.Errorf("item %+v", it)
			}
		}

		e.mkdir(bob, "kb://me/many/")
		var files []upFile
		var want []string
		for i := 0; i < 7; i++ {
			files = append(files, upFile{fmt.Sprintf("f%02d.txt", i), []byte("x")})
			want = append(want, fmt.Sprintf("f%02d.txt", i))
		}
		e.mustUpload(bob, "kb://me/many/", files...)
		e.mkdir(bob, "kb://me/many/zdir/")
		want = append([]string{"zdir"}, want...)

		var got []string
		offset := 0
		pages := 0
		for {
			var l listingJSON
			e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/many", "offset", fmt.Sprint(offset), "limit", "3"), bob, nil), 200, &l)
			pages++
			if l.URI != "kb://users/bob/many/" {
				t.Fatalf("listing uri %q", l.URI)
			}
			for _, it := range l.Items {
				got = append(got, it.Name)
			}
			if l.NextOffset == nil {
				if len(l.Items) > 3 || len(l.Items) == 0 {
					t.Fatalf("last page has %d items", len(l.Items))
				}
				break
			}
			if len(l.Items) != 3 || *l.NextOffset != offset+3 {
				t.Fatalf("page at %d: %d items, next_offset %d", offset, len(l.Items), *l.NextOffset)
			}
			offset = *l.NextOffset
		}
		if pages != 3 || strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("%d pages: %v, want %v", pages, got, want)
		}
		// Exactly one full page: no next_offset.
		var l listingJSON
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/many/", "limit", "8"), bob, nil), 200, &l)
		if len(l.Items) != 8 || l.NextOffset != nil {
			t.Fatalf("limit 8 of 8: %d items, next %v", len(l.Items), l.NextOffset)
		}
		// Past the end: empty page.
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/many/", "offset", "100"), bob, nil), 200, &l)
		if len(l.Items) != 0 || l.NextOffset != nil {
			t.Fatalf("offset past end: %+v", l)
		}

		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "limit too big", Method: "GET", URL: q("/api/v1/resources", "kb://me/", "limit", "1001"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Name: "negative limit", Method: "GET", URL: q("/api/v1/resources", "kb://me/", "limit", "-1"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "limit not a number", Method: "GET", URL: q("/api/v1/resources", "kb://me/", "limit", "ten"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "negative offset", Method: "GET", URL: q("/api/v1/resources", "kb://me/", "offset", "-1"), Token: bob, WantStatus: 400, WantCode: "invalid_offset"},
			{Invalid: true, Name: "offset not a number", Method: "GET", URL: q("/api/v1/resources", "kb://me/", "offset", "1e3"), Token: bob, WantStatus: 400, WantCode: "invalid_offset"},
			{Name: "list a file", Method: "GET", URL: q("/api/v1/resources", "kb://me/Welcome.md"), Token: bob, WantStatus: 400, WantCode: "not_a_folder"},
			{Name: "list a missing folder", Method: "GET", URL: q("/api/v1/resources", "kb://me/nope/"), Token: bob, WantStatus: 404, WantCode: "not_found"},
			{Name: "users root alias", Method: "GET", URL: q("/api/v1/resources", "kb://users/"), Token: bob, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var l listingJSON
					r.Decode(t, &l)
					if l.URI != "kb://users/bob/" {
						t.Errorf("kb://users/ listed %q", l.URI)
					}
				}},
			{Name: "me alias without slash", Method: "GET", URL: q("/api/v1/resources", "kb://me"), Token: bob, WantStatus: 200},
		})
	})
}

// TestFolders covers creating folders.
func TestFolders(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		const folders = "/api/v1/resources/folders"

		it := e.mkdir(bob, "kb://me/a/b/c/")
		if it.URI != "kb://users/bob/a/b/c/" || it.Kind != "dir" || it.Name != "c" {
			t.Fatalf("nested mkdir %+v", it)
		}
		if got := e.names(bob, "kb://me/a/b/"); len(got) != 1 || got[0] != "c" {
			t.Fatalf("a/b holds %v", got)
		}
		// Without trailing slash, via the full spelling, NFC-normalized.
		it = e.mkdir(bob, "kb://users/bob/a/cafe\u0301")
		if it.Name != "café" || it.URI != "kb://users/bob/a/café/" {
			t.Fatalf("mkdir normalized %+v", it)
		}
		it = e.mkdir(bob, "kb://me/中文 文件夹/😀/")
		if it.URI != "kb://users/bob/中文 文件夹/😀/" {
			t.Fatalf("unicode mkdir %+v", it)
		}
		before := e.snapshot(bob)
		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "exists", Method: "POST", URL: folders, Token: bob, Body: map[string]string{"uri": "kb://me/a/b/c/"}, WantStatus: 409, WantCode: "already_exists"},
			{Name: "exists under other NFC spelling", Method: "POST", URL: folders, Token: bob, Body: map[string]string{"uri": "kb://me/a/café/"}, WantStatus: 409, WantCode: "already_exists"},
			{Name: "a file has that name", Method: "POST", URL: folders, Token: bob, Body: map[string]string{"uri": "kb://me/Welcome.md"}, WantStatus: 409, WantCode: "already_exists"},
			{Name: "under a file", Method: "POST", URL: folders, Token: bob, Body: map[string]string{"uri": "kb://me/Welcome.md/x/"}, WantStatus: 409, WantCode: "not_a_folder"},
			{Name: "deep under a file", Method: "POST", URL: folders, Token: bob, Body: map[string]string{"uri": "kb://me/Welcome.md/x/y/z/"}, WantStatus: 409, WantCode: "not_a_folder"},
			{Name: "root", Method: "POST", URL: folders, Token: bob, Body: map[string]string{"uri": "kb://me/"}, WantStatus: 409, WantCode: "already_exists"},
			{Invalid: true, Name: "missing uri", Method: "POST", URL: folders, Token: bob, Body: `{}`, WantStatus: 400, WantCode: "invalid_uri"},
			{Invalid: true, Name: "unknown field", Method: "POST", URL: folders, Token: bob, Body: `{"uri":"kb://me/x/","mode":"0777"}`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "malformed", Method: "POST", URL: folders, Token: bob, Body: `{"uri":`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "uri not a string", Method: "POST", URL: folders, Token: bob, Body: `{"uri":["kb://me/x/"]}`, WantStatus: 400, WantCode: "invalid_json"},
		})
		sameSnapshot(t, "bob's tree", before, e.snapshot(bob))
	})
}

// TestMoveAndDelete covers rename, move with children, refusals, and delete.
func TestMoveAndDelete(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		move := func(from, to string) resp {
			return e.do("PATCH", "/api/v1/resources", bob, map[string]string{"uri": from, "new_uri": to})
		}

		e.mkdir(bob, "kb://me/proj/sub/deeper/")
		e.mustUpload(bob, "kb://me/proj/sub/", upFile{"x.md", []byte("child text")})
		e.mustUpload(bob, "kb://me/proj/sub/deeper/", upFile{"y.md", []byte("deep text")})

		var it itemJSON
		e.mustOK(move("kb://me/proj/", "kb://me/renamed/"), 200, &it)
		if it.URI != "kb://users/bob/renamed/" || it.Name != "renamed" || it.Kind != "dir" {
			t.Fatalf("moved folder %+v", it)
		}
		if p := e.page(bob, "kb://me/renamed/sub/x.md", 0, 100); p.Text != "child text" || p.URI != "kb://users/bob/renamed/sub/x.md" {
			t.Fatalf("child at new uri: %+v", p)
		}
		if string(e.raw(bob, "kb://me/renamed/sub/deeper/y.md")) != "deep text" {
			t.Fatal("grandchild lost")
		}
		wantErr(t, e.do("GET", q("/api/v1/resources/content", "kb://me/proj/sub/x.md"), bob, nil), 404, "not_found")
		wantErr(t, e.do("GET", q("/api/v1/resources", "kb://me/proj/"), bob, nil), 404, "not_found")

		// Move into another folder, then move a file and rename it.
		e.mustOK(move("kb://me/renamed/sub/", "kb://me/notes/sub"), 200, &it)
		if it.URI != "kb://users/bob/notes/sub/" {
			t.Fatalf("moved into notes: %+v", it)
		}
		e.mustOK(move("kb://me/notes/sub/x.md", "kb://me/x-renamed.md"), 200, &it)
		if it.URI != "kb://users/bob/x-renamed.md" || it.Kind != "file" {
			t.Fatalf("file move: %+v", it)
		}
		if string(e.raw(bob, "kb://me/x-renamed.md")) != "child text" {
			t.Fatal("moved file content")
		}
		// Unicode rename.
		e.mustOK(move("kb://me/x-renamed.md", "kb://me/笔记 😀.md"), 200, &it)
		if string(e.raw(bob, "kb://me/笔记 😀.md")) != "child text" {
			t.Fatal("unicode rename")
		}

		before := e.snapshot(bob)
		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "into own subtree", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/notes/", "new_uri": "kb://me/notes/sub/deeper/notes/"}, WantStatus: 400, WantCode: "invalid_move"},
			{Name: "onto itself", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/notes/", "new_uri": "kb://me/notes/"}, WantStatus: 400, WantCode: "invalid_move"},
			{Name: "into own child", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/notes", "new_uri": "kb://me/notes/sub/notes"}, WantStatus: 400, WantCode: "invalid_move"},
			{Name: "root", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/", "new_uri": "kb://me/root2/"}, WantStatus: 400, WantCode: "invalid_move"},
			{Name: "onto root", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/"}, WantStatus: 409, WantCode: "already_exists"},
			{Name: "onto an existing file", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/笔记 😀.md", "new_uri": "kb://me/Welcome.md"}, WantStatus: 409, WantCode: "already_exists"},
			{Name: "onto an existing folder", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/notes/"}, WantStatus: 409, WantCode: "already_exists"},
			{Name: "file to a folder spelling", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/Welcome.md", "new_uri": "kb://me/Welcome/"}, WantStatus: 400, WantCode: "invalid_move"},
			{Name: "under a file", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/Welcome.md/data/"}, WantStatus: 400, WantCode: "not_a_folder"},
			{Name: "missing parent", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/nope/data/"}, WantStatus: 404, WantCode: "not_found"},
			{Name: "missing source", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/nope.md", "new_uri": "kb://me/yes.md"}, WantStatus: 404, WantCode: "not_found"},
			{Invalid: true, Name: "missing new_uri", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: map[string]string{"uri": "kb://me/data/"}, WantStatus: 400, WantCode: "invalid_uri"},
			{Invalid: true, Name: "unknown field", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: `{"uri":"kb://me/data/","new_uri":"kb://me/d2/","force":true}`, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "trailing data", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: `{"uri":"kb://me/data/","new_uri":"kb://me/d2/"}[]`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "empty body", Method: "PATCH", URL: "/api/v1/resources", Token: bob, Body: ``, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "delete root", Method: "DELETE", URL: q("/api/v1/resources", "kb://me/"), Token: bob, WantStatus: 400, WantCode: "invalid_delete"},
			{Name: "delete root alias", Method: "DELETE", URL: q("/api/v1/resources", "kb://users/"), Token: bob, WantStatus: 400, WantCode: "invalid_delete"},
			{Name: "delete missing", Method: "DELETE", URL: q("/api/v1/resources", "kb://me/nope"), Token: bob, WantStatus: 404, WantCode: "not_found"},
			{Invalid: true, Name: "delete without uri", Method: "DELETE", URL: "/api/v1/resources", Token: bob, WantStatus: 400, WantCode: "invalid_uri"},
		})
		sameSnapshot(t, "bob's tree after refused moves", before, e.snapshot(bob))

		// Delete a folder with its subtree: every descendant is gone.
		r := e.do("DELETE", q("/api/v1/resources", "kb://me/notes/"), bob, nil)
		if r.Status != 204 || len(r.Body) != 0 {
			t.Fatalf("delete folder: %s", r)
		}
		for _, u := range []string{"kb://me/notes/", "kb://me/notes/sub/", "kb://me/notes/sub/deeper/", "kb://me/notes/research-plan.md", "kb://me/notes/sub/deeper/y.md"} {
			wantErr(t, e.do("GET", q("/api/v1/resources", u), bob, nil), 404, "not_found")
			wantErr(t, e.do("GET", q("/api/v1/resources/content", u), bob, nil), 404, "not_found")
			wantErr(t, e.do("GET", q("/api/v1/resources/raw", u), bob, nil), 404, "not_found")
		}
		wantErr(t, e.do("DELETE", q("/api/v1/resources", "kb://me/notes/"), bob, nil), 404, "not_found")
		if got := strings.Join(e.names(bob, "kb://me/"), ","); got != "data,renamed,Welcome.md,笔记 😀.md" {
			t.Fatalf("root after delete: %s", got)
		}
		// A new folder of the same name starts empty.
		e.mkdir(bob, "kb://me/notes/")
		if got := e.names(bob, "kb://me/notes/"); len(got) != 0 {
			t.Fatalf("recreated folder holds %v", got)
		}
		// Delete a file.
		e.mustOK(e.do("DELETE", q("/api/v1/resources", "kb://me/笔记 😀.md"), bob, nil), 204, nil)
		wantErr(t, e.do("GET", q("/api/v1/resources/raw", "kb://me/笔记 😀.md"), bob, nil), 404, "not_found")
	})
}

// TestRawDownload checks bytes and the headers that keep stored files from
// running as pages of this origin.
func TestRawDownload(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		pdf := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj<</Type/Catalog>>endobj\nxref\n0 1\n\x00\x01\x02trailer<<>>\n%%EOF\n")
		html := []byte("<html><script>alert(1)</script></html>")
		e.mustUpload(bob, "kb://me/", upFile{"doc.pdf", pdf}, upFile{"evil.html", html}, upFile{"报告 \"final\".md", []byte("# 报告")})

		for _, c := range []struct {
			uri, name string
			data      []byte
			ctype     string
		}{
			{"kb://me/doc.pdf", "doc.pdf", pdf, "application/pdf"},
			{"kb://me/evil.html", "evil.html", html, "text/html"},
			{"kb://me/报告 \"final\".md", "报告 \"final\".md", []byte("# 报告"), ""},
		} {
			r := e.do("GET", q("/api/v1/resources/raw", c.uri), bob, nil)
			if r.Status != 200 || !bytes.Equal(r.Body, c.data) {
				t.Fatalf("raw %s: %d %q", c.uri, r.Status, r.Body)
			}
			disp, params, err := mime.ParseMediaType(r.Header.Get("Content-Disposition"))
			if err != nil || disp != "attachment" || params["filename"] != c.name {
				t.Errorf("%s: Content-Disposition %q (%v)", c.uri, r.Header.Get("Content-Disposition"), err)
			}
			if r.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: no nosniff", c.uri)
			}
			if c.ctype != "" && !strings.HasPrefix(r.Header.Get("Content-Type"), c.ctype) {
				t.Errorf("%s: Content-Type %q, want %s", c.uri, r.Header.Get("Content-Type"), c.ctype)
			}
			if r.Header.Get("Content-Length") != fmt.Sprint(len(c.data)) {
				t.Errorf("%s: Content-Length %q", c.uri, r.Header.Get("Content-Length"))
			}
			if !strings.Contains(r.Header.Get("Content-Security-Policy"), "sandbox") {
				t.Errorf("%s: CSP %q", c.uri, r.Header.Get("Content-Security-Policy"))
			}
		}
		wantErr(t, e.do("GET", q("/api/v1/resources/raw", "kb://me/notes/"), bob, nil), 400, "not_a_file")
		wantErr(t, e.do("GET", q("/api/v1/resources/raw", "kb://me/nope.pdf"), bob, nil), 404, "not_found")
		wantErr(t, e.invalid().do("GET", "/api/v1/resources/raw", bob, nil), 400, "invalid_uri")

		// A binary file has no text body yet; offset past 0 is out of range.
		var p pageJSON
		e.mustOK(e.do("GET", q("/api/v1/resources/content", "kb://me/doc.pdf"), bob, nil), 200, &p)
		if p.Body != "none" || p.Text != "" || p.Total != 0 || p.NextOffset != nil {
			t.Fatalf("pdf page %+v", p)
		}
		wantErr(t, e.do("GET", q("/api/v1/resources/content", "kb://me/doc.pdf", "offset", "1"), bob, nil), 400, "offset_out_of_range")
		// Bytes with a NUL are not text either, whatever the extension.
		e.mustUpload(bob, "kb://me/", upFile{"nul.txt", []byte("a\x00b")}, upFile{"latin1.txt", []byte("caf\xe9")})
		e.mustOK(e.do("GET", q("/api/v1/resources/content", "kb://me/nul.txt"), bob, nil), 200, &p)
		if p.Body != "none" || p.Text != "" || p.Encoding != "" {
			t.Errorf("nul.txt page %+v", p)
		}
		// Text in a legacy encoding is served decoded and says so; the raw
		// download keeps its bytes.
		p = pageJSON{}
		e.mustOK(e.do("GET", q("/api/v1/resources/content", "kb://me/latin1.txt"), bob, nil), 200, &p)
		if p.Body != "l2" || p.Text != "café" || p.Total != 4 || p.Encoding != "windows-1252" {
			t.Errorf("latin1.txt page %+v", p)
		}
		if r := e.do("GET", q("/api/v1/resources/raw", "kb://me/latin1.txt"), bob, nil); string(r.Body) != "caf\xe9" {
			t.Errorf("latin1.txt raw %d %q", r.Status, r.Body)
		}
	})
}

// TestContentPages covers paging rules and that no page ever splits a
// multi-byte character.
func TestContentPages(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		const content = "/api/v1/resources/content"

		// A body past two index strides, every character multi-byte or mixed.
		alphabet := []rune("中文字😀👍🏽é\u0301a\u0308ñ𝄞한글ß\u200dx")
		var sb strings.Builder
		for i := 0; sb.Len() == 0 || utf8.RuneCountInString(sb.String()) < 9500; i++ {
			sb.WriteRune(alphabet[(i*7+i/13)%len(alphabet)])
		}
		text := sb.String()
		runes := []rune(text)
		total := int64(len(runes))
		e.mustUpload(bob, "kb://me/", upFile{"mixed.md", []byte(text)}, upFile{"empty.txt", nil})

		var p pageJSON
		e.mustOK(e.do("GET", q(content, "kb://me/mixed.md"), bob, nil), 200, &p)
		if p.Limit != 3000 || p.Offset != 0 || p.Total != total || p.Body != "raw" || p.URI != "kb://users/bob/mixed.md" ||
			p.Text != string(runes[:3000]) || p.NextOffset == nil || *p.NextOffset != 3000 {
			t.Fatalf("default page: limit %d offset %d total %d/%d body %s next %v", p.Limit, p.Offset, p.Total, total, p.Body, p.NextOffset)
		}
		p = e.page(bob, "kb://me/mixed.md", 0, 6000)
		if p.Text != string(runes[:6000]) || *p.NextOffset != 6000 {
			t.Fatal("limit 6000 page")
		}
		// Walk the whole body at the maximum limit.
		var got strings.Builder
		for off := int64(0); ; {
			p = e.page(bob, "kb://me/mixed.md", off, 6000)
			got.WriteString(p.Text)
			if p.NextOffset == nil {
				break
			}
			off = *p.NextOffset
		}
		if got.String() != text {
			t.Fatal("pages at limit 6000 do not reassemble the body")
		}
		// Pages straddling the index strides (4096, 8192) with small limits.
		for _, off := range []int64{4090, 4094, 4095, 4096, 4097, 8190, 8191, 8192, 8193, total - 3, total - 1} {
			for lim := int64(1); lim <= 7; lim++ {
				p = e.page(bob, "kb://me/mixed.md", off, lim)
				end := min(off+lim, total)
				if p.Text != string(runes[off:end]) || !utf8.ValidString(p.Text) {
					t.Fatalf("offset %d limit %d: %q, want %q", off, lim, p.Text, string(runes[off:end]))
				}
				if (end < total) != (p.NextOffset != nil) || (p.NextOffset != nil && *p.NextOffset != end) {
					t.Fatalf("offset %d limit %d: next_offset %v, want %d", off, lim, p.NextOffset, end)
				}
			}
		}
		// Offset equal to the total: an empty last page.
		p = e.page(bob, "kb://me/mixed.md", total, 10)
		if p.Text != "" || p.NextOffset != nil || p.Total != total {
			t.Fatalf("offset == total: %+v", p)
		}

		// Exactly at the page limit: a 6000-character file is one page, a
		// 6001-character file is two.
		six := strings.Repeat("😀", 3000) + strings.Repeat("中", 3000)
		e.mustUpload(bob, "kb://me/", upFile{"six.txt", []byte(six)}, upFile{"sixplus.txt", []byte(six + "\u0301")})
		p = e.page(bob, "kb://me/six.txt", 0, 6000)
		if p.Text != six || p.NextOffset != nil || p.Total != 6000 {
			t.Fatalf("6000-char file at limit 6000: total %d next %v same %v", p.Total, p.NextOffset, p.Text == six)
		}
		p = e.page(bob, "kb://me/sixplus.txt", 0, 6000)
		if p.Text != six || p.NextOffset == nil || *p.NextOffset != 6000 || p.Total != 6001 {
			t.Fatalf("6001-char file at limit 6000: total %d next %v", p.Total, p.NextOffset)
		}
		if p = e.page(bob, "kb://me/sixplus.txt", 6000, 6000); p.Text != "\u0301" || p.NextOffset != nil {
			t.Fatalf("last page %q", p.Text)
		}

		// A short CJK + emoji + combining-mark file paged with every limit
		// from 1 to 7 reassembles exactly; every page is valid UTF-8.
		short := "Zoë 中文 👩‍💻 e\u0301 🇨🇳 한국어 a\u0308\u0323 𝄞 नमस्ते 😀!"
		e.mustUpload(bob, "kb://me/", upFile{"short.md", []byte(short)})
		shortRunes := int64(utf8.RuneCountInString(short))
		for lim := int64(1); lim <= 7; lim++ {
			var sb strings.Builder
			off := int64(0)
			for pages := 0; ; pages++ {
				if pages > 200 {
					t.Fatal("paging does not end")
				}
				p = e.page(bob, "kb://me/short.md", off, lim)
				if !utf8.ValidString(p.Text) {
					t.Fatalf("limit %d offset %d: invalid UTF-8 %q", lim, off, p.Text)
				}
				if n := int64(utf8.RuneCountInString(p.Text)); n > lim || (p.NextOffset != nil && n != lim) {
					t.Fatalf("limit %d offset %d: %d characters", lim, off, n)
				}
				if p.Total != shortRunes {
					t.Fatalf("total %d, want %d", p.Total, shortRunes)
				}
				sb.WriteString(p.Text)
				if p.NextOffset == nil {
					break
				}
				off = *p.NextOffset
			}
			if sb.String() != short {
				t.Fatalf("limit %d reassembles %q", lim, sb.String())
			}
		}

		// An empty file: total 0, empty text.
		p = e.page(bob, "kb://me/empty.txt", 0, 10)
		if p.Total != 0 || p.Text != "" || p.NextOffset != nil || p.Body == "none" {
			t.Fatalf("empty file page %+v", p)
		}
		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Invalid: true, Name: "limit 6001", Method: "GET", URL: q(content, "kb://me/mixed.md", "limit", "6001"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "limit 0", Method: "GET", URL: q(content, "kb://me/mixed.md", "limit", "0"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "limit -1", Method: "GET", URL: q(content, "kb://me/mixed.md", "limit", "-1"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "limit huge", Method: "GET", URL: q(content, "kb://me/mixed.md", "limit", "99999999999999999999"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "limit not a number", Method: "GET", URL: q(content, "kb://me/mixed.md", "limit", "1.5"), Token: bob, WantStatus: 400, WantCode: "invalid_limit"},
			{Invalid: true, Name: "offset negative", Method: "GET", URL: q(content, "kb://me/mixed.md", "offset", "-1"), Token: bob, WantStatus: 400, WantCode: "invalid_offset"},
			{Invalid: true, Name: "offset not a number", Method: "GET", URL: q(content, "kb://me/mixed.md", "offset", "x"), Token: bob, WantStatus: 400, WantCode: "invalid_offset"},
			{Name: "offset past end", Method: "GET", URL: q(content, "kb://me/mixed.md", "offset", fmt.Sprint(total+1)), Token: bob, WantStatus: 400, WantCode: "offset_out_of_range"},
			{Name: "offset past end of empty file", Method: "GET", URL: q(content, "kb://me/empty.txt", "offset", "1"), Token: bob, WantStatus: 400, WantCode: "offset_out_of_range"},
			{Name: "a folder", Method: "GET", URL: q(content, "kb://me/notes/"), Token: bob, WantStatus: 400, WantCode: "not_a_file"},
			{Name: "missing file", Method: "GET", URL: q(content, "kb://me/nope.md"), Token: bob, WantStatus: 404, WantCode: "not_found"},
			{Invalid: true, Name: "no uri", Method: "GET", URL: content, Token: bob, WantStatus: 400, WantCode: "invalid_uri"},
			{Name: "sample Chinese note", Method: "GET", URL: q(content, "kb://me/notes/会议纪要.md"), Token: bob, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var p pageJSON
					r.Decode(t, &p)
					if p.Body != "raw" || p.Total == 0 || !utf8.ValidString(p.Text) || p.Total != int64(utf8.RuneCountInString(p.Text)) {
						t.Errorf("sample note page: %+v", p)
					}
				}},
		})
	})
}
