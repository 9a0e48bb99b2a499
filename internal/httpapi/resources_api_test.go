package httpapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

const aliceSecret = "ALICE-TOP-SECRET-CONTENT-7f3a"

// attempt is one way an endpoint can be pointed at a URI.
type attempt struct {
	endpoint string
	send     func(e *env, token, uri string) resp
}

// rawQuery sends a query string exactly as given, so tests control the
// percent-encoding the server sees.
func rawQuery(e *env, method, path, token, rawQuery string) resp {
	e.t.Helper()
	req, err := http.NewRequest(method, e.URL+path, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	req.URL.RawQuery = rawQuery
	req.Header.Set("Authorization", "Bearer "+token)
	return e.send(req)
}

// uriAttempts lists every endpoint that takes a URI, each fed the URI under
// test in the place it is read from.
func uriAttempts() []attempt {
	getQ := func(path string) func(e *env, token, uri string) resp {
		return func(e *env, token, uri string) resp {
			return e.do(http.MethodGet, q(path, uri), token, nil)
		}
	}
	return []attempt{
		{"list", getQ("/api/v1/resources")},
		{"content", getQ("/api/v1/resources/content")},
		{"raw", getQ("/api/v1/resources/raw")},
		{"delete", func(e *env, token, uri string) resp {
			return e.do(http.MethodDelete, q("/api/v1/resources", uri), token, nil)
		}},
		{"mkdir", func(e *env, token, uri string) resp {
			return e.do(http.MethodPost, "/api/v1/resources/folders", token, map[string]string{"uri": uri})
		}},
		{"mkdir-child", func(e *env, token, uri string) resp {
			return e.do(http.MethodPost, "/api/v1/resources/folders", token, map[string]string{"uri": strings.TrimSuffix(uri, "/") + "/pwned/"})
		}},
		{"move-source", func(e *env, token, uri string) resp {
			return e.do(http.MethodPatch, "/api/v1/resources", token, map[string]string{"uri": uri, "new_uri": "kb://me/stolen"})
		}},
		{"move-destination", func(e *env, token, uri string) resp {
			return e.do(http.MethodPatch, "/api/v1/resources", token, map[string]string{"uri": "kb://me/bait.txt", "new_uri": uri})
		}},
		{"move-destination-child", func(e *env, token, uri string) resp {
			return e.do(http.MethodPatch, "/api/v1/resources", token, map[string]string{"uri": "kb://me/bait.txt", "new_uri": strings.TrimSuffix(uri, "/") + "/bait.txt"})
		}},
		{"upload-target", func(e *env, token, uri string) resp {
			return e.upload(token, uri, upFile{"planted.txt", []byte("planted")})
		}},
	}
}

// TestIsolationEveryURISpelling proves that a second user (and an admin)
// cannot list, read, download, move, delete, create in or upload into the
// first user's tree by any spelling of a URI, that the answer never confirms
// existence (404 or 400, never 200 or 403), and that nothing changes.
func TestIsolationEveryURISpelling(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, alice := e.newUser("alice")
		_, bob := e.newUser("bob")

		e.mkdir(alice, "kb://me/secret/inner/")
		e.mustUpload(alice, "kb://me/secret/", upFile{"plan.md", []byte(aliceSecret)}, upFile{"café.md", []byte(aliceSecret)})
		e.mustUpload(alice, "kb://me/secret/inner/", upFile{"deep.txt", []byte(aliceSecret)})
		// Bob has the same paths in his own tree: a URI naming alice must
		// never fall back to bob's node either.
		e.mkdir(bob, "kb://me/secret/inner/")
		e.mustUpload(bob, "kb://me/secret/", upFile{"plan.md", []byte("bob's own plan")})
		e.mustUpload(bob, "kb://me/", upFile{"bait.txt", []byte("bait")})
		e.mustUpload(e.Admin, "kb://me/", upFile{"bait.txt", []byte("bait")})

		aliceBefore := e.snapshot(alice)
		bobBefore := e.snapshot(bob)

		// Each spelling names alice's tree, or tries to climb into it.
		spellings := []string{
			"kb://users/alice/secret/plan.md",
			"kb://users/alice/secret/",
			"kb://users/alice/secret",
			"kb://users/alice/secret/inner/deep.txt",
			"kb://users/alice/",
			"kb://users/alice",
			"kb://users/alice/Welcome.md",
			"kb://users/alice/notes/",
			"kb://users/ALICE/secret/plan.md",
			"kb://users/Alice/secret/",
			"kb://users/aLiCe/",
			"kb://users/alice//secret/plan.md",
			"kb://users/alice/secret//plan.md",
			"kb://users/alice/./secret/plan.md",
			"kb://users/alice/secret/./plan.md",
			"kb://users/alice/secret/../secret/plan.md",
			"kb://users/alice/../bob/secret/plan.md",
			"kb://users/bob/../alice/secret/plan.md",
			"kb://users/bob/../../users/alice/secret/plan.md",
			"kb://users/alice%2Fsecret/plan.md",
			"kb://users/alice%2fsecret%2fplan.md",
			"kb://users/alice/secret%2Fplan.md",
			"kb://users/bob/..%2Falice/secret/plan.md",
			"kb://users/bob/%2e%2e/alice/secret/plan.md",
			"kb://users/%61lice/secret/plan.md",
			"kb://users/alice%00/secret/plan.md",
			"kb://users/alice\\secret\\plan.md",
			"kb://users/alice/secret\\plan.md",
			"kb://users/alice/secret/plan.md/",
			"kb://users/alice/secret///",
			"kb://users/alice/secret/inner/",
			"kb://users/alice/secret/cafe\u0301.md",
			"kb://users/alice/secret/café.md",
			"kb://users/\u0430lice/secret/plan.md", // Cyrillic a
			"kb://users/alice /secret/plan.md",
			"kb://users/ alice/secret/plan.md",
			"kb://me/../alice/secret/plan.md",
			"kb://me/../users/alice/secret/plan.md",
			"kb://me/../../users/alice/",
			"kb://me/%2e%2e/alice/secret/plan.md",
			"kb://me/..%2Fusers%2Falice%2Fsecret%2Fplan.md",
			"kb://users/me/../alice/secret/plan.md",
			"kb://users//alice/secret/plan.md",
			"kb:///users/alice/secret/plan.md",
			"KB://users/alice/secret/plan.md",
			"kb://USERS/alice/secret/plan.md",
			"kb://users/alice/secret/plan.md\x00",
			"kb://users/alice/secret/plan.md\n",
			"kb://users/alice/secret/plan.md#x",
			"kb://users/alice/secret/plan.md?x=1",
			"/users/alice/secret/plan.md",
			"users/alice/secret/plan.md",
			"file:///users/alice/secret/plan.md",
			"kb://users/alice/secret/plan.md\u200b",
		}

		attackers := []struct{ name, token string }{{"bob", bob}, {"admin", e.Admin}}
		for _, who := range attackers {
			for _, a := range uriAttempts() {
				for _, s := range spellings {
					r := a.send(e, who.token, s)
					checkRefused(t, who.name+" "+a.endpoint+" "+s, r)
				}
			}
		}

		// Query strings spelled by hand: percent-encoding at the HTTP layer
		// decodes once, and only once.
		rawQueries := []string{
			"uri=kb%3A%2F%2Fusers%2Falice%2Fsecret%2Fplan.md",
			"uri=kb%3A%2F%2Fusers%2FALICE%2Fsecret%2Fplan.md",
			"uri=kb://users/%61lice/secret/plan.md",
			"uri=kb://users/alice%2Fsecret%2Fplan.md",
			"uri=kb://users/alice/secret%252Fplan.md",
			"uri=kb%253A%252F%252Fusers%252Falice%252Fsecret%252Fplan.md",
			"uri=kb://users/alice/secret/plan.md&uri=kb://me/Welcome.md",
			"uri=kb://users/alice/secret/plan%2Emd",
			"uri=kb://users/alice/secret/%2E%2E/secret/plan.md",
			"uri=kb://me/%2E%2E/alice/secret/plan.md",
			"uri=kb%3A%2F%2Fme%2F..%2F..%2Fusers%2Falice%2F",
			"uri=kb://users/alice/secret/plan.md%00",
			"uri=kb://users/alice/secret/plan.md%0A",
			"uri=kb://users/alice/secret/plan.md%C0%AE",
			"uri=kb://users/alice/secret/%C0%AE%C0%AE/plan.md",
			"URI=kb://me/&uri=kb://users/alice/",
		}
		for _, who := range attackers {
			for _, rq := range rawQueries {
				for _, ep := range []struct{ method, path string }{
					{http.MethodGet, "/api/v1/resources"},
					{http.MethodGet, "/api/v1/resources/content"},
					{http.MethodGet, "/api/v1/resources/raw"},
					{http.MethodDelete, "/api/v1/resources"},
				} {
					r := rawQuery(e, ep.method, ep.path, who.token, rq)
					checkRefused(t, who.name+" "+ep.method+" "+ep.path+"?"+rq, r)
				}
				body, ct := multipartBody(t, upFile{"planted.txt", []byte("planted")})
				req, _ := http.NewRequest(http.MethodPost, e.URL+"/api/v1/resources/upload", bytes.NewReader(body))
				req.URL.RawQuery = rq
				req.Header.Set("Content-Type", ct)
				req.Header.Set("Authorization", "Bearer "+who.token)
				checkRefused(t, who.name+" upload?"+rq, e.send(req))
			}
		}

		// JSON bodies spelled by hand, with \u escapes that decode to alice.
		for _, who := range attackers {
			for _, body := range []string{
				`{"uri":"kb://users/\u0061lice/secret/pwned/"}`,
				`{"uri":"kb:\/\/users\/alice\/secret\/pwned\/"}`,
				`{"uri":"kb://users/ALICE/pwned/"}`,
				`{"uri":"kb://users/alice/secret/\u002e\u002e/pwned/"}`,
			} {
				checkRefused(t, who.name+" mkdir "+body, e.do(http.MethodPost, "/api/v1/resources/folders", who.token, body))
			}
			for _, body := range []string{
				`{"uri":"kb://users/\u0061lice/secret/plan.md","new_uri":"kb://me/stolen.md"}`,
				`{"uri":"kb://me/bait.txt","new_uri":"kb://users/\u0041LICE/secret/bait.txt"}`,
				`{"uri":"kb://me/bait.txt","new_uri":"kb:\/\/users\/alice\/bait.txt"}`,
			} {
				checkRefused(t, who.name+" move "+body, e.do(http.MethodPatch, "/api/v1/resources", who.token, body))
			}
		}

		sameSnapshot(t, "alice's tree", aliceBefore, e.snapshot(alice))
		sameSnapshot(t, "bob's tree", bobBefore, e.snapshot(bob))
		// Alice still reaches her own file through every alias.
		for _, u := range []string{"kb://me/secret/plan.md", "kb://users/alice/secret/plan.md", "kb://users/ALICE/secret/plan.md"} {
			if got := e.raw(alice, u); string(got) != aliceSecret {
				t.Fatalf("alice reading %s got %q", u, got)
			}
		}
	})
}

