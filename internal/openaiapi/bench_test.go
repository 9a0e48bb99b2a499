package openaiapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
)

const benchDeltas = 20000

func benchAnswer(n int) fakellm.Response {
	steps := []fakellm.Step{fakellm.Data(fakellm.RoleChunk())}
	for i := 0; i < n; i++ {
		steps = append(steps, fakellm.Data(fakellm.TextChunk(fmt.Sprintf("w%d ", i%10))))
	}
	steps = append(steps, fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Data(fakellm.UsageChunk(10, n)), fakellm.Done())
	return fakellm.Stream(steps...)
}

// countText reads an SSE body as a client does, decoding every data line's
// JSON, and counts the lines carrying answer text.
func countText(b *testing.B, resp *http.Response, start time.Time, marker string, decode bool) (int, time.Duration) {
	b.Helper()
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	var first time.Duration
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("data: ")) || bytes.Equal(line, []byte("data: [DONE]")) {
			continue
		}
		if decode {
			var v map[string]any
			if err := json.Unmarshal(line[len("data: "):], &v); err != nil {
				b.Fatalf("bad JSON: %v", err)
			}
		}
		if bytes.Contains(line, []byte(marker)) {
			if n == 0 {
				first = time.Since(start)
			}
			n++
		}
	}
	return n, first
}

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
	answer := benchAnswer(benchDeltas)
	e.Fake.SetFunc(func(*fakellm.Request) fakellm.Response { return answer })
	paths := []struct {
		path, body, marker, key string
		elapsed, ttft           time.Duration
	}{
		{path: "/api/v1/knowledge-agent/stream", body: `{"uri":"kb://me/","model_id":"fake","message":"hi","temporary":true}`, marker: `{"text":"w`, key: e.Token},
		{path: "/v1/chat/completions", body: `{"model":"fake","stream":true,"messages":[{"role":"user","content":"hi"}]}`, marker: `"content":"w`, key: e.Key},
	}
	for i := 0; i < b.N; i++ {
		for p := range paths {
			c := &paths[p]
			req, _ := http.NewRequest(http.MethodPost, e.URL+c.path, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+c.key)
			start := time.Now()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			n, first := countText(b, resp, start, c.marker, decode)
			if n != benchDeltas {
				b.Fatalf("%s: %d deltas, want %d", c.path, n, benchDeltas)
			}
			c.elapsed += time.Since(start)
			c.ttft += first
		}
	}
	native, openai := paths[0], paths[1]
	rate := func(d time.Duration) float64 { return float64(benchDeltas*b.N) / d.Seconds() }
	b.ReportMetric(rate(native.elapsed), "native-deltas/s")
	b.ReportMetric(rate(openai.elapsed), "openai-deltas/s")
	b.ReportMetric(float64(openai.elapsed)/float64(native.elapsed), "openai/native-time")
	b.ReportMetric(float64(native.ttft.Microseconds())/float64(b.N), "native-ttft-µs")
	b.ReportMetric(float64(openai.ttft.Microseconds())/float64(b.N), "openai-ttft-µs")
}
