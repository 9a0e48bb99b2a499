package dav_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestAuth(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		cases := []struct {
			name string
			r    req
			want int
		}{
			{"no credentials", req{method: "PROPFIND", path: "/dav/", noAuth: true, hdr: map[string]string{"Depth": "0"}}, 401},
			{"account password", req{method: "PROPFIND", path: "/dav/", key: "password-alice", hdr: map[string]string{"Depth": "0"}}, 401},
			{"another user's name", req{method: "PROPFIND", path: "/dav/", user: "bob", hdr: map[string]string{"Depth": "0"}}, 401},
			{"bad token", req{method: "PROPFIND", path: "/dav/", key: "ks_nope", hdr: map[string]string{"Depth": "0"}}, 401},
			{"basic with token", req{method: "PROPFIND", path: "/dav/", hdr: map[string]string{"Depth": "0"}}, 207},
			{"bearer", req{method: "PROPFIND", path: "/dav/", noAuth: true, hdr: map[string]string{"Depth": "0", "Authorization": "Bearer " + e.aliceKey}}, 207},
			{"foreign origin", req{method: "GET", path: "/dav/Welcome.md", hdr: map[string]string{"Origin": "https://evil.example"}}, 403},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res, body := e.do(c.r)
				if res.StatusCode != c.want {
					t.Fatalf("%d %s, want %d", res.StatusCode, body, c.want)
				}
				if c.want == 401 {
					if got := res.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, `Basic realm="Knowspace"`) {
						t.Fatalf("WWW-Authenticate %q", got)
					}
					if !strings.Contains(string(body), `"code"`) {
						t.Fatalf("error body %s", body)
					}
				}
			})
		}
	})
}

func TestFilesThroughTheTree(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()

		res := e.put("/dav/notes/%E6%96%B0.md", "first", http.StatusCreated)
		etag1 := res.Header.Get("ETag")
		res = e.put("/dav/notes/%E6%96%B0.md", "second, longer", http.StatusCreated)
		etag2 := res.Header.Get("ETag")
		if etag1 == "" || etag1 == etag2 {
			t.Fatalf("ETags %q %q: want set and different", etag1, etag2)
		}
		vs, err := trash.New(e.tree).Versions(ctx, e.alice, "kb://me/notes/新.md")
		if err != nil || len(vs) != 2 {
			t.Fatalf("versions %v %v: PUT over a file keeps the old one", vs, err)
		}

		res, body := e.do(req{method: "GET", path: "/dav/notes/%E6%96%B0.md"})
		if res.StatusCode != 200 || string(body) != "second, longer" || res.Header.Get("ETag") != etag2 || res.Header.Get("Last-Modified") == "" {
			t.Fatalf("GET: %d %q etag %q lm %q", res.StatusCode, body, res.Header.Get("ETag"), res.Header.Get("Last-Modified"))
		}
		res, body = e.do(req{method: "GET", path: "/dav/notes/%E6%96%B0.md", hdr: map[string]string{"Range": "bytes=8-13"}})
		if res.StatusCode != http.StatusPartialContent || string(body) != "longer" {
			t.Fatalf("range: %d %q", res.StatusCode, body)
		}
		conds := []struct {
			name string
			r    req
			want int
		}{
			{"GET If-None-Match current", req{method: "GET", path: "/dav/notes/%E6%96%B0.md", hdr: map[string]string{"If-None-Match": etag2}}, 304},
			{"GET If-Match old", req{method: "GET", path: "/dav/notes/%E6%96%B0.md", hdr: map[string]string{"If-Match": etag1}}, 412},
			{"PUT If-Match old", req{method: "PUT", path: "/dav/notes/%E6%96%B0.md", body: strings.NewReader("x"), hdr: map[string]string{"If-Match": etag1}}, 412},
			{"PUT If-None-Match * on existing", req{method: "PUT", path: "/dav/notes/%E6%96%B0.md", body: strings.NewReader("x"), hdr: map[string]string{"If-None-Match": "*"}}, 412},
			{"DELETE If-Match old", req{method: "DELETE", path: "/dav/notes/%E6%96%B0.md", hdr: map[string]string{"If-Match": etag1}}, 412},
			{"PUT If-Match current", req{method: "PUT", path: "/dav/notes/%E6%96%B0.md", body: strings.NewReader("third"), hdr: map[string]string{"If-Match": etag2}}, 201},
		}
		for _, c := range conds {
			if got := e.status(c.r); got != c.want {
				t.Errorf("%s: %d, want %d", c.name, got, c.want)
			}
		}

		// DELETE moves to the trash, where it can be restored.
		if got := e.status(req{method: "DELETE", path: "/dav/notes/%E6%96%B0.md"}); got != http.StatusNoContent {
			t.Fatalf("DELETE: %d", got)
		}
		trash, err := trash.New(e.tree).ListTrash(ctx, e.alice)
		if err != nil || len(trash) != 1 || trash[0].Name != "新.md" {
			t.Fatalf("trash %v %v", trash, err)
		}

		// The search index sees what WebDAV writes.
		e.put("/dav/notes/zebra.md", "the quarterly zebra figure", http.StatusCreated)
		code, body := e.rest("GET", "/search?q=zebra&kind=content", nil, "")
		if code != 200 || !strings.Contains(string(body), "zebra.md") {
			t.Fatalf("search: %d %s", code, body)
		}
	})
}

