package dav_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// The race's size: enough writes that many land while their folder moves,
// few enough for two shared cores.
const (
	racePutters   = 4
	racePutsEach  = 40
	raceUploads   = 40
	raceFileNames = 4
)

// write is one answered write: its status and the sha256 of its bytes,
// which no other write of the race repeats.
type write struct {
	status int
	hash   string
}

// tally counts answers against what the store holds.
type tally struct {
	ok, okMissing, failed, failedStored int
	failedStatuses                      map[int]int
}

func (t tally) String() string {
	var codes []string
	for c, n := range t.failedStatuses {
		codes = append(codes, fmt.Sprintf("%d×%d", n, c))
	}
	sort.Strings(codes)
	return fmt.Sprintf("%d answered success (%d of them not stored), %d answered failure [%s] (%d of them stored)",
		t.ok, t.okMissing, t.failed, strings.Join(codes, " "), t.failedStored)
}

func tallyOf(ws []write, stored map[string]bool) tally {
	t := tally{failedStatuses: map[int]int{}}
	for _, w := range ws {
		if w.status >= 200 && w.status < 300 {
			t.ok++
			if !stored[w.hash] {
				t.okMissing++
			}
			continue
		}
		t.failed++
		t.failedStatuses[w.status]++
		if stored[w.hash] {
			t.failedStored++
		}
	}
	return t
}

// TestWritesRacingMoves races WebDAV PUTs and REST uploads into a folder
// with REST moves of that folder back and forth and REST deletes of its
// files. A write answered success must be stored (at the folder's path
// then, as a current or earlier version, or in the trash), one answered
// failure must be stored nowhere, and every answered move and delete must
// have taken effect.
func TestWritesRacingMoves(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		if got := e.status(req{method: "MKCOL", path: "/dav/race/"}); got != http.StatusCreated {
			t.Fatalf("MKCOL: %d", got)
		}
		folders := [2]string{"race", "race2"}
		var (
			mu               sync.Mutex
			puts, uploads    []write
			movesOK, movesNo int
			deletesOK        int
			transport        atomic.Value // the first transport error, if any
			at               atomic.Int32 // which of folders the folder is at, after the last answered move
			writers          sync.WaitGroup
			racers           sync.WaitGroup
			done             = make(chan struct{})
		)
		send := func(r *http.Request) int {
			res, err := http.DefaultClient.Do(r)
			if err != nil {
				transport.CompareAndSwap(nil, err.Error())
				return 0
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return res.StatusCode
		}
		rest := func(method, path string, body io.Reader, contentType string) int {
			r, _ := http.NewRequest(method, e.url+"/api/v1"+path, body)
			r.Header.Set("Authorization", "Bearer "+e.session)
			if contentType != "" {
				r.Header.Set("Content-Type", contentType)
			}
			return send(r)
		}
		record := func(list *[]write, status int, body []byte) {
			sum := sha256.Sum256(body)
			mu.Lock()
			*list = append(*list, write{status, hex.EncodeToString(sum[:])})
			mu.Unlock()
		}

		for p := range racePutters {
			writers.Add(1)
			go func() {
				defer writers.Done()
				for i := range racePutsEach {
					body := []byte(fmt.Sprintf("dav put %d.%d of %s", p, i, t.Name()))
					r, _ := http.NewRequest("PUT", fmt.Sprintf("%s/dav/%s/f%d.md", e.url, folders[at.Load()], i%raceFileNames), bytes.NewReader(body))
					r.SetBasicAuth("alice", e.aliceKey)
					record(&puts, send(r), body)
				}
			}()
		}
		writers.Add(1)
		go func() {
			defer writers.Done()
			for i := range raceUploads {
				body := []byte(fmt.Sprintf("rest upload %d of %s", i, t.Name()))
				var form bytes.Buffer
				mw := multipart.NewWriter(&form)
				fw, _ := mw.CreateFormFile("file", fmt.Sprintf("u%d.md", i%raceFileNames))
				_, _ = fw.Write(body)
				mw.Close()
				status := rest("POST", "/resources/upload?on_conflict=replace&uri="+url.QueryEscape("kb://me/"+folders[at.Load()]+"/"), &form, mw.FormDataContentType())
				record(&uploads, status, body)
			}
		}()
		racers.Add(2)
		go func() {
			defer racers.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				from := at.Load()
				b, _ := json.Marshal(map[string]string{"uri": "kb://me/" + folders[from] + "/", "new_uri": "kb://me/" + folders[1-from] + "/"})
				if rest("PATCH", "/resources", bytes.NewReader(b), "application/json") == http.StatusOK {
					movesOK++
					at.Store(1 - from)
				} else {
					movesNo++
				}
			}
		}()
		go func() {
			defer racers.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				name := []string{"f", "u"}[i%2] + fmt.Sprint(i/2%raceFileNames) + ".md"
				uri := "kb://me/" + folders[at.Load()] + "/" + name
				if rest("DELETE", "/resources?uri="+url.QueryEscape(uri), nil, "") == http.StatusNoContent {
					deletesOK++
				}
			}
		}()
		writers.Wait()
		close(done)
		racers.Wait()
		if err := transport.Load(); err != nil {
			t.Fatalf("a request failed in transport: %v", err)
		}

		ctx := context.Background()
		hashes, err := e.st.ReferencedBlobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		stored := make(map[string]bool, len(hashes))
		for _, h := range hashes {
			stored[h] = true
		}
		pt, ut := tallyOf(puts, stored), tallyOf(uploads, stored)
		trash, err := e.st.ListTrash(ctx, e.alice.ID)
		if err != nil {
			t.Fatal(err)
		}
		last := folders[movesOK%2]
		_, errAt := e.tree.Stat(ctx, e.alice, "kb://me/"+last+"/")
		_, errOther := e.tree.Stat(ctx, e.alice, "kb://me/"+folders[1-movesOK%2]+"/")
		summary := fmt.Sprintf("WebDAV PUTs: %v; REST uploads: %v; moves: %d answered success, %d failure, folder at %s: %v, other: %v; deletes: %d answered success, %d in the trash",
			pt, ut, movesOK, movesNo, last, errAt == nil, errOther == nil, deletesOK, len(trash))
		t.Log(summary)
		if pt.okMissing+pt.failedStored+ut.okMissing+ut.failedStored > 0 || errAt != nil || errOther == nil || deletesOK != len(trash) {
			t.Fatal("an answer disagrees with the store: " + summary)
		}
		if pt.ok == 0 || pt.failed == 0 || movesOK == 0 || deletesOK == 0 {
			t.Fatal("the race did not race: " + summary)
		}
	})
}