// checkRefused requires 404 not_found or 400 invalid_uri with the error shape,
// and no byte of alice's content in the answer.
func checkRefused(t *testing.T, what string, r resp) {
	t.Helper()
	code, _, ok := r.apiErr()
	switch {
	case !ok:
		t.Errorf("%s: not an error answer: %s", what, r)
	case r.Status == http.StatusNotFound && code == "not_found":
	case r.Status == http.StatusBadRequest && code == "invalid_uri":
	default:
		t.Errorf("%s: want 404 not_found or 400 invalid_uri, got %s", what, r)
	}
	if bytes.Contains(r.Body, []byte(aliceSecret)) {
		t.Errorf("%s: answer leaks alice's content: %s", what, r)
	}
}

// TestBadURIsEverywhere sends malformed URIs to every endpoint: each answers
// 400 invalid_uri and the caller's tree is unchanged.
func TestBadURIsEverywhere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		e.mustUpload(bob, "kb://me/", upFile{"bait.txt", []byte("bait")})
		before := e.snapshot(bob)

		long := strings.Repeat("a", 256)
		longMulti := strings.Repeat("é", 128) // 256 bytes, 128 characters
		bad := []string{
			"users/bob/Welcome.md",
			"/Welcome.md",
			"Welcome.md",
			"http://users/bob/Welcome.md",
			"https://example.com/x",
			"file:///etc/passwd",
			"kb:/users/bob/Welcome.md",
			"kb:users/bob/Welcome.md",
			"kb://",
			"kb://other/x",
			"kb://me/a\x01b",
			"kb://me/a\nb",
			"kb://me/a\tb",
			"kb://me/a\x7fb",
			"kb://me/a\u0085b",
			"kb://me/" + long,
			"kb://me/" + longMulti,
			"kb://me/notes/" + long + "/x",
			"kb://me/..",
			"kb://me/../",
			"kb://me/notes/..",
			"kb://me/notes/../Welcome.md",
			"kb://me/.",
			"kb://me/./Welcome.md",
			"kb://me//Welcome.md",
			"kb://me/notes//x",
			"kb://me/a%2Fb",
			"kb://me/a%5cb",
			"kb://me/%2e%2e",
			"kb://me/a\\b",
			"kb://users/Bad_Name!/x",
			"kb://users/-bob/x",
			"kb://me/" + strings.Repeat("a/", 2100),
		}
		for _, a := range uriAttempts() {
			for _, u := range bad {
				r := a.send(e, bob, u)
				if r.Status != http.StatusBadRequest {
					t.Errorf("%s %q: want 400 invalid_uri, got %s", a.endpoint, trunc(u), r)
					continue
				}
				if code, _, _ := r.apiErr(); code != "invalid_uri" {
					t.Errorf("%s %q: want invalid_uri, got %s", a.endpoint, trunc(u), r)
				}
			}
		}
		// An empty uri is required everywhere except list, where it means the root.
		for _, a := range uriAttempts() {
			if a.endpoint == "list" || strings.HasSuffix(a.endpoint, "-child") {
				continue
			}
			wantErr(t, a.send(e, bob, ""), http.StatusBadRequest, "invalid_uri")
		}
		// Invalid UTF-8 can only travel in a query string.
		for _, path := range []string{"/api/v1/resources", "/api/v1/resources/content", "/api/v1/resources/raw"} {
			wantErr(t, rawQuery(e, http.MethodGet, path, bob, "uri=kb://me/%FF%FE"), http.StatusBadRequest, "invalid_uri")
		}
		wantErr(t, rawQuery(e, http.MethodDelete, "/api/v1/resources", bob, "uri=kb://me/%FF"), http.StatusBadRequest, "invalid_uri")

		sameSnapshot(t, "bob's tree", before, e.snapshot(bob))

		// The limit itself is fine: a 255-byte name (ASCII or not) is accepted.
		e.mkdir(bob, "kb://me/"+strings.Repeat("b", 255)+"/")
		e.mkdir(bob, "kb://me/"+strings.Repeat("é", 127)+"x/")
	})
}

