package compile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

// hang is a response that starts a summary and then stalls.
func hang() fakellm.Response {
	return fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("partial")),
		fakellm.Sleep(30*time.Second), fakellm.Done())
}

func TestCancelMidSummaryPublishesNothing(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a")})
		e.fake.Push(hang())
		j := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
		e.start(1)
		deadline := time.Now().Add(10 * time.Second)
		for e.chatCount() == 0 && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		running, _ := e.svc.Job(context.Background(), e.alice, j.ID)
		if running.State != store.JobRunning || running.Stage != StageSummarize {
			t.Fatalf("before cancel: %s/%s", running.State, running.Stage)
		}
		start := time.Now()
		if _, err := e.svc.Cancel(context.Background(), e.alice, j.ID); err != nil {
			t.Fatal(err)
		}
		done := e.wait(e.alice, j.ID, store.JobCancelled)
		if time.Since(start) > 3*time.Second || done.Error == nil || done.Error.Code != "cancelled" {
			t.Fatalf("cancel took %v: %+v", time.Since(start), done)
		}
		if e.exists(e.alice, "kb://me/wiki/d/a.md") {
			t.Fatal("a cancelled job published its summary")
		}
		select {
		case <-e.fake.Aborted():
		case <-time.After(5 * time.Second):
			t.Fatal("the upstream request was not cancelled")
		}
		// A cancelled job can be retried and then succeeds.
		if _, err := e.svc.Retry(context.Background(), e.alice, j.ID); err != nil {
			t.Fatal(err)
		}
		e.wait(e.alice, j.ID, store.JobSucceeded)
		if _, err := e.svc.Cancel(context.Background(), e.alice, j.ID); err == nil {
			t.Fatal("cancel of a finished job succeeded")
		}
	})
}

func TestCrashedWorkerLeaseExpiryCompletesOnce(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		// The live workers' lease is long enough that a loaded machine
		// (race detector, load 12 seen) cannot let it lapse, which made a
		// third attempt; only the crashed claim's short lease expires.
		e := newEnv(t, dialect, func(o *Options) { o.Lease = 5 * time.Second })
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a")})
		j := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
		// A worker claims the job and dies without a word.
		if _, err := e.st.ClaimJob(context.Background(), "crashed", 100*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		e.start(2)
		done := e.wait(e.alice, j.ID, store.JobSucceeded, store.JobFailed)
		if done.State != store.JobSucceeded || done.Attempts != 2 {
			t.Fatalf("%+v %+v", done, done.Error)
		}
		if err := e.st.CompleteJob(context.Background(), j.ID, "crashed", "{}"); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("crashed worker's late completion: %v", err)
		}
		summaries := 0
		for _, r := range e.fake.Requests() {
			if r.Chat == nil {
				continue
			}
			if _, q := r.Chat.LastUser(); strings.HasPrefix(q, "Summarize the document") {
				summaries++
			}
		}
		if summaries != 1 {
			t.Fatalf("%d summary calls, want exactly 1", summaries)
		}
	})
}

func TestTwoPoolsNeverRunOneJobTwice(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		// Claims are what this test is about: a lease long enough that a
		// loaded CI machine cannot let one expire, so a second attempt can
		// only come from a double claim.
		e := newEnv(t, dialect, func(o *Options) { o.Extraction = nil; o.Lease = 20 * time.Second })
		var mu sync.Mutex
		calls := map[string]int{}
		e.fake.SetFunc(func(r *fakellm.Request) fakellm.Response {
			_, q := r.Chat.LastUser()
			line := firstLine(q)
			mu.Lock()
			calls[line]++
			mu.Unlock()
			return fakellm.TextStream("ok: ", line)
		})
		var ids []int64
		for f := range 2 {
			files := map[string][]byte{}
			var uris []string
			for i := range 30 {
				files[fmt.Sprintf("n%02d.md", i)] = []byte(fmt.Sprintf("file %d of %d", i, f))
				uris = append(uris, fmt.Sprintf("kb://me/f%d/n%02d.md", f, i))
			}
			e.put(e.alice, fmt.Sprintf("kb://me/f%d/", f), files)
			for _, j := range e.enqueue(e.alice, Request{URIs: uris}).Jobs {
				ids = append(ids, j.ID)
			}
		}
		// Two services over one database stand for two replicas.
		other := New(e.opts)
		p2 := other.Start(3)
		defer p2.Stop(context.Background())
		e.start(3)
		for _, id := range ids {
			if j := e.wait(e.alice, id, store.JobSucceeded, store.JobFailed); j.State != store.JobSucceeded || j.Attempts != 1 {
				t.Fatalf("job %d: %s attempts %d %+v", id, j.State, j.Attempts, j.Error)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for line, c := range calls {
			if strings.HasPrefix(line, "Summarize the document") {
				n++
				if c != 1 {
					t.Errorf("%s summarized %d times", line, c)
				}
			}
		}
		if n != 60 {
			t.Fatalf("%d files summarized, want 60", n)
		}
		for f := range 2 {
			ov := e.read(e.alice, fmt.Sprintf("kb://me/wiki/f%d/.overview.md", f))
			if strings.Count(ov, "  - uri:") != 30 {
				t.Fatalf("overview of f%d covers %d summaries", f, strings.Count(ov, "  - uri:"))
			}
		}
	})
}

