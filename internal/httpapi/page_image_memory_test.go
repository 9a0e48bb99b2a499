package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// bigPDF is a one-page PDF of about size bytes: an unreferenced stream
// object carries the bulk, so drawing its page stays cheap.
func bigPDF(size int) []byte {
	pad := bytes.Repeat([]byte("0123456789abcdef"), size/16)
	return extracttest.PDF(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(pad), pad),
	)
}

// TestPageImagesDoNotHoldTheWholeFile: 16 parallel page images of a 48 MB
// PDF once read 16 copies of it into the server's memory before waiting
// for a render slot (160 MB -> 1.63 GB RSS). The file now streams to the
// renderer: the server allocates a small part of one copy.
// Not parallel: it measures the process's allocations.
func TestPageImagesDoNotHoldTheWholeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 16 pages of a 48 MB PDF")
	}
	e := newAPIEnv(t, apptest.NewStack(t, "sqlite", apptest.MaxUpload(64<<20)), Deps{Pages: childIsolation()}, "alice")
	pdf := bigPDF(48 << 20)
	e.upload("alice", "kb://me/big/", map[string]string{"big.pdf": string(pdf)})
	pdf = nil

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 16 {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(context.Background(), "GET", e.srv.URL+"/api/v1/resources/page-image?uri=kb://me/big/big.pdf&page=1", nil)
			req.Header.Set("Authorization", "Bearer "+e.tokens["alice"])
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			defer resp.Body.Close()
			var b bytes.Buffer
			b.ReadFrom(resp.Body)
			if resp.StatusCode != 200 || !bytes.HasPrefix(b.Bytes(), []byte("\x89PNG")) {
				errs <- fmt.Sprintf("%d %.200s", resp.StatusCode, b.Bytes())
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 300<<20 {
		t.Fatalf("16 page images of a 48 MB PDF allocated %d MB in the server", alloc>>20)
	} else {
		t.Logf("16 page images of a 48 MB PDF allocated %d MB in the server", alloc>>20)
	}
}

// heldRenderer draws nothing: each call says it started and waits for the
// test to let it go.
type heldRenderer struct {
	started chan string
	release chan struct{}
}

func (r heldRenderer) RenderPage(ctx context.Context, name string, src io.Reader, _ int) (extract.PageImage, error) {
	r.started <- name
	select {
	case <-r.release:
		return extract.PageImage{PNG: []byte("\x89PNG"), Pages: 1}, nil
	case <-ctx.Done():
		return extract.PageImage{}, ctx.Err()
	}
}

// TestPageImageSlotsPerUser: one user asking for many pages at once gets
// half the render slots; another user's page is drawn meanwhile.
func TestPageImageSlotsPerUser(t *testing.T) {
	r := heldRenderer{started: make(chan string, 16), release: make(chan struct{})}
	e, _ := pageEnv(t, r)
	var wg sync.WaitGroup
	// Registered after the server's Close, so it runs first: a failed
	// check must not leave Close waiting on held requests.
	t.Cleanup(func() { close(r.release); wg.Wait() })
	slots := runtime.GOMAXPROCS(0)
	perUser := max(1, slots/2)
	for range perUser + 3 {
		wg.Go(func() { e.getPage("alice", "uri=kb://me/scans/letter.pdf&page=1", nil) })
	}
	for range perUser {
		if got := <-r.started; got != "letter.pdf" {
			t.Fatalf("started %q", got)
		}
	}
	if slots > perUser {
		wg.Go(func() { e.getPage("bob", "uri=kb://me/mine/secret.pdf&page=1", nil) })
		select {
		case got := <-r.started:
			if got != "secret.pdf" {
				t.Fatalf("with alice's pages waiting, the next render was %q, not bob's", got)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("bob's page waited behind alice's")
		}
	}
	select {
	case got := <-r.started:
		t.Fatalf("alice holds more than %d of %d slots: %q started", perUser, slots, got)
	default:
	}
}
