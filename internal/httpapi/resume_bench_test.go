package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkResumeDetached streams a 20,000-delta answer live as a detached
// turn, then reads the same turn again from its start (GET stream/:id,
// Last-Event-ID 0): most of it from the events table, since the journal
// keeps only its last 256 KiB; and streams it attached (no journal, no
// table), the cost of detaching. Each iteration runs all three back to
// back; it reports the rates and the ratios resume ÷ live and detached ÷
// attached of the time taken. With KB_TEST_POSTGRES_DSN it runs on
// PostgreSQL too.
func BenchmarkResumeDetached(b *testing.B) {
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			env := stSetup(b, dialect)
			answer := fakellm.LongAnswer(benchDeltas)
			env.fake.SetFunc(func(*fakellm.Request) fakellm.Response { return answer })
			var live, resumed, attached time.Duration
			for i := 0; i < b.N; i++ {
				plain, err := fakellm.TimeStream(http.DefaultClient, env.srv.URL+"/api/v1/knowledge-agent/stream", env.tokens["alice"],
					`{"uri":"kb://me/","model_id":"fake","message":"hi"}`, `{"text":"w`, true)
				if err != nil || plain.Deltas != benchDeltas {
					b.Fatalf("attached: %d deltas, %v", plain.Deltas, err)
				}
				attached += plain.Whole
				req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/api/v1/knowledge-agent/stream",
					strings.NewReader(`{"uri":"kb://me/","model_id":"fake","message":"hi","detach":true}`))
				req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
				got, first, err := fakellm.TimeRequest(http.DefaultClient, req, `{"text":"w`, true)
				if err != nil || got.Deltas != benchDeltas {
					b.Fatalf("live: %d deltas, %v", got.Deltas, err)
				}
				live += got.Whole
				var start struct {
					MessageID int64 `json:"message_id"`
				}
				if err := json.Unmarshal(first, &start); err != nil || start.MessageID == 0 {
					b.Fatalf("start event %s", first)
				}
				req, _ = http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/knowledge-agent/stream/%d", env.srv.URL, start.MessageID), nil)
				req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
				req.Header.Set("Last-Event-ID", "0")
				again, _, err := fakellm.TimeRequest(http.DefaultClient, req, `{"text":"w`, true)
				if err != nil || again.Deltas != benchDeltas {
					b.Fatalf("resumed: %d deltas, %v", again.Deltas, err)
				}
				resumed += again.Whole
			}
			rate := func(d time.Duration) float64 { return float64(benchDeltas*b.N) / d.Seconds() }
			b.ReportMetric(rate(live), "live-deltas/s")
			b.ReportMetric(rate(resumed), "resume-deltas/s")
			b.ReportMetric(float64(resumed)/float64(live), "resume/live-time")
			b.ReportMetric(rate(attached), "attached-deltas/s")
			b.ReportMetric(float64(live)/float64(attached), "detached/attached-time")
		})
	}
}

// BenchmarkDetachedTurnMemory holds 100 detached turns running with no
// client (the fake LLM pauses mid-answer) and reports heap and goroutines
// per turn, the clients gone.
func BenchmarkDetachedTurnMemory(b *testing.B) {
	const turns = 100
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			env := stSetup(b, dialect, func(d *Deps) { d.StreamsPerUser = turns })
			env.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
				return fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("open ")), fakellm.Sleep(time.Hour), fakellm.Done())
			})
			for i := 0; i < b.N; i++ {
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				goroutines := runtime.NumGoroutine()
				ids := make([]int64, turns)
				var wg sync.WaitGroup
				for n := range turns {
					wg.Add(1)
					go func() {
						defer wg.Done()
						ctx, leave := context.WithCancel(context.Background())
						defer leave()
						req, _ := http.NewRequestWithContext(ctx, http.MethodPost, env.srv.URL+"/api/v1/knowledge-agent/stream",
							strings.NewReader(`{"uri":"kb://me/","model_id":"fake-text","message":"hi","detach":true}`))
						req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
						resp, err := http.DefaultClient.Do(req)
						if err != nil {
							return
						}
						defer resp.Body.Close()
						sc := bufio.NewScanner(resp.Body)
						for sc.Scan() {
							line := sc.Text()
							if i := strings.Index(line, `"message_id":`); i >= 0 {
								fmt.Sscan(line[i+len(`"message_id":`):], &ids[n])
							}
							if strings.Contains(line, `"text":"open`) {
								return // the client leaves; the turn runs on
							}
						}
					}()
				}
				wg.Wait()
				time.Sleep(200 * time.Millisecond) // the handlers return
				runtime.GC()
				var during runtime.MemStats
				runtime.ReadMemStats(&during)
				b.ReportMetric(float64(during.HeapInuse-before.HeapInuse)/turns/1024, "KiB/turn")
				b.ReportMetric(float64(runtime.NumGoroutine()-goroutines)/turns, "goroutines/turn")
				for _, id := range ids {
					req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/v1/knowledge-agent/stream/%d/stop", env.srv.URL, id), nil)
					req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
					if resp, err := http.DefaultClient.Do(req); err == nil {
						resp.Body.Close()
					}
				}
				for _, id := range ids {
					// Following a stopped turn returns once it has ended.
					req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/knowledge-agent/stream/%d", env.srv.URL, id), nil)
					req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
					if resp, err := http.DefaultClient.Do(req); err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}
			}
		})
	}
}
