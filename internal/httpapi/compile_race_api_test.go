package httpapi

import (
	"context"
	"fmt"
	"math/rand"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

// raceFiles is how many files are each deleted while compiles of them are
// asked for and run.
const raceFiles = 40

// raceJob is a job as the race test reads it: its end and the reason.
type raceJob struct {
	ID    int64  `json:"id"`
	URI   string `json:"uri"`
	State string `json:"state"`
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestCompileRacingDeletes deletes 40 files while two clients per file keep
// asking to compile it and workers run the jobs. No request answers 5xx: a
// file deleted during a request is listed in rejected. No job ends in an
// internal failure: each succeeded, or was cancelled or failed as
// source_missing with a reason that names the deletion.
func TestCompileRacingDeletes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := cmpNewEnv(t, dialect)
		files := map[string]string{}
		for i := range raceFiles {
			files[fmt.Sprintf("f%02d.md", i)] = fmt.Sprintf("file %d\n\nsome text to summarize", i)
		}
		e.upload("alice", "kb://me/race/", files)
		pool := e.svc.Start(4)
		defer pool.Stop(context.Background())

		var (
			mu       sync.Mutex
			problems []string
			jobs     = map[int64]bool{}
			requests int
			failed   int // requests answered 5xx
		)
		problem := func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			problems = append(problems, fmt.Sprintf(format, args...))
		}
		var wg sync.WaitGroup
		for i := range raceFiles {
			uri := fmt.Sprintf("kb://me/race/f%02d.md", i)
			deleted := make(chan struct{})
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for gone := false; !gone; {
						select {
						case <-deleted:
							gone = true // one more request after the delete
						default:
						}
						code, b := e.do("POST", "/knowledge-agent/compile", "alice", map[string]any{"uris": []string{uri}, "model_id": "fake"})
						mu.Lock()
						requests++
						if code >= 500 {
							failed++
						}
						mu.Unlock()
						if code != 200 {
							problem("compile %s: %d %s", uri, code, b)
							continue
						}
						res := cmpDecode[cmpEnqueue](t, b)
						switch {
						case len(res.Jobs) == 1 && len(res.Rejected) == 0:
							mu.Lock()
							jobs[res.Jobs[0].ID] = true
							mu.Unlock()
						case len(res.Jobs) == 0 && len(res.Rejected) == 1 && res.Rejected[0].Code == "not_visible":
							return
						default:
							problem("compile %s answered %s", uri, b)
							return
						}
					}
				}()
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer close(deleted)
				time.Sleep(time.Duration(rand.Intn(200)) * time.Millisecond)
				if code, b := e.do("DELETE", "/resources?uri="+url.QueryEscape(uri), "alice", nil); code != 204 {
					problem("delete %s: %d %s", uri, code, b)
				}
			}()
		}
		wg.Wait()

		ends := map[string]int{}
		deadline := time.Now().Add(30 * time.Second)
		for id := range jobs {
			var j raceJob
			for {
				code, b := e.do("GET", fmt.Sprintf("/jobs/%d", id), "alice", nil)
				if code != 200 {
					t.Fatalf("job %d: %d %s", id, code, b)
				}
				j = cmpDecode[raceJob](t, b)
				if j.State != "queued" && j.State != "running" || time.Now().After(deadline) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			end := j.State
			if j.Error != nil {
				end += ": " + j.Error.Code
				if j.State == "cancelled" {
					end += " (" + j.Error.Message + ")"
				}
			}
			ends[end]++
			switch {
			case j.State == "succeeded":
			case j.State == "cancelled" && j.Error != nil && j.Error.Code == "cancelled" && strings.Contains(j.Error.Message, "deleted"):
			case j.State == "failed" && j.Error != nil && j.Error.Code == "source_missing":
			default:
				problem("job %d of %s ended %s %+v", id, j.URI, j.State, j.Error)
			}
		}
		var summary []string
		for end, n := range ends {
			summary = append(summary, fmt.Sprintf("%s ×%d", end, n))
		}
		sort.Strings(summary)
		t.Logf("%s: %d compile requests, %d answered 5xx; %d jobs: %s", dialect, requests, failed, len(jobs), strings.Join(summary, ", "))
		if len(problems) > 0 {
			sort.Strings(problems)
			t.Fatalf("%d problems, first: %s", len(problems), strings.Join(problems[:min(len(problems), 5)], "\n"))
		}
	})
}
