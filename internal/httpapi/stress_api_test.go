package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand"
	"mime/multipart"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// stressFor is how long each dialect is hammered; the package's other tests
// run beside it, so it stays short.
const stressFor = 12 * time.Second

// TestStressNothingLost has goroutines of two users upload, replace,
// rename, delete, restore and read a few names with a few contents while
// blobs are collected with no grace. No answer is a 5xx; an upload nobody
// else touched meanwhile reads back with exactly its bytes; afterwards
// fsck finds nothing missing and, after one last sweep, no orphan.
func TestStressNothingLost(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		_, eve := e.newUser("eve")
		contents := []string{"shared by everyone", "second content", "third", "a fourth, longer content ✓"}
		names := []string{"a.txt", "b.txt", "c.md"}
		folders := []string{"kb://me/", "kb://me/d/"}
		users := []string{bob, eve}
		// Mutations started and finished per user: an upload's read-back is
		// checked only when no other mutation of its user was in flight at
		// any point between its start and its read.
		writes := make([]atomic.Int64, len(users))
		finished := make([]atomic.Int64, len(users))

		var fails []string
		var mu sync.Mutex
		fail := func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			if len(fails) < 20 {
				fails = append(fails, fmt.Sprintf(format, args...))
			}
		}
		call := func(method, path, token string, body io.Reader, ct string) (int, []byte) {
			req, _ := http.NewRequest(method, e.URL+path, body)
			if ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := e.client.Do(req)
			if err != nil {
				fail("%s %s: %v", method, path, err)
				return 0, nil
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode >= 500 {
				fail("%s %s: %d %s", method, path, res.StatusCode, b)
			}
			return res.StatusCode, b
		}
		// trashOp restores or purges one of the user's trash items.
		trashOp := func(tok string, rng *rand.Rand) {
			code, b := call("GET", "/api/v1/trash", tok, nil, "")
			var tr struct {
				Items []trashJSON `json:"items"`
			}
			if code != 200 {
				return
			}
			resp{Status: code, Body: b}.Decode(t, &tr)
			if len(tr.Items) == 0 {
				return
			}
			id := tr.Items[rng.Intn(len(tr.Items))].ID
			if rng.Intn(3) == 0 {
				call("DELETE", fmt.Sprint("/api/v1/trash/", id), tok, nil, "")
			} else {
				call("POST", "/api/v1/trash/restore", tok, bytes.NewReader([]byte(fmt.Sprintf(`{"id":%d}`, id))), "application/json")
			}
		}
		deadline := time.Now().Add(stressFor)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewSource(int64(g)))
				ui := g % len(users)
				tok := users[ui]
				for time.Now().Before(deadline) {
					folder := folders[rng.Intn(len(folders))]
					uri := folder + names[rng.Intn(len(names))]
					switch op := rng.Intn(10); {
					case op < 4: // upload, then read back
						content := contents[rng.Intn(len(contents))]
						mode := []string{"replace", "fail", "rename"}[rng.Intn(3)]
						var buf bytes.Buffer
						mw := multipart.NewWriter(&buf)
						w, _ := mw.CreateFormFile("file", uri[len(folder):])
						w.Write([]byte(content))
						mw.Close()
						if folder != "kb://me/" {
							call("POST", "/api/v1/resources/folders", tok, bytes.NewReader([]byte(`{"uri":"`+folder+`"}`)), "application/json")
						}
						before := writes[ui].Add(1)
						quiet := finished[ui].Load() == before-1
						code, b := call("POST", "/api/v1/resources/upload?on_conflict="+mode+"&uri="+url.QueryEscape(folder), tok, &buf, mw.FormDataContentType())
						if code != 201 {
							finished[ui].Add(1)
							continue
						}
						var out struct {
							Items []itemJSON `json:"items"`
						}
						resp{Status: code, Body: b}.Decode(t, &out)
						rc, got := call("GET", q("/api/v1/resources/raw", out.Items[0].URI), tok, nil, "")
						if quiet && writes[ui].Load() == before && (rc != 200 || string(got) != content) {
							fail("upload of %s answered 201, then read %d %q, want %q", out.Items[0].URI, rc, got, content)
						}
						finished[ui].Add(1)
					case op < 5:
						writes[ui].Add(1)
						to := folders[rng.Intn(len(folders))] + names[rng.Intn(len(names))]
						b := fmt.Sprintf(`{"uri":%q,"new_uri":%q}`, uri, to)
						call("PATCH", "/api/v1/resources", tok, bytes.NewReader([]byte(b)), "application/json")
						finished[ui].Add(1)
					case op < 6:
						writes[ui].Add(1)
						target := uri
						if rng.Intn(4) == 0 {
							target = folder
						}
						call("DELETE", q("/api/v1/resources", target), tok, nil, "")
						finished[ui].Add(1)
					case op < 7:
						writes[ui].Add(1)
						trashOp(tok, rng)
						finished[ui].Add(1)
					case op < 9:
						if code, b := call("GET", q("/api/v1/resources/raw", uri), tok, nil, ""); code == 200 && !oneOf(string(b), contents) {
							fail("read %s: bytes no upload stored: %q", uri, b)
						}
						call("GET", q("/api/v1/resources/content", uri), tok, nil, "")
						call("GET", q("/api/v1/resources", folder), tok, nil, "")
					default:
						if _, err := e.Tree.SweepBlobs(context.Background(), 0); err != nil {
							fail("sweep: %v", err)
						}
					}
				}
			}()
		}
		wg.Wait()
		for _, f := range fails {
			t.Error(f)
		}
		if _, err := e.Tree.SweepBlobs(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
		rep, err := e.Tree.Fsck(context.Background())
		if err != nil || rep.Damaged() || len(rep.Orphans) != 0 {
			t.Fatalf("fsck after the run: %+v %v", rep, err)
		}
		if rep.Referenced == 0 {
			t.Fatal("fsck saw no referenced blobs: the run stored nothing")
		}
	})
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}
