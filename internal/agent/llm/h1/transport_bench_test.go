package h1

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkTransport runs the same exchanges through h1 and through
// net/http's Transport, alternating in each iteration so load hits both
// alike: 200 small requests on a kept-alive connection (a model's tool
// loop), and one 8 MB chunked body read in 4 KiB pieces (a fast model's
// stream). It reports each one's time and the ratio h1 ÷ net/http.
func BenchmarkTransport(b *testing.B) {
	big := strings.Repeat("data: {\"choices\":[{\"delta\":{\"content\":\"tok \"}}]}\n\n", 8<<20/52)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path == "/big" {
			for i := 0; i < len(big); i += 32 << 10 {
				_, _ = io.WriteString(w, big[i:min(i+32<<10, len(big))])
				w.(http.Flusher).Flush()
			}
			return
		}
		_, _ = io.WriteString(w, `{"ok":true}`)
	}))
	defer srv.Close()
	clients := []*http.Client{
		{Transport: &Transport{BufSize: 1 << 10}},
		{Transport: &http.Transport{ReadBufferSize: 1 << 10, WriteBufferSize: 1 << 10}},
	}
	var small, stream [2]time.Duration
	buf := make([]byte, 4<<10)
	for b.Loop() {
		for i, c := range clients {
			start := time.Now()
			for range 200 {
				resp, err := c.Post(srv.URL+"/small", "application/json", strings.NewReader(`{"q":1}`))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			small[i] += time.Since(start)
			start = time.Now()
			resp, err := c.Get(srv.URL + "/big")
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{resp.Body}, buf)
			resp.Body.Close()
			if err != nil || n != int64(len(big)) {
				b.Fatalf("read %d of %d: %v", n, len(big), err)
			}
			stream[i] += time.Since(start)
		}
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(b.N) }
	b.ReportMetric(per(small[0]), "h1-200-requests-µs")
	b.ReportMetric(per(small[1]), "nethttp-200-requests-µs")
	b.ReportMetric(float64(small[0])/float64(small[1]), "requests-ratio")
	b.ReportMetric(per(stream[0]), "h1-8MB-µs")
	b.ReportMetric(per(stream[1]), "nethttp-8MB-µs")
	b.ReportMetric(float64(stream[0])/float64(stream[1]), "stream-ratio")
}