func trunc(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

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

		runScenarios(t, e, []scenario{
			{name: "limit too big", method: "GET", path: q("/api/v1/resources", "kb://me/", "limit", "1001"), token: bob, status: 400, code: "invalid_limit"},
			{name: "negative limit", method: "GET", path: q("/api/v1/resources", "kb://me/", "limit", "-1"), token: bob, status: 400, code: "invalid_limit"},
			{name: "limit not a number", method: "GET", path: q("/api/v1/resources", "kb://me/", "limit", "ten"), token: bob, status: 400, code: "invalid_limit"},
			{name: "negative offset", method: "GET", path: q("/api/v1/resources", "kb://me/", "offset", "-1"), token: bob, status: 400, code: "invalid_offset"},
			{name: "offset not a number", method: "GET", path: q("/api/v1/resources", "kb://me/", "offset", "1e3"), token: bob, status: 400, code: "invalid_offset"},
			{name: "list a file", method: "GET", path: q("/api/v1/resources", "kb://me/Welcome.md"), token: bob, status: 400, code: "not_a_folder"},
			{name: "list a missing folder", method: "GET", path: q("/api/v1/resources", "kb://me/nope/"), token: bob, status: 404, code: "not_found"},
			{name: "users root alias", method: "GET", path: q("/api/v1/resources", "kb://users/"), token: bob, status: 200,
				check: func(t *testing.T, r resp) {
					var l listingJSON
					r.decode(t, &l)
					if l.URI != "kb://users/bob/" {
						t.Errorf("kb://users/ listed %q", l.URI)
					}
				}},
			{name: "me alias without slash", method: "GET", path: q("/api/v1/resources", "kb://me"), token: bob, status: 200},
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
		runScenarios(t, e, []scenario{
			{name: "exists", method: "POST", path: folders, token: bob, body: map[string]string{"uri": "kb://me/a/b/c/"}, status: 409, code: "already_exists"},
			{name: "exists under other NFC spelling", method: "POST", path: folders, token: bob, body: map[string]string{"uri": "kb://me/a/café/"}, status: 409, code: "already_exists"},
			{name: "a file has that name", method: "POST", path: folders, token: bob, body: map[string]string{"uri": "kb://me/Welcome.md"}, status: 409, code: "already_exists"},
			{name: "under a file", method: "POST", path: folders, token: bob, body: map[string]string{"uri": "kb://me/Welcome.md/x/"}, status: 409, code: "not_a_folder"},
			{name: "deep under a file", method: "POST", path: folders, token: bob, body: map[string]string{"uri": "kb://me/Welcome.md/x/y/z/"}, status: 409, code: "not_a_folder"},
			{name: "root", method: "POST", path: folders, token: bob, body: map[string]string{"uri": "kb://me/"}, status: 409, code: "already_exists"},
			{name: "missing uri", method: "POST", path: folders, token: bob, body: `{}`, status: 400, code: "invalid_uri"},
			{name: "unknown field", method: "POST", path: folders, token: bob, body: `{"uri":"kb://me/x/","mode":"0777"}`, status: 400, code: "invalid_json"},
			{name: "malformed", method: "POST", path: folders, token: bob, body: `{"uri":`, status: 400, code: "invalid_json"},
			{name: "uri not a string", method: "POST", path: folders, token: bob, body: `{"uri":["kb://me/x/"]}`, status: 400, code: "invalid_json"},
		})
		sameSnapshot(t, "bob's tree", before, e.snapshot(bob))
	})
}

