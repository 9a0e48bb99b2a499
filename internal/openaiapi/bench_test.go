package openaiapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
)

const benchDeltas = 20000

// BenchmarkOpenAIRelay streams the same 20,000-delta scripted answer
// through the native /api/v1/knowledge-agent/stream and through
// /v1/chat/completions, back to back in each iteration so load on a shared
// machine hits both alike; it reports each door's throughput and time to
// first text and the ratio openai ÷ native of the time a whole answer
// takes. The client either decodes every chunk's JSON, as a real one does
// (decode), or only finds the lines (scan), which leaves the servers' cost.
func BenchmarkOpenAIRelay(b *testing.B) {
	for _, decode := range []bool{true, false} {
		name := map[bool]string{true: "decode", false: "scan"}[decode]
		b.Run(name, func(b *testing.B) { benchRelay(b, decode) })
	}
}

func benchRelay(b *testing.B, decode bool) {
	e := newEnv(b, "sqlite", 0)
	answer := fakellm.LongAnswer(benchDeltas)
	e.Fake.SetFunc(func(*fakellm.Request) fakellm.Response { return answer })
	paths := []struct {
		path, body, marker, key string
		elapsed, ttft           time.Duration
		events                  int
	}{
		{path: "/api/v1/knowledge-agent/stream", body: `{"uri":"kb://me/","model_id":"fake","message":"hi","temporary":true}`, marker: `{"text":"w`, key: e.Token},
		{path: "/v1/chat/completions", body: `{"model":"fake","stream":true,"messages":[{"role":"user","content":"hi"}]}`, marker: `"content":"w`, key: e.Key},
	}
	for i := 0; i < b.N; i++ {
		for p := range paths {
			c := &paths[p]
			got, err := fakellm.TimeStream(http.DefaultClient, e.URL+c.path, c.key, c.body, c.marker, decode)
			if err != nil {
				b.Fatal(err)
			}
			if got.Deltas != benchDeltas {
				b.Fatalf("%s: %d deltas, want %d", c.path, got.Deltas, benchDeltas)
			}
			c.elapsed += got.Whole
			c.ttft += got.First
			c.events += got.Events
		}
	}
	native, openai := paths[0], paths[1]
	rate := func(d time.Duration) float64 { return float64(benchDeltas*b.N) / d.Seconds() }
	b.ReportMetric(rate(native.elapsed), "native-deltas/s")
	b.ReportMetric(rate(openai.elapsed), "openai-deltas/s")
	b.ReportMetric(float64(openai.elapsed)/float64(native.elapsed), "openai/native-time")
	b.ReportMetric(float64(native.ttft.Microseconds())/float64(b.N), "native-ttft-µs")
	b.ReportMetric(float64(openai.ttft.Microseconds())/float64(b.N), "openai-ttft-µs")
	// Queued deltas are joined: how many events carried the 20,000.
	b.ReportMetric(float64(native.events)/float64(b.N), "native-events/stream")
	b.ReportMetric(float64(openai.events)/float64(b.N), "openai-events/stream")
}
