package httpapi

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/observe"
)

// obsMetrics is one scrape: each sample line by its series text.
type obsMetrics map[string]float64

// obsScrape reads GET /metrics from the metrics listener at addr.
func obsScrape(t *testing.T, addr string) obsMetrics {
	t.Helper()
	res, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("scrape: %d %s %.300s", res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	out := obsMetrics{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("sample %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// get sums the samples of name whose labels include every k=v given.
func (m obsMetrics) get(name string, kv ...string) float64 {
	sum := 0.0
	for series, v := range m {
		base, labels, _ := strings.Cut(series, "{")
		if base != name {
			continue
		}
		match := true
		for i := 0; i+1 < len(kv); i += 2 {
			if !strings.Contains(labels, kv[i]+`="`+kv[i+1]+`"`) {
				match = false
				break
			}
		}
		if match {
			sum += v
		}
	}
	return sum
}

// obsMetricsListener serves /metrics on a free loopback port, as the
// server does on metrics_listen.
func obsMetricsListener(t *testing.T) string {
	t.Helper()
	m, err := observe.Listen("127.0.0.1:0")
	if err != nil || m == nil {
		t.Fatalf("metrics listener: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		m.Close(ctx)
	})
	return m.Addr()
}