func TestRefusals(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/wiki/"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.tree.Publish(ctx, e.alice, "out", []knowledge.GeneratedFile{{Name: "s.md", Text: "a summary", Provenance: store.Provenance{Role: "overview"}}}, nil); err != nil {
			t.Fatal(err)
		}
		e.put("/dav/alice-only.md", "mine", http.StatusCreated)
		big := strings.Repeat("x", maxUpload+1)
		cases := []struct {
			name string
			r    req
			want int
			code string
		}{
			{"PUT into wiki", req{method: "PUT", path: "/dav/wiki/a.md", body: strings.NewReader("x")}, 403, "generated_read_only"},
			{"MKCOL in wiki", req{method: "MKCOL", path: "/dav/wiki/x"}, 403, "generated_read_only"},
			{"DELETE wiki", req{method: "DELETE", path: "/dav/wiki"}, 403, "generated_read_only"},
			{"COPY into wiki", req{method: "COPY", path: "/dav/Welcome.md", hdr: map[string]string{"Destination": "/dav/wiki/W.md"}}, 403, "generated_read_only"},
			{"PUT over compile output elsewhere", req{method: "PUT", path: "/dav/out/s.md", body: strings.NewReader("x")}, 403, "generated_read_only"},
			{"PUT into a compile output folder", req{method: "PUT", path: "/dav/out/new.md", body: strings.NewReader("x")}, 403, "generated_read_only"},
			{"MOVE compile output", req{method: "MOVE", path: "/dav/out/s.md", hdr: map[string]string{"Destination": "/dav/s.md"}}, 403, "generated_read_only"},
			{"MOVE over compile output", req{method: "MOVE", path: "/dav/alice-only.md", hdr: map[string]string{"Destination": "/dav/out/s.md"}}, 403, "generated_read_only"},
			{"DELETE compile output", req{method: "DELETE", path: "/dav/out/s.md"}, 403, "generated_read_only"},
			{"bad name", req{method: "PUT", path: "/dav/notes/a%E2%80%AEb.md", body: strings.NewReader("x")}, 400, "invalid_name"},
			{"PUT without parent", req{method: "PUT", path: "/dav/nope/a.md", body: strings.NewReader("x")}, 409, ""},
			{"PUT too large, announced", req{method: "PUT", path: "/dav/big.bin", body: strings.NewReader(big)}, 413, "file_too_large"},
			{"PUT too large, chunked", req{method: "PUT", path: "/dav/big.bin", body: io.MultiReader(strings.NewReader(big))}, 413, "file_too_large"},
			{"PUT on a folder", req{method: "PUT", path: "/dav/notes", body: strings.NewReader("x")}, 405, "is_a_folder"},
			{"PROPFIND infinity", req{method: "PROPFIND", path: "/dav/", hdr: map[string]string{"Depth": "infinity"}}, 403, ""},
			{"read-only token PUT", req{method: "PUT", path: "/dav/x.md", key: e.notesRO, body: strings.NewReader("x")}, 403, "read_only"},
			{"read-only token DELETE", req{method: "DELETE", path: "/dav/research-plan.md", key: e.notesRO}, 403, "read_only"},
			{"scoped token cannot delete its root", req{method: "DELETE", path: "/dav/", key: e.notesRW}, 403, ""},
			{"bob's mount is his own tree", req{method: "GET", path: "/dav/alice-only.md", user: "bob", key: e.bobKey}, 404, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				res, body := e.do(c.r)
				if res.StatusCode != c.want || c.code != "" && !strings.Contains(string(body), `"code":"`+c.code+`"`) {
					t.Fatalf("%d %s, want %d %s", res.StatusCode, body, c.want, c.code)
				}
			})
		}
		res, body := e.do(req{method: "PROPPATCH", path: "/dav/out/s.md", body: strings.NewReader(
			`<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><z xmlns="urn:z">1</z></D:prop></D:set></D:propertyupdate>`)})
		if res.StatusCode != 207 || !strings.Contains(string(body), "403 Forbidden") {
			t.Fatalf("PROPPATCH of compile output: %d %s", res.StatusCode, body)
		}
		if _, err := e.tree.Stat(ctx, e.alice, "kb://me/big.bin"); err == nil {
			t.Fatal("a refused upload left a file")
		}
		if res, body = e.do(req{method: "PROPFIND", path: "/dav/", hdr: map[string]string{"Depth": "infinity"}}); !strings.Contains(string(body), "propfind-finite-depth") {
			t.Fatalf("infinity refusal: %d %s", res.StatusCode, body)
		}
	})
}

