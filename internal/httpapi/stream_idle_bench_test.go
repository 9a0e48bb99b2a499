package httpapi

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/turn"
)

// idleStreams is how many streams BenchmarkIdleStreams holds open.
const idleStreams = 1000

// idlePeerEnv makes the test binary act as the benchmark's peer process.
const idlePeerEnv = "KS_IDLE_STREAM_PEER"

// BenchmarkIdleStreams measures what an idle open stream costs the server:
// 1,000 streams through the real HTTP server, each answered by a fake LLM
// that sends one delta and then holds the connection. The fake LLM and the
// clients run in a child process, so the heap and goroutines measured here
// are the server's alone (its handler, runner and upstream connection).
// The baseline is taken after a first round of streams has run and
// ended, so pools, lazily built state and the heap's first growth are not
// counted as per-stream cost.
// KS_IDLE_HEAP_PROFILE=file writes the in-use heap profile while all
// streams are open, and the goroutine dump to file.goroutines.
func BenchmarkIdleStreams(b *testing.B) {
	// attached: the turn ends with its request (a script's stream);
	// detached: the turn is the server's and the request follows it (the
	// web app's).
	for _, mode := range []string{"attached", "detached"} {
		b.Run(mode, func(b *testing.B) { idleStreamsBench(b, mode == "detached") })
	}
}

// idleHarness is a server whose streams' model answers from a child
// process, which also holds the streams open as a client, so what the
// server measures of itself is the streams' cost alone.
type idleHarness struct {
	tb     testing.TB
	toPeer io.WriteCloser
	lines  *bufio.Scanner
	url    string
	token  string
}

func newIdleHarness(tb testing.TB) *idleHarness {
	peer := exec.Command(os.Args[0], "-test.run=^TestIdleStreamPeer$")
	peer.Env = append(os.Environ(), idlePeerEnv+"=1")
	peer.Stderr = os.Stderr
	toPeer, err := peer.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	fromPeer, err := peer.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := peer.Start(); err != nil {
		tb.Fatal(err)
	}
	h := &idleHarness{tb: tb, toPeer: toPeer, lines: bufio.NewScanner(fromPeer)}
	fakeURL := h.expect("FAKE ")

	stack := apptest.NewStack(tb, store.DialectSQLite)
	reg := apptest.Models(tb, llm.ModelConfig{ID: "fake-text", Profile: "openai-compatible", BaseURL: fakeURL + "/v1",
		APIKey: stFakeKey, Model: "m", ContextWindow: 32768, OutputReserve: 4096})
	chats := &chat.Service{Store: stack.Store, Tree: stack.Tree}
	turns := turn.New(stack.Tree, chats, idleStreams+1)
	// Detached turns end this long after their clients leave, between rounds.
	turns.DetachedTimeout = time.Second
	e := newAPIEnv(tb, stack, Deps{Models: reg, Shutdown: make(chan struct{}),
		Chat: chats, Turns: turns, StreamsPerUser: idleStreams + 1}, "alice")
	h.url, h.token = e.srv.URL, e.tokens["alice"]
	// Before the server's own cleanup, which waits for its streams.
	tb.Cleanup(func() { _ = toPeer.Close(); _ = peer.Wait() })
	return h
}

func (h *idleHarness) expect(prefix string) string {
	h.tb.Helper()
	for h.lines.Scan() {
		if rest, ok := strings.CutPrefix(h.lines.Text(), prefix); ok {
			return rest
		}
	}
	h.tb.Fatalf("peer ended before %q: %v", prefix, h.lines.Err())
	return ""
}

// open opens n streams and returns once each has its first delta.
func (h *idleHarness) open(n int, detach bool) {
	fmt.Fprintf(h.toPeer, "OPEN %s %s %d %t\n", h.url, h.token, n, detach)
	h.expect("IDLE")
}

// close ends the streams and waits until the server has let them go.
func (h *idleHarness) close() {
	fmt.Fprintln(h.toPeer, "CLOSE")
	h.expect("CLOSED")
	waitStreams(h.tb, 0)
}

// TestIdleStreamsHoldOnlyTheirTurns: an idle stream, attached or
// detached, holds its turn's goroutine waiting for the model and nothing
// else: no handler, no read of its connection.
func TestIdleStreamsHoldOnlyTheirTurns(t *testing.T) {
	if os.Getenv(idlePeerEnv) != "" {
		t.Skip("the peer process")
	}
	const n = 100
	h := newIdleHarness(t)
	for _, detach := range []bool{false, true} {
		h.open(1, detach)
		h.close()
		_, g0 := settle()
		h.open(n, detach)
		_, g1 := settle()
		if per := float64(g1-g0) / n; per > 1.1 {
			buf := make([]byte, 1<<20)
			t.Fatalf("detach=%t: %.2f goroutines per idle stream, want 1:\n%s", detach, per, buf[:runtime.Stack(buf, true)])
		} else {
			t.Logf("detach=%t: %.2f goroutines per idle stream", detach, per)
		}
		h.close()
	}
}

