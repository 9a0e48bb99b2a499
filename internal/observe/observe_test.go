package observe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestLabelValuesAreBounded(t *testing.T) {
	for in, want := range map[string]string{
		"ls": "ls", "llm_rate_limited": "llm_rate_limited", "deepseek-chat": "deepseek-chat", "qwen/qwen3:8b": "qwen/qwen3:8b",
		"": "none", "rm -rf /": "other", "名字": "other", strings.Repeat("a", 65): "other", "a\nb": "other",
	} {
		if got := bounded(in); got != want {
			t.Errorf("bounded(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHTTPRequestCollapsesOddMethodsAndStatuses(t *testing.T) {
	HTTPRequest("/t/odd", "BREW", 999, time.Millisecond)
	HTTPRequest("/t/odd", "get", 42, time.Millisecond)
	text := scrape(t)
	if !strings.Contains(text, `knowspace_http_requests_total{method="OTHER",route="/t/odd",status="0"} 2`) {
		t.Fatalf("odd method and status not collapsed:\n%s", grep(text, "knowspace_http_requests_total"))
	}
}

func TestSourcesAreReadAtScrapeAndFailuresLeftOut(t *testing.T) {
	t.Cleanup(func() { SetSources(Sources{}) })
	SetSources(Sources{
		BlobBytes: func(context.Context) (int64, error) { return 1234, nil },
		JobStates: func(context.Context) (map[string]int64, error) { return nil, errors.New("database gone") },
	})
	text := scrape(t)
	if !strings.Contains(text, "knowspace_blob_bytes 1234\n") {
		t.Fatalf("blob bytes missing:\n%s", grep(text, "knowspace_blob"))
	}
	if strings.Contains(text, "knowspace_compile_jobs{") {
		t.Fatalf("a failed source was reported:\n%s", grep(text, "knowspace_compile_jobs"))
	}
	SetSources(Sources{JobStates: func(context.Context) (map[string]int64, error) {
		return map[string]int64{"queued": 3, "running": 1}, nil
	}})
	text = scrape(t)
	if !strings.Contains(text, `knowspace_compile_jobs{state="queued"} 3`) || strings.Contains(text, "knowspace_blob_bytes ") {
		t.Fatalf("after the swap:\n%s", grep(text, "knowspace_"))
	}
}

func TestListenEmptyIsOffAndABadAddressIsAnError(t *testing.T) {
	if m, err := Listen(""); m != nil || err != nil {
		t.Fatalf("empty: %v %v", m, err)
	}
	m, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(m.Addr()); err == nil || !strings.Contains(err.Error(), "metrics_listen") {
		t.Fatalf("a taken port: %v", err)
	}
	res, err := http.Get("http://" + m.Addr() + "/other")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("only /metrics is served; /other answered %d", res.StatusCode)
	}
	if err := m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestLogHandlers(t *testing.T) {
	var buf bytes.Buffer
	h, err := NewLogHandler(LogJSON, slog.LevelInfo, &buf)
	if err != nil {
		t.Fatal(err)
	}
	slog.New(h).Debug("hidden")
	slog.New(h).Info("shown", "k", 1)
	var rec map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil || rec["msg"] != "shown" || rec["k"] != float64(1) {
		t.Fatalf("json line %q: %v", buf.String(), err)
	}
	buf.Reset()
	h, _ = NewLogHandler(LogText, slog.LevelDebug, &buf)
	slog.New(h).Debug("plain", "k", 2)
	if !strings.Contains(buf.String(), "msg=plain k=2") {
		t.Fatalf("text line %q", buf.String())
	}
	if _, err := NewLogHandler("xml", slog.LevelInfo, io.Discard); err == nil {
		t.Fatal("xml accepted")
	}
	if _, err := ParseLevel("loud"); err == nil {
		t.Fatal("level loud accepted")
	}
}

func scrape(t *testing.T) string {
	t.Helper()
	m, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	res, err := http.Get("http://" + m.Addr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

func grep(text, prefix string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