func TestScopedTokenSeesItsFolder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		res, body := e.do(req{method: "PROPFIND", path: "/dav/", key: e.notesRO, hdr: map[string]string{"Depth": "1"}})
		if res.StatusCode != 207 || !strings.Contains(string(body), "/dav/research-plan.md") || strings.Contains(string(body), "Welcome.md") {
			t.Fatalf("scoped PROPFIND: %d %s", res.StatusCode, body)
		}
		// A writable scoped token writes inside its folder, through the tree.
		if got := e.status(req{method: "PUT", path: "/dav/s.md", key: e.notesRW, body: strings.NewReader("scoped")}); got != 201 {
			t.Fatalf("scoped PUT: %d", got)
		}
		if _, err := e.tree.Stat(context.Background(), e.alice, "kb://me/notes/s.md"); err != nil {
			t.Fatalf("scoped PUT landed elsewhere: %v", err)
		}
	})
}

func TestCopyMoveSubtrees(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.do(req{method: "PROPPATCH", path: "/dav/notes/research-plan.md", body: strings.NewReader(
			`<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:colour>blue</Z:colour></D:prop></D:set></D:propertyupdate>`)})
		if got := e.status(req{method: "COPY", path: "/dav/notes/", hdr: map[string]string{"Destination": e.url + "/dav/copy/"}}); got != 201 {
			t.Fatalf("COPY: %d", got)
		}
		for _, p := range []string{"copy/research-plan.md", "copy/archive/2025-retro.md", "copy/会议纪要.md"} {
			src, _ := e.tree.Stat(ctx, e.alice, "kb://me/notes/"+strings.TrimPrefix(p, "copy/"))
			dst, err := e.tree.Stat(ctx, e.alice, "kb://me/"+p)
			if err != nil || dst.Hash != src.Hash {
				t.Fatalf("%s: %v %v", p, dst, err)
			}
		}
		_, body := e.do(req{method: "PROPFIND", path: "/dav/copy/research-plan.md", hdr: map[string]string{"Depth": "0"},
			body: strings.NewReader(`<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><colour xmlns="urn:z"/></D:prop></D:propfind>`)})
		if !strings.Contains(string(body), "blue") {
			t.Fatalf("dead property not copied: %s", body)
		}
		// Overwrite: F refuses, T replaces and trashes what was there.
		if got := e.status(req{method: "COPY", path: "/dav/notes/", hdr: map[string]string{"Destination": "/dav/copy/", "Overwrite": "F"}}); got != 412 {
			t.Fatalf("COPY Overwrite F: %d", got)
		}
		if got := e.status(req{method: "MOVE", path: "/dav/data/", hdr: map[string]string{"Destination": "/dav/copy/"}}); got != 204 {
			t.Fatalf("MOVE over: %d", got)
		}
		if _, err := e.tree.Stat(ctx, e.alice, "kb://me/copy/metrics.csv"); err != nil {
			t.Fatalf("moved folder: %v", err)
		}
		if _, err := e.tree.Stat(ctx, e.alice, "kb://me/data/"); err == nil {
			t.Fatal("MOVE left the source")
		}
		trash, _ := trash.New(e.tree).ListTrash(ctx, e.alice)
		if len(trash) != 1 || trash[0].Name != "copy" {
			t.Fatalf("replaced folder not in trash: %v", trash)
		}
		if got := e.status(req{method: "COPY", path: "/dav/notes/", hdr: map[string]string{"Destination": "/dav/notes/inner/"}}); got != 400 {
			t.Fatalf("COPY into itself: %d", got)
		}
		if got := e.status(req{method: "MOVE", path: "/dav/copy/metrics.csv", hdr: map[string]string{"Destination": "/dav/copy/"}}); got != 409 {
			t.Fatalf("MOVE over the folder holding the source: %d, want 409", got)
		}
		if got := e.status(req{method: "MOVE", path: "/dav/notes/", hdr: map[string]string{"Destination": "/dav/missing/notes/"}}); got != 409 {
			t.Fatalf("MOVE without parent: %d", got)
		}
	})
}