// TestUploads covers one and many files, versions, and uploads that must
// store nothing at all.
func TestUploads(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")

		items := e.mustUpload(bob, "kb://me/notes/", upFile{"one.md", []byte("# one\n")})
		if len(items) != 1 || items[0].URI != "kb://users/bob/notes/one.md" || items[0].Kind != "file" || items[0].Size != 6 || items[0].Name != "one.md" {
			t.Fatalf("upload one: %+v", items)
		}
		items = e.mustUpload(bob, "kb://me/", upFile{"a.txt", []byte("A")}, upFile{"b.csv", []byte("x,y\n1,2\n")}, upFile{"图.md", []byte("中文")})
		if len(items) != 3 || items[2].URI != "kb://users/bob/图.md" {
			t.Fatalf("upload many: %+v", items)
		}
		if string(e.raw(bob, "kb://me/b.csv")) != "x,y\n1,2\n" || string(e.raw(bob, "kb://me/图.md")) != "中文" {
			t.Fatal("uploaded bytes differ")
		}
		// The limit itself is accepted.
		exact := bytes.Repeat([]byte("z"), testUploadLimit)
		e.mustUpload(bob, "kb://me/", upFile{"exact.txt", exact})
		if !bytes.Equal(e.raw(bob, "kb://me/exact.txt"), exact) {
			t.Fatal("file at the limit differs")
		}

		// Uploading an existing name makes a new version.
		e.mustUpload(bob, "kb://me/", upFile{"v.txt", []byte("version one")})
		items = e.mustUpload(bob, "kb://me/", upFile{"v.txt", []byte("version two, longer")})
		if items[0].Size != int64(len("version two, longer")) {
			t.Fatalf("new version item %+v", items[0])
		}
		if got := string(e.raw(bob, "kb://me/v.txt")); got != "version two, longer" {
			t.Fatalf("raw after new version %q", got)
		}
		if p := e.page(bob, "kb://me/v.txt", 0, 100); p.Text != "version two, longer" {
			t.Fatalf("page after new version %q", p.Text)
		}
		n := 0
		for _, name := range e.names(bob, "kb://me/") {
			if name == "v.txt" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("v.txt listed %d times", n)
		}

		tmpBefore := e.stagingFiles()
		if len(tmpBefore) != 0 {
			t.Fatalf("staging not empty after good uploads: %v", tmpBefore)
		}
		before := e.snapshot(bob)
		blobsBefore := e.blobFiles()
		big := bytes.Repeat([]byte("y"), testUploadLimit+1)
		nothingStored := func(what string) {
			t.Helper()
			sameSnapshot(t, what, before, e.snapshot(bob))
			if left := e.stagingFiles(); len(left) != 0 {
				t.Fatalf("%s: staging holds %v", what, left)
			}
			if n := e.blobFiles(); n != blobsBefore {
				t.Fatalf("%s: %d blob files, was %d", what, n, blobsBefore)
			}
		}

		wantErr(t, e.upload(bob, "kb://me/", upFile{"big.txt", big}), 413, "file_too_large")
		nothingStored("over the limit")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"ok1.txt", []byte("fine")}, upFile{"ok2.txt", []byte("fine too")}, upFile{"big.txt", big}), 413, "file_too_large")
		nothingStored("good files before one over the limit")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"dup.txt", []byte("1")}, upFile{"other.txt", []byte("2")}, upFile{"dup.txt", []byte("3")}), 400, "duplicate_name")
		nothingStored("duplicate names")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"caf\u00e9.txt", []byte("1")}, upFile{"cafe\u0301.txt", []byte("2")}), 400, "duplicate_name")
		nothingStored("duplicate names after NFC")
		// (The blob files this case leaves behind are TestFailedCommitLeavesNoBlobs.)
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{"notes", []byte("2")}), 409, "already_exists")
		sameSnapshot(t, "a file named like an existing folder", before, e.snapshot(bob))
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("a file named like an existing folder: staging holds %v", left)
		}
		blobsBefore = e.blobFiles()
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{"..", []byte("2")}), 400, "invalid_name")
		nothingStored("a part named ..")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{"bad\x01name.txt", []byte("2")}), 400, "invalid_name")
		nothingStored("a part name with a control character")
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("1")}, upFile{strings.Repeat("n", 256), []byte("2")}), 400, "invalid_name")
		nothingStored("a 256-byte part name")
		wantErr(t, e.upload(bob, "kb://me/Welcome.md", upFile{"x.txt", []byte("1")}), 400, "not_a_folder")
		nothingStored("a file as target")
		wantErr(t, e.upload(bob, "kb://me/nope/", upFile{"x.txt", []byte("1")}), 404, "not_found")
		nothingStored("a missing folder as target")
		wantErr(t, e.upload(bob, "kb://me/"), 400, "no_files")
		nothingStored("no parts")
		wantErr(t, e.do("POST", q("/api/v1/resources/upload", "kb://me/"), bob, `{"file":"x"}`), 400, "invalid_upload")
		nothingStored("not multipart")

		var many []upFile
		for i := 0; i <= 256; i++ {
			many = append(many, upFile{fmt.Sprintf("m%03d.txt", i), []byte("m")})
		}
		wantErr(t, e.upload(bob, "kb://me/", many...), 400, "too_many_files")
		nothingStored("more than 256 files")

		// A name is stored NFC and found under either normalization.
		items = e.mustUpload(bob, "kb://me/", upFile{"nai\u0308ve.txt", []byte("naive")})
		if items[0].Name != "na\u00efve.txt" {
			t.Fatalf("stored name %q is not NFC", items[0].Name)
		}
		for _, u := range []string{"kb://me/na\u00efve.txt", "kb://me/nai\u0308ve.txt"} {
			if string(e.raw(bob, u)) != "naive" {
				t.Fatalf("%s not found", u)
			}
		}
		// Directory parts of a part's file name never place it elsewhere.
		for _, name := range []string{"../../escape.txt", "sub/dir/escape2.txt", "/abs/escape3.txt"} {
			r := e.upload(bob, "kb://me/notes/", upFile{name, []byte("escape")})
			if r.Status == 201 {
				var out struct {
					Items []itemJSON `json:"items"`
				}
				r.decode(t, &out)
				if len(out.Items) != 1 || !strings.HasPrefix(out.Items[0].URI, "kb://users/bob/notes/") || strings.Count(strings.TrimPrefix(out.Items[0].URI, "kb://users/bob/notes/"), "/") != 0 {
					t.Fatalf("part named %q stored as %+v", name, out.Items)
				}
			} else if code, _, _ := r.apiErr(); r.Status != 400 || code != "invalid_name" {
				t.Fatalf("part named %q: %s", name, r)
			}
		}
		for _, name := range e.names(bob, "kb://me/") {
			if strings.HasPrefix(name, "escape") {
				t.Fatalf("a part escaped its folder: %s", name)
			}
		}
		before = e.snapshot(bob)
		blobsBefore = e.blobFiles()

		// A part that is not named "file" is ignored.
		body, ct := multipartBody(t, upFile{"kept.txt", []byte("kept")})
		body = append([]byte("--"+strings.TrimPrefix(ct, "multipart/form-data; boundary=")+"\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"), body...)
		req, _ := http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		req.Header.Set("Authorization", "Bearer "+bob)
		var out struct {
			Items []itemJSON `json:"items"`
		}
		e.mustOK(e.send(req), 201, &out)
		if len(out.Items) != 1 || out.Items[0].Name != "kept.txt" {
			t.Fatalf("upload with an extra field: %+v", out.Items)
		}

		// Far over the limit: the server stops reading; whatever the
		// transport makes of that, nothing is stored.
		before = e.snapshot(bob)
		blobsBefore = e.blobFiles()
		served := e.served.Load()
		huge, hct := multipartBody(t, upFile{"huge.txt", bytes.Repeat([]byte("h"), 4*testUploadLimit)})
		req, _ = http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(huge))
		req.Header.Set("Content-Type", hct)
		req.Header.Set("Authorization", "Bearer "+bob)
		if res, err := e.client.Do(req); err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			wantErr(t, resp{Status: res.StatusCode, Header: res.Header, Body: b}, 413, "file_too_large")
		} else {
			t.Logf("4x limit upload: transport error (allowed): %v", err)
		}
		e.waitServed(served + 1)
		nothingStored("4x over the limit")
	})
}