func TestFailuresAreClassified(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		// Parsing in-process keeps the 1 s timeout case about the model: a
		// child process can take that long to start on a loaded machine.
		e := newEnv(t, dialect, func(o *Options) { o.Defaults.MaxAttempts = 2; o.Extraction = nil })
		e.start(1)
		run := func(name string, content []byte, r Request) JobView {
			t.Helper()
			e.put(e.alice, "kb://me/c/", map[string][]byte{name: content})
			r.URIs = []string{"kb://me/c/" + name}
			res := e.enqueue(e.alice, r)
			if len(res.Jobs) != 1 {
				t.Fatalf("%+v", res)
			}
			return e.wait(e.alice, res.Jobs[0].ID, store.JobSucceeded, store.JobFailed)
		}

		// Transient: a 429 is retried and the second attempt succeeds.
		e.fake.Push(fakellm.RateLimited("0"))
		j := run("retry.md", []byte("r"), Request{})
		if j.State != store.JobSucceeded || j.Attempts != 2 {
			t.Fatalf("429: %+v %+v", j, j.Error)
		}

		// Transient on every attempt: bounded, then failed.
		e.fake.Push(fakellm.HTTPError(503, "down"), fakellm.HTTPError(503, "down"))
		j = run("down.md", []byte("d"), Request{})
		if j.State != store.JobFailed || j.Attempts != 2 || j.Error.Code != "llm_server_error" {
			t.Fatalf("503: %+v %+v", j, j.Error)
		}

		// Budget: one call is not enough for summary + overview + abstract.
		j = run("budget.md", []byte("b"), Request{CallBudget: 1})
		if j.State != store.JobFailed || j.Attempts != 1 || j.Error.Code != "budget_exhausted" {
			t.Fatalf("budget: %+v %+v", j, j.Error)
		}

		// Timeout: the model hangs past timeout_s on both attempts.
		e.fake.Push(hang(), hang())
		start := time.Now()
		j = run("slow.md", []byte("s"), Request{TimeoutS: 1})
		if j.State != store.JobFailed || j.Error.Code != "timeout" || time.Since(start) > 10*time.Second {
			t.Fatalf("timeout after %v: %+v %+v", time.Since(start), j, j.Error)
		}

		// Unknown binary type: permanent, with a clear reason, no model call.
		before := e.chatCount()
		j = run("blob.bin", []byte{0, 1, 2, 3, 0xff, 0xfe}, Request{})
		if j.State != store.JobFailed || j.Attempts != 1 || j.Error.Code != "unsupported_format" ||
			!strings.Contains(j.Error.Message, "blob.bin") || e.chatCount() != before {
			t.Fatalf("binary: %+v %+v", j, j.Error)
		}
		// An image is read by OCR; one whose header is cut short is damaged.
		j = run("photo.png", []byte("\x89PNG\r\n\x1a\n"), Request{})
		if j.Error == nil || j.Error.Code != "parse_failed" || !strings.Contains(j.Error.Message, "not a readable image") {
			t.Fatalf("png: %+v", j.Error)
		}

		// A semantic failure after parsing keeps the L2 body readable.
		e.fake.Push(fakellm.HTTPError(400, "content policy"))
		j = run("paper.pdf", extracttest.MinimalPDF("Readable after failure"), Request{})
		if j.State != store.JobFailed || j.Error.Code != "llm_bad_request" {
			t.Fatalf("pdf: %+v %+v", j, j.Error)
		}
		p, err := e.tree.ReadPage(context.Background(), e.alice, "kb://me/c/paper.pdf", 0, 1000)
		if err != nil || p.Body != "l2" || !strings.Contains(p.Text, "Readable after failure") {
			t.Fatalf("l2 after failure: %+v %v", p, err)
		}
		if e.exists(e.alice, "kb://me/wiki/c/paper.pdf.md") {
			t.Fatal("failed job published a summary")
		}
	})
}

func TestGracefulStopReleasesLease(t *testing.T) {
	e := newEnv(t, store.DialectSQLite)
	e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a")})
	e.fake.Push(hang())
	j := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
	p := e.svc.Start(1)
	for e.chatCount() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	back, _ := e.svc.Job(context.Background(), e.alice, j.ID)
	if back.State != store.JobQueued || back.Attempts != 0 {
		t.Fatalf("after stop: %+v", back)
	}
	e.start(1)
	if done := e.wait(e.alice, j.ID, store.JobSucceeded); done.Attempts != 1 {
		t.Fatalf("%+v", done)
	}
}