// TestLocksAcrossReplicas runs two doors on one database, as two replicas
// would: a lock taken through one binds writes through the other.
func TestLocksAcrossReplicas(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		other := e.replica()
		lockBody := `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>t</D:owner></D:lockinfo>`
		res, body := e.do(req{method: "LOCK", path: "/dav/Welcome.md", body: strings.NewReader(lockBody), hdr: map[string]string{"Timeout": "Second-60"}})
		token := strings.Trim(res.Header.Get("Lock-Token"), "<>")
		if res.StatusCode != 200 || token == "" {
			t.Fatalf("LOCK: %d %s", res.StatusCode, body)
		}
		if got := other.status(req{method: "PUT", path: "/dav/Welcome.md", body: strings.NewReader("x")}); got != 423 {
			t.Fatalf("PUT without the token on the other replica: %d, want 423", got)
		}
		if got := other.status(req{method: "LOCK", path: "/dav/Welcome.md", body: strings.NewReader(lockBody)}); got != 423 {
			t.Fatalf("second LOCK: %d, want 423", got)
		}
		if got := other.status(req{method: "MOVE", path: "/dav/Welcome.md", hdr: map[string]string{"Destination": "/dav/W.md"}}); got != 423 {
			t.Fatalf("MOVE of a locked file: %d, want 423", got)
		}
		if got := other.status(req{method: "PUT", path: "/dav/Welcome.md", body: strings.NewReader("x"), hdr: map[string]string{"If": "(<" + token + ">)"}}); got != 201 {
			t.Fatalf("PUT with the token: %d", got)
		}
		if got := other.status(req{method: "UNLOCK", path: "/dav/Welcome.md", hdr: map[string]string{"Lock-Token": "<" + token + ">"}}); got != 204 {
			t.Fatalf("UNLOCK on the other replica: %d", got)
		}
		if got := e.status(req{method: "PUT", path: "/dav/Welcome.md", body: strings.NewReader("y")}); got != 201 {
			t.Fatalf("PUT after UNLOCK: %d", got)
		}
		// An expired lock binds nobody.
		res, _ = e.do(req{method: "LOCK", path: "/dav/notes/", body: strings.NewReader(lockBody), hdr: map[string]string{"Timeout": "Second-1"}})
		if res.StatusCode != 200 {
			t.Fatalf("LOCK folder: %d", res.StatusCode)
		}
		if got := other.status(req{method: "PUT", path: "/dav/notes/in.md", body: strings.NewReader("x")}); got != 423 {
			t.Fatalf("PUT below an infinite-depth lock: %d, want 423", got)
		}
		time.Sleep(1100 * time.Millisecond)
		if got := other.status(req{method: "PUT", path: "/dav/notes/in.md", body: strings.NewReader("x")}); got != 201 {
			t.Fatalf("PUT after the lock expired: %d", got)
		}
		// A lock on a member binds a DELETE or MOVE of its folder.
		res, _ = e.do(req{method: "LOCK", path: "/dav/notes/archive/2025-retro.md", body: strings.NewReader(lockBody)})
		member := strings.Trim(res.Header.Get("Lock-Token"), "<>")
		if res.StatusCode != 200 {
			t.Fatalf("LOCK member: %d", res.StatusCode)
		}
		if got := other.status(req{method: "DELETE", path: "/dav/notes/archive/"}); got != 423 {
			t.Fatalf("DELETE of a folder with a locked member: %d, want 423", got)
		}
		if got := other.status(req{method: "MOVE", path: "/dav/notes/archive/", hdr: map[string]string{"Destination": "/dav/old/"}}); got != 423 {
			t.Fatalf("MOVE of a folder with a locked member: %d, want 423", got)
		}
		if got := other.status(req{method: "DELETE", path: "/dav/notes/archive/", hdr: map[string]string{"If": "(<" + member + ">)"}}); got != 412 {
			t.Fatalf("DELETE with the member's token as the folder's: %d, want 412", got)
		}
		tagged := "<" + other.url + "/dav/notes/archive/2025-retro.md> (<" + member + ">)"
		if got := other.status(req{method: "DELETE", path: "/dav/notes/archive/", hdr: map[string]string{"If": tagged}}); got != 204 {
			t.Fatalf("DELETE submitting the member's token for the member: %d, want 204", got)
		}
		// Bob's tree is his own: alice's lock paths do not bind him.
		e.do(req{method: "LOCK", path: "/dav/Welcome.md", body: strings.NewReader(lockBody)})
		if got := e.status(req{method: "PUT", path: "/dav/Welcome.md", user: "bob", key: e.bobKey, body: strings.NewReader("b")}); got != 201 {
			t.Fatalf("bob's PUT: %d", got)
		}
	})
}