// TestFailedCommitLeavesNoBlobs: an upload refused while committing (a part
// named like an existing folder) must not leave blob files nothing refers to.
func TestFailedCommitLeavesNoBlobs(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		before := e.snapshot(bob)
		blobsBefore := e.blobFiles()
		wantErr(t, e.upload(bob, "kb://me/", upFile{"new.txt", []byte("unique one")}, upFile{"notes", []byte("unique two")}), 409, "already_exists")
		sameSnapshot(t, "bob's tree", before, e.snapshot(bob))
		if n := e.blobFiles(); n != blobsBefore {
			t.Fatalf("%d blob files after a refused upload, was %d", n, blobsBefore)
		}
	})
}

// TestConcurrentWrites: parallel uploads of one name and parallel mkdirs of
// one path never answer 500 and leave exactly one node.
func TestConcurrentWrites(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		const n = 8
		statuses := make(chan string, 2*n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(2)
			go func() {
				defer wg.Done()
				body, ct := multipartBody(t, upFile{"race.txt", []byte(fmt.Sprintf("writer %d", i))})
				req, _ := http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(body))
				req.Header.Set("Content-Type", ct)
				req.Header.Set("Authorization", "Bearer "+bob)
				res, err := e.client.Do(req)
				if err != nil {
					statuses <- "upload: " + err.Error()
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				statuses <- fmt.Sprintf("upload %d %s", res.StatusCode, b)
			}()
			go func() {
				defer wg.Done()
				b, _ := json.Marshal(map[string]string{"uri": "kb://me/race/a/b/"})
				req, _ := http.NewRequest("POST", e.URL+"/api/v1/resources/folders", bytes.NewReader(b))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+bob)
				res, err := e.client.Do(req)
				if err != nil {
					statuses <- "mkdir: " + err.Error()
					return
				}
				b, _ = io.ReadAll(res.Body)
				res.Body.Close()
				statuses <- fmt.Sprintf("mkdir %d %s", res.StatusCode, b)
			}()
		}
		wg.Wait()
		close(statuses)
		created := map[string]int{}
		for s := range statuses {
			kind, rest, _ := strings.Cut(s, " ")
			switch {
			case strings.HasPrefix(rest, "201 "):
				created[kind]++
			case strings.HasPrefix(rest, "409 ") && strings.Contains(rest, "already_exists"):
			default:
				t.Errorf("concurrent %s", s)
			}
		}
		if created["mkdir"] != 1 || created["upload"] < 1 {
			t.Errorf("created %v: want one folder and at least one upload", created)
		}
		count := 0
		for _, name := range e.names(bob, "kb://me/") {
			if name == "race.txt" {
				count++
			}
		}
		if count != 1 || len(e.names(bob, "kb://me/race/a/")) != 1 {
			t.Fatalf("race.txt listed %d times; race/a holds %v", count, e.names(bob, "kb://me/race/a/"))
		}
		if got := string(e.raw(bob, "kb://me/race.txt")); !strings.HasPrefix(got, "writer ") {
			t.Fatalf("race.txt holds %q", got)
		}
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("staging holds %v", left)
		}
	})
}

