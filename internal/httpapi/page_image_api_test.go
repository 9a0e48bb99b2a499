package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// pageEnv serves alice's two-page scan, her note and bob's scan, with
// pages drawn by r.
func pageEnv(t *testing.T, r PageRenderer) (*apiEnv, []byte) {
	t.Helper()
	en, err := extracttest.RenderText("A scanned letter from the harbour office, page one.", 150)
	if err != nil {
		t.Skip(err)
	}
	zh, err := extracttest.RenderText("第二页：港务局的信函。", 150)
	if err != nil {
		t.Skip(err)
	}
	scan := extracttest.ScannedPDF([]extracttest.Page{en, zh}, "")
	e := newAPIEnv(t, apptest.NewStack(t, "sqlite"), Deps{Pages: r}, "alice", "bob")
	e.upload("alice", "kb://me/scans/", map[string]string{"letter.pdf": string(scan), "note.md": "# a note"})
	e.upload("bob", "kb://me/mine/", map[string]string{"secret.pdf": string(scan)})
	return e, scan
}

// childIsolation draws pages in this test binary as the extraction child
// (TestMain), with the PDF engine's compiled code shared between runs.
func childIsolation() extract.Isolation {
	return extract.Isolation{Command: []string{os.Args[0]}, Timeout: 2 * time.Minute, MemoryBytes: 4 << 30,
		CacheDir: filepath.Join(os.TempDir(), "knowspace-test-pdf-engine")}
}

// getPage asks for a page image with the user's token.
func (e *apiEnv) getPage(user, query string, hdr http.Header) (*http.Response, []byte) {
	e.t.Helper()
	req := e.request(e.t, context.Background(), "GET", "/api/v1/resources/page-image?"+query, user, nil)
	for k, v := range hdr {
		req.Header[k] = v
	}
	resp := e.send(e.t, req)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestPageImage(t *testing.T) {
	e, _ := pageEnv(t, childIsolation())

	var first []byte
	for _, n := range []string{"1", "2"} {
		start := time.Now()
		resp, b := e.getPage("alice", "uri=kb://me/scans/letter.pdf&page="+n, nil)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || resp.Header.Get("X-Page-Count") != "2" ||
			resp.Header.Get("Cache-Control") != "private, no-cache" || resp.Header.Get("ETag") == "" {
			t.Fatalf("page %s: %d %v %.300s", n, resp.StatusCode, resp.Header, b)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("page %s is not a PNG: %v", n, err)
		}
		// Letter at 150 dpi.
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w < 1274 || w > 1276 || h < 1649 || h > 1651 {
			t.Fatalf("page %s: %d×%d", n, w, h)
		}
		if first == nil {
			first = b
		} else if bytes.Equal(first, b) {
			t.Fatal("page 2 is drawn as page 1")
		}
		t.Logf("page %s: %d KB in %v", n, len(b)>>10, time.Since(start).Round(time.Millisecond))

		// Asked again with its ETag, nothing is drawn.
		again, body := e.getPage("alice", "uri=kb://me/scans/letter.pdf&page="+n, http.Header{"If-None-Match": {resp.Header.Get("ETag")}})
		if again.StatusCode != 304 || len(body) != 0 {
			t.Fatalf("revalidation of page %s: %d", n, again.StatusCode)
		}
	}

	bad := []struct {
		name, user, query string
		status            int
		code, says        string
	}{
		{"page 0", "alice", "uri=kb://me/scans/letter.pdf&page=0", 400, "invalid_page", "counting from 1"},
		{"page not a number", "alice", "uri=kb://me/scans/letter.pdf&page=one", 400, "invalid_page", "page number"},
		{"past the end", "alice", "uri=kb://me/scans/letter.pdf&page=3", 400, "page_out_of_range", "has 2 pages"},
		{"not a PDF", "alice", "uri=kb://me/scans/note.md&page=1", 400, "not_a_pdf", "note.md is not a PDF"},
		{"absent file", "alice", "uri=kb://me/scans/gone.pdf&page=1", 404, "not_found", "gone.pdf"},
		{"another user's file", "alice", "uri=kb://users/bob/mine/secret.pdf&page=1", 404, "not_found", "secret.pdf"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "page not a number" || c.name == "page 0" {
				e.invalid()
			}
			resp, b := e.getPage(c.user, c.query, nil)
			var body struct {
				Error struct {
					Code, Message string
					Pages         int
				}
			}
			if err := json.Unmarshal(b, &body); err != nil || resp.StatusCode != c.status || body.Error.Code != c.code || !strings.Contains(body.Error.Message, c.says) {
				t.Fatalf("%d %s; want %d %s saying %q", resp.StatusCode, b, c.status, c.code, c.says)
			}
			if c.code == "page_out_of_range" && body.Error.Pages != 2 {
				t.Fatalf("pages %d in %s", body.Error.Pages, b)
			}
		})
	}

	// Bob's file answers as an absent one does: the same code, no more.
	_, absent := e.getPage("bob", "uri=kb://users/alice/scans/nothing.pdf&page=1", nil)
	_, hidden := e.getPage("bob", "uri=kb://users/alice/scans/letter.pdf&page=1", nil)
	if strings.ReplaceAll(string(absent), "nothing.pdf", "X") != strings.ReplaceAll(string(hidden), "letter.pdf", "X") {
		t.Fatalf("hidden %s differs from absent %s", hidden, absent)
	}

	// A token scoped to another folder cannot draw the scan either.
	e.do("POST", "/resources/folders", "alice", map[string]string{"uri": "kb://me/notes/"})
	code, b := e.do("POST", "/auth/tokens", "alice", map[string]any{"name": "notes only", "scope_uri": "kb://me/notes/"})
	var tok struct{ Token string }
	if code != 201 || json.Unmarshal(b, &tok) != nil || tok.Token == "" {
		t.Fatalf("scoped token %d %s", code, b)
	}
	e.tokens["scoped"] = tok.Token
	if resp, b := e.getPage("scoped", "uri=kb://users/alice/scans/letter.pdf&page=1", nil); resp.StatusCode != 404 || !strings.Contains(string(b), `"not_found"`) {
		t.Fatalf("scoped token: %d %s", resp.StatusCode, b)
	}
}

// blockingRenderer draws nothing: it waits for the request to end and
// says when it saw that.
type blockingRenderer struct{ ended chan time.Time }

func (r blockingRenderer) RenderPage(ctx context.Context, _ string, _ io.Reader, _ int) (extract.PageImage, error) {
	<-ctx.Done()
	r.ended <- time.Now()
	return extract.PageImage{}, ctx.Err()
}

// A client that goes away stops the drawing (the isolation child is
// killed on the same context: extract's TestIsolatedRenderPage).
func TestPageImageStopsWhenTheClientLeaves(t *testing.T) {
	r := blockingRenderer{ended: make(chan time.Time, 1)}
	e, _ := pageEnv(t, r)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.srv.URL+"/api/v1/resources/page-image?uri=kb://me/scans/letter.pdf&page=1", nil)
	req.Header.Set("Authorization", "Bearer "+e.tokens["alice"])
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the request ended with an answer")
	}
	left := time.Now()
	select {
	case ended := <-r.ended:
		t.Logf("the renderer saw the client leave %v after", ended.Sub(left).Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatal("the renderer still runs 5 s after the client left")
	}
}

func TestPageImageWithoutRenderer(t *testing.T) {
	e, _ := pageEnv(t, nil)
	resp, b := e.getPage("alice", "uri=kb://me/scans/letter.pdf&page=1", nil)
	if resp.StatusCode != 503 || !strings.Contains(string(b), `"renderer_unavailable"`) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}
