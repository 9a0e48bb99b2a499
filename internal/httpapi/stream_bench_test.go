package httpapi

import (
	"bufio"
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

const benchDeltas = 20000

// BenchmarkStreamRelay streams a 20,000-delta answer directly from the fake
// LLM and through /knowledge-agent/stream. Each iteration runs both paths
// back to back, so load on a shared machine hits them alike; it reports the
// throughput and time to first delta of each and the ratio server ÷ direct.
func BenchmarkStreamRelay(b *testing.B) {
	env := stSetup(b, store.DialectSQLite)
	answer := fakellm.LongAnswer(benchDeltas)
	env.fake.SetFunc(func(*fakellm.Request) fakellm.Response { return answer })
	paths := []struct {
		url, body, marker, token string
		elapsed, ttfd            time.Duration
	}{
		{url: env.fakeURL + "/v1/chat/completions", body: `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, marker: `"content":"w`},
		{url: env.srv.URL + "/api/v1/knowledge-agent/stream", body: `{"uri":"kb://me/","model_id":"fake","message":"hi"}`, marker: `{"text":"w`, token: env.tokens["alice"]},
	}
	for i := 0; i < b.N; i++ {
		for p := range paths {
			c := &paths[p]
			got, err := fakellm.TimeStream(http.DefaultClient, c.url, c.token, c.body, c.marker, true)
			if err != nil {
				b.Fatal(err)
			}
			if got.Deltas != benchDeltas {
				b.Fatalf("%d deltas, want %d", got.Deltas, benchDeltas)
			}
			c.elapsed += got.Whole
			c.ttfd += got.First
		}
	}
	direct, server := paths[0], paths[1]
	rate := func(d time.Duration) float64 { return float64(benchDeltas*b.N) / d.Seconds() }
	b.ReportMetric(rate(direct.elapsed), "direct-deltas/s")
	b.ReportMetric(rate(server.elapsed), "server-deltas/s")
	b.ReportMetric(rate(server.elapsed)/rate(direct.elapsed), "throughput-ratio")
	b.ReportMetric(float64(direct.ttfd.Microseconds())/float64(b.N), "direct-ttfd-µs")
	b.ReportMetric(float64(server.ttfd.Microseconds())/float64(b.N), "server-ttfd-µs")
}

// BenchmarkFirstDelta measures time to first delta when the provider is
// not flooding the machine: the fake sends one delta, pauses as a model
// does, then ends. Direct and server paths alternate in each iteration.
func BenchmarkFirstDelta(b *testing.B) {
	env := stSetup(b, store.DialectSQLite)
	answer := fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("w0 ")),
		fakellm.Sleep(5*time.Millisecond), fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done())
	env.fake.SetFunc(func(*fakellm.Request) fakellm.Response { return answer })
	var direct, server time.Duration
	for i := 0; i < b.N; i++ {
		for _, c := range []struct {
			url, body, marker, token string
			into                     *time.Duration
		}{
			{env.fakeURL + "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`, `"content":"w`, "", &direct},
			{env.srv.URL + "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`, `{"text":"w`, env.tokens["alice"], &server},
		} {
			got, err := fakellm.TimeStream(http.DefaultClient, c.url, c.token, c.body, c.marker, true)
			if err != nil {
				b.Fatal(err)
			}
			if got.Deltas != 1 {
				b.Fatalf("%d deltas", got.Deltas)
			}
			*c.into += got.First
		}
	}
	b.ReportMetric(float64(direct.Microseconds())/float64(b.N), "direct-ttfd-µs")
	b.ReportMetric(float64(server.Microseconds())/float64(b.N), "server-ttfd-µs")
	b.ReportMetric(float64(server)/float64(direct), "ttfd-ratio")
}

// BenchmarkConcurrentStreams holds 200 streams open at once (the fake LLM
// pauses mid-answer) and reports heap per open stream.
func BenchmarkConcurrentStreams(b *testing.B) {
	const streams = 200
	env := stSetup(b, store.DialectSQLite)
	env.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
		return fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("open ")), fakellm.Sleep(time.Hour), fakellm.Done())
	})
	tr := &http.Transport{MaxIdleConnsPerHost: streams, MaxConnsPerHost: 0}
	client := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		var opened sync.WaitGroup
		opened.Add(streams)
		for s := 0; s < streams; s++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, env.srv.URL+"/api/v1/knowledge-agent/stream",
					strings.NewReader(`{"uri":"kb://me/","model_id":"fake-text","message":"hi"}`))
				req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
				resp, err := client.Do(req)
				if err != nil {
					opened.Done()
					return
				}
				defer resp.Body.Close()
				sc := bufio.NewScanner(resp.Body)
				seen := false
				for sc.Scan() {
					if !seen && strings.Contains(sc.Text(), `"text":"open`) {
						seen = true
						opened.Done()
					}
				}
				if !seen {
					opened.Done()
				}
			}()
		}
		opened.Wait()
		runtime.GC()
		var during runtime.MemStats
		runtime.ReadMemStats(&during)
		b.ReportMetric(float64(during.HeapInuse-before.HeapInuse)/streams/1024, "KiB/stream")
		b.ReportMetric(float64(runtime.NumGoroutine())/streams, "goroutines/stream")
		cancel()
		wg.Wait()
	}
}