// TestKilledUpload cuts uploads off mid-part: no node, no staged file, no blob.
func TestKilledUpload(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		before := e.snapshot(bob)
		blobsBefore := e.blobFiles()
		const boundary = "XBOUNDARYX"
		part := func(name string, data []byte) []byte {
			return append([]byte("--"+boundary+"\r\nContent-Disposition: form-data; name=\"file\"; filename=\""+name+"\"\r\nContent-Type: text/plain\r\n\r\n"), data...)
		}
		chunk := bytes.Repeat([]byte("k"), 600<<10) // more than one staging write

		cuts := []struct {
			name string
			body []byte
		}{
			{"cut inside the only part", part("cut.txt", chunk)},
			{"cut inside the part headers", []byte("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filen")},
			{"cut inside the second part", append(append(part("first.txt", []byte("complete first file")), []byte("\r\n")...), part("second.txt", chunk)...)},
			{"cut right before the closing boundary", append(part("almost.txt", []byte("all bytes but the end")), []byte("\r\n")...)},
		}
		for _, c := range cuts {
			served := e.served.Load()
			conn, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\nContent-Type: multipart/form-data; boundary=%s\r\nContent-Length: %d\r\n\r\n",
				q("/api/v1/resources/upload", "kb://me/"), bob, boundary, len(c.body)+(10<<20))
			if _, err := conn.Write(c.body); err != nil {
				t.Fatalf("%s: write: %v", c.name, err)
			}
			time.Sleep(20 * time.Millisecond) // let the server start on the part
			conn.Close()
			e.waitServed(served + 1)
			sameSnapshot(t, c.name, before, e.snapshot(bob))
			if left := e.stagingFiles(); len(left) != 0 {
				t.Fatalf("%s: staging holds %v", c.name, left)
			}
			if n := e.blobFiles(); n != blobsBefore {
				t.Fatalf("%s: %d blob files, was %d", c.name, n, blobsBefore)
			}
		}

		// A client whose body reader fails mid-way (chunked transfer).
		pr, pw := io.Pipe()
		go func() {
			pw.Write(part("piped.txt", chunk))
			pw.CloseWithError(errors.New("client died"))
		}()
		served := e.served.Load()
		req, _ := http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), pr)
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		req.Header.Set("Authorization", "Bearer "+bob)
		if res, err := e.client.Do(req); err == nil {
			res.Body.Close()
			if res.StatusCode < 400 {
				t.Fatalf("broken body answered %d", res.StatusCode)
			}
		}
		e.waitServed(served + 1)
		sameSnapshot(t, "broken pipe", before, e.snapshot(bob))
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("broken pipe: staging holds %v", left)
		}

		// A complete but malformed body (no closing boundary, cleanly sent)
		// is a 400 and stores nothing.
		body := part("nofinal.txt", []byte("data"))
		req, _ = http.NewRequest("POST", e.URL+q("/api/v1/resources/upload", "kb://me/"), bytes.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary="+boundary)
		req.Header.Set("Authorization", "Bearer "+bob)
		r := e.send(req)
		if r.Status != 400 {
			t.Fatalf("unterminated multipart: %s", r)
		}
		sameSnapshot(t, "unterminated multipart", before, e.snapshot(bob))
		if left := e.stagingFiles(); len(left) != 0 {
			t.Fatalf("unterminated multipart: staging holds %v", left)
		}
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
		runScenarios(t, e, []scenario{
			{name: "into own subtree", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/notes/", "new_uri": "kb://me/notes/sub/deeper/notes/"}, status: 400, code: "invalid_move"},
			{name: "onto itself", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/notes/", "new_uri": "kb://me/notes/"}, status: 400, code: "invalid_move"},
			{name: "into own child", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/notes", "new_uri": "kb://me/notes/sub/notes"}, status: 400, code: "invalid_move"},
			{name: "root", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/", "new_uri": "kb://me/root2/"}, status: 400, code: "invalid_move"},
			{name: "onto root", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/"}, status: 409, code: "already_exists"},
			{name: "onto an existing file", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/笔记 😀.md", "new_uri": "kb://me/Welcome.md"}, status: 409, code: "already_exists"},
			{name: "onto an existing folder", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/notes/"}, status: 409, code: "already_exists"},
			{name: "file to a folder spelling", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/Welcome.md", "new_uri": "kb://me/Welcome/"}, status: 400, code: "invalid_move"},
			{name: "under a file", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/Welcome.md/data/"}, status: 400, code: "not_a_folder"},
			{name: "missing parent", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/data/", "new_uri": "kb://me/nope/data/"}, status: 404, code: "not_found"},
			{name: "missing source", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/nope.md", "new_uri": "kb://me/yes.md"}, status: 404, code: "not_found"},
			{name: "missing new_uri", method: "PATCH", path: "/api/v1/resources", token: bob, body: map[string]string{"uri": "kb://me/data/"}, status: 400, code: "invalid_uri"},
			{name: "unknown field", method: "PATCH", path: "/api/v1/resources", token: bob, body: `{"uri":"kb://me/data/","new_uri":"kb://me/d2/","force":true}`, status: 400, code: "invalid_json"},
			{name: "trailing data", method: "PATCH", path: "/api/v1/resources", token: bob, body: `{"uri":"kb://me/data/","new_uri":"kb://me/d2/"}[]`, status: 400, code: "invalid_json"},
			{name: "empty body", method: "PATCH", path: "/api/v1/resources", token: bob, body: ``, status: 400, code: "invalid_json"},
			{name: "delete root", method: "DELETE", path: q("/api/v1/resources", "kb://me/"), token: bob, status: 400, code: "invalid_delete"},
			{name: "delete root alias", method: "DELETE", path: q("/api/v1/resources", "kb://users/"), token: bob, status: 400, code: "invalid_delete"},
			{name: "delete missing", method: "DELETE", path: q("/api/v1/resources", "kb://me/nope"), token: bob, status: 404, code: "not_found"},
			{name: "delete without uri", method: "DELETE", path: "/api/v1/resources", token: bob, status: 400, code: "invalid_uri"},
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
		wantErr(t, e.do("GET", "/api/v1/resources/raw", bob, nil), 400, "invalid_uri")

		// A binary file has no text body yet; offset past 0 is out of range.
		var p pageJSON
		e.mustOK(e.do("GET", q("/api/v1/resources/content", "kb://me/doc.pdf"), bob, nil), 200, &p)
		if p.Body != "none" || p.Text != "" || p.Total != 0 || p.NextOffset != nil {
			t.Fatalf("pdf page %+v", p)
		}
		wantErr(t, e.do("GET", q("/api/v1/resources/content", "kb://me/doc.pdf", "offset", "1"), bob, nil), 400, "offset_out_of_range")
		// Bytes with a NUL are not text either, whatever the extension.
		e.mustUpload(bob, "kb://me/", upFile{"nul.txt", []byte("a\x00b")}, upFile{"latin1.txt", []byte("caf\xe9")})
		for _, u := range []string{"kb://me/nul.txt", "kb://me/latin1.txt"} {
			e.mustOK(e.do("GET", q("/api/v1/resources/content", u), bob, nil), 200, &p)
			if p.Body != "none" || p.Text != "" {
				t.Errorf("%s page %+v", u, p)
			}
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
		runScenarios(t, e, []scenario{
			{name: "limit 6001", method: "GET", path: q(content, "kb://me/mixed.md", "limit", "6001"), token: bob, status: 400, code: "invalid_limit"},
			{name: "limit 0", method: "GET", path: q(content, "kb://me/mixed.md", "limit", "0"), token: bob, status: 400, code: "invalid_limit"},
			{name: "limit -1", method: "GET", path: q(content, "kb://me/mixed.md", "limit", "-1"), token: bob, status: 400, code: "invalid_limit"},
			{name: "limit huge", method: "GET", path: q(content, "kb://me/mixed.md", "limit", "99999999999999999999"), token: bob, status: 400, code: "invalid_limit"},
			{name: "limit not a number", method: "GET", path: q(content, "kb://me/mixed.md", "limit", "1.5"), token: bob, status: 400, code: "invalid_limit"},
			{name: "offset negative", method: "GET", path: q(content, "kb://me/mixed.md", "offset", "-1"), token: bob, status: 400, code: "invalid_offset"},
			{name: "offset not a number", method: "GET", path: q(content, "kb://me/mixed.md", "offset", "x"), token: bob, status: 400, code: "invalid_offset"},
			{name: "offset past end", method: "GET", path: q(content, "kb://me/mixed.md", "offset", fmt.Sprint(total+1)), token: bob, status: 400, code: "offset_out_of_range"},
			{name: "offset past end of empty file", method: "GET", path: q(content, "kb://me/empty.txt", "offset", "1"), token: bob, status: 400, code: "offset_out_of_range"},
			{name: "a folder", method: "GET", path: q(content, "kb://me/notes/"), token: bob, status: 400, code: "not_a_file"},
			{name: "missing file", method: "GET", path: q(content, "kb://me/nope.md"), token: bob, status: 404, code: "not_found"},
			{name: "no uri", method: "GET", path: content, token: bob, status: 400, code: "invalid_uri"},
			{name: "sample Chinese note", method: "GET", path: q(content, "kb://me/notes/会议纪要.md"), token: bob, status: 200,
				check: func(t *testing.T, r resp) {
					var p pageJSON
					r.decode(t, &p)
					if p.Body != "raw" || p.Total == 0 || !utf8.ValidString(p.Text) || p.Total != int64(utf8.RuneCountInString(p.Text)) {
						t.Errorf("sample note page: %+v", p)
					}
				}},
		})
	})
}