// replica is a second door on the same store and tree.
func (e *env) replica() *env {
	cp := *e
	cp.url = startReplica(e)
	return &cp
}

// TestCutPutStoresNothing hangs up in the middle of a PUT body: the file
// keeps its old content and gets no version of the half that arrived.
func TestCutPutStoresNothing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put("/dav/notes/cut.md", "whole", http.StatusCreated)
		u, _ := url.Parse(e.url)
		conn, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		auth := base64.StdEncoding.EncodeToString([]byte("alice:" + e.aliceKey))
		fmt.Fprintf(conn, "PUT /dav/notes/cut.md HTTP/1.1\r\nHost: %s\r\nAuthorization: Basic %s\r\nContent-Length: 100000\r\n\r\nonly the start", u.Host, auth)
		time.Sleep(200 * time.Millisecond)
		conn.Close()
		// The server notices the hang-up and answers nobody; wait for it.
		deadline := time.Now().Add(time.Second)
		for {
			vs, err := trash.New(e.tree).Versions(ctx, e.alice, "kb://me/notes/cut.md")
			if err != nil {
				t.Fatal(err)
			}
			if len(vs) != 1 {
				t.Fatalf("%d versions after a cut PUT, want 1", len(vs))
			}
			if time.Now().After(deadline) {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		_, body := e.do(req{method: "GET", path: "/dav/notes/cut.md"})
		if string(body) != "whole" {
			t.Fatalf("content after a cut PUT: %q", body)
		}
	})
}
