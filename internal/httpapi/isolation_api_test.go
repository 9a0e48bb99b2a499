package httpapi_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

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

		spellings := aliceSpellings()

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
	code, _, ok := r.APIError()
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
				if code, _, _ := r.APIError(); code != "invalid_uri" {
					t.Errorf("%s %q: want invalid_uri, got %s", a.endpoint, trunc(u), r)
				}
			}
		}
		// An empty uri is required everywhere except list, where it means the root.
		for _, a := range uriAttempts() {
			if a.endpoint == "list" || strings.HasSuffix(a.endpoint, "-child") {
				continue
			}
			wantErr(t, a.send(e.invalid(), bob, ""), http.StatusBadRequest, "invalid_uri")
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

// aliceSpellings names alice's tree, or tries to climb into it, in every
// way the isolation tests know.
func aliceSpellings() []string {
	return []string{
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
}