func idleStreamsBench(b *testing.B, detach bool) {
	h := newIdleHarness(b)
	for i := 0; i < b.N; i++ {
		// Warm-up: as many streams opened and released as are measured, so
		// the figures are what 1,000 more idle streams cost a server that
		// has served some (KS_IDLE_COLD=1: one, the cost in a fresh process).
		warm := idleStreams
		if os.Getenv("KS_IDLE_COLD") != "" {
			warm = 1
		}
		h.open(warm, detach)
		h.close()
		heap0, g0 := settle()
		rss0 := residentBytes(b)
		debug.FreeOSMemory()
		kept0 := residentBytes(b)

		h.open(idleStreams, detach)
		heap1, g1 := settle()
		rss1 := residentBytes(b)
		debug.FreeOSMemory()
		kept1 := residentBytes(b)
		if path := os.Getenv("KS_IDLE_HEAP_PROFILE"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			_ = pprof.Lookup("heap").WriteTo(f, 0)
			_ = f.Close()
			if f, err = os.Create(path + ".goroutines"); err == nil {
				_ = pprof.Lookup("goroutine").WriteTo(f, 1)
				_ = f.Close()
			}
		}
		b.ReportMetric(float64(int64(heap1.HeapInuse)-int64(heap0.HeapInuse))/idleStreams, "heap-inuse-B/stream")
		b.ReportMetric(float64(int64(heap1.HeapAlloc)-int64(heap0.HeapAlloc))/idleStreams, "heap-alloc-B/stream")
		b.ReportMetric(float64(int64(heap1.StackInuse)-int64(heap0.StackInuse))/idleStreams, "stack-B/stream")
		b.ReportMetric(float64(g1-g0)/idleStreams, "goroutines/stream")
		b.ReportMetric(float64(rss1-rss0)/idleStreams, "rss-B/stream")
		// What stays resident once the runtime has returned the free pages
		// (its scavenger does so over minutes on a server left idle).
		b.ReportMetric(float64(kept1-kept0)/idleStreams, "rss-kept-B/stream")
		h.close()
	}
}

// settle collects garbage until the heap stops shrinking and reads it.
func settle() (runtime.MemStats, int) {
	var m runtime.MemStats
	for i := 0; i < 3; i++ {
		time.Sleep(50 * time.Millisecond)
		runtime.GC()
	}
	runtime.ReadMemStats(&m)
	return m, runtime.NumGoroutine()
}

// residentBytes is the process's resident set (/proc/self/statm): what
// the streams cost the machine, heap, stacks and runtime together.
func residentBytes(b testing.TB) int64 {
	b.Helper()
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skipf("no /proc/self/statm: %v", err)
	}
	f := strings.Fields(string(raw))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// waitStreams waits until the server's stream handlers have all returned.
func waitStreams(b testing.TB, want float64) {
	b.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		mfs, err := observe.Registry().Gather()
		if err != nil {
			b.Fatal(err)
		}
		for _, mf := range mfs {
			if mf.GetName() == "knowspace_streams_active" && mf.GetMetric()[0].GetGauge().GetValue() == want {
				return
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("streams did not close")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestIdleStreamPeer is BenchmarkIdleStreams's child process: it serves the
// fake LLM and opens streams when told. Commands on stdin:
// "OPEN url token n detach" opens n streams and answers IDLE once each has its
// first delta; "CLOSE" ends them and answers CLOSED.
func TestIdleStreamPeer(t *testing.T) {
	if os.Getenv(idlePeerEnv) == "" {
		t.Skip("runs only as BenchmarkIdleStreams's child process")
	}
	fake := fakellm.New(fakellm.Options{})
	fake.SetFunc(func(*fakellm.Request) fakellm.Response {
		return fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("open ")), fakellm.Sleep(time.Hour), fakellm.Done())
	})
	fakeSrv := httptest.NewServer(fake)
	defer fakeSrv.Close()
	fmt.Printf("FAKE %s\n", fakeSrv.URL)
	tr := &http.Transport{MaxIdleConnsPerHost: idleStreams}
	client := &http.Client{Transport: tr}
	in := bufio.NewScanner(os.Stdin)
	var (
		cancel context.CancelFunc = func() {}
		wg     sync.WaitGroup
	)
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch {
		case len(f) == 5 && f[0] == "OPEN":
			n, _ := strconv.Atoi(f[3])
			var ctx context.Context
			ctx, cancel = context.WithCancel(context.Background())
			var idle sync.WaitGroup
			idle.Add(n)
			for s := 0; s < n; s++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					openIdle(ctx, client, f[1], f[2], f[4] == "true", idle.Done)
				}()
			}
			idle.Wait()
			fmt.Println("IDLE")
		case len(f) == 1 && f[0] == "CLOSE":
			cancel()
			wg.Wait()
			fmt.Println("CLOSED")
		}
	}
	cancel()
	wg.Wait()
}

func openIdle(ctx context.Context, client *http.Client, url, token string, detach bool, idle func()) {
	var once sync.Once
	defer once.Do(idle)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url+"/api/v1/knowledge-agent/stream",
		strings.NewReader(fmt.Sprintf(`{"uri":"kb://me/","model_id":"fake-text","message":"hi","detach":%t}`, detach)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open stream:", err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(resp.Body)
		fmt.Fprintf(os.Stderr, "open stream: %d %s\n", resp.StatusCode, body)
		return
	}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"text":"open`) {
			once.Do(idle)
		}
	}
}
