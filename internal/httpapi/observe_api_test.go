package httpapi

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const obsModel = "obs-fake" // no other test's model, so its model-call series are ours

// obsSetup is a full server with chat, compile workers and the metrics
// sources installed, as cmd/server wires them.
func obsSetup(t *testing.T, dialect string, workers int) *apiEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	fake.SetFunc(func(r *fakellm.Request) fakellm.Response {
		if r.Chat != nil && len(r.Chat.Tools) == 0 {
			return fakellm.TextStream("a summary") // a compile job's call
		}
		return fakellm.DefaultScript(r, 0)
	})
	usage := true
	model := fake.Model(obsModel, "sk-obs-SECRET-9", "upstream")
	model.NativeTools, model.StreamUsage = true, &usage
	reg := apptest.Models(t, model)
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: reg, Poll: 20 * time.Millisecond,
		Heartbeat: 50 * time.Millisecond})
	observe.SetSources(observe.Sources{BlobBytes: stack.Store.BlobBytes, JobStates: stack.Store.CountJobsByState})
	t.Cleanup(func() { observe.SetSources(observe.Sources{}) })
	e := newAPIEnv(t, stack, Deps{Models: reg, Compile: comp, Workers: workers,
		Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree}}, "alice")
	e.fake, e.fakeURL = fake, fake.URL
	return e
}

// turnSSE streams one answer and returns the SSE body.
func (e *apiEnv) turnSSE(user, message string) string {
	e.t.Helper()
	b := e.expect("POST", "/api/v1/knowledge-agent/stream", user,
		map[string]any{"uri": "kb://me/", "model_id": obsModel, "message": message}, 200)
	if !strings.Contains(string(b), "event: done") {
		e.t.Fatalf("turn did not end with done:\n%s", b)
	}
	return string(b)
}

// compileOne uploads a file, compiles it and waits for the job to succeed.
func (e *apiEnv) compileOne(user, name, content string) int64 {
	e.t.Helper()
	e.upload(user, "kb://me/obs/", map[string]string{name: content})
	b := e.expect("POST", "/api/v1/knowledge-agent/compile", user,
		map[string]any{"uris": []string{"kb://me/obs/" + name}, "executor": "llm", "model_id": obsModel}, 200)
	res := cmpDecode[cmpEnqueue](e.t, b)
	if len(res.Jobs) != 1 {
		e.t.Fatalf("compile: %s", b)
	}
	id := res.Jobs[0].ID
	deadline := time.Now().Add(20 * time.Second)
	for {
		j := cmpDecode[cmpJob](e.t, e.expect("GET", fmt.Sprintf("/api/v1/jobs/%d", id), user, nil, 200))
		if j.State == "succeeded" {
			return id
		}
		if j.State == "failed" || time.Now().After(deadline) {
			e.t.Fatalf("job %d: %+v", id, j)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestMetricsMoveAfterATurnAndAJob scrapes the real metrics listener
// before and after a turn that calls a tool and a compile job.
func TestMetricsMoveAfterATurnAndAJob(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		addr := obsMetricsListener(t)
		e := obsSetup(t, dialect, 0)
		before := obsScrape(t, addr)

		sse := e.turnSSE("alice", "use ls on this folder")
		if !strings.Contains(sse, "event: tool_call") {
			t.Fatalf("the turn called no tool:\n%s", sse)
		}
		after := obsScrape(t, addr)
		delta := func(name string, kv ...string) float64 { return after.get(name, kv...) - before.get(name, kv...) }
		if d := delta("knowspace_turns_total", "outcome", "complete", "reason", "stop"); d < 1 {
			t.Errorf("turns complete/stop moved by %v", d)
		}
		if d := delta("knowspace_tool_calls_total", "tool", "ls", "outcome", "ok"); d < 1 {
			t.Errorf("tool calls ls/ok moved by %v", d)
		}
		// Two model steps: the one that called ls and the answer.
		if d := delta("knowspace_model_calls_total", "model", obsModel, "outcome", "ok"); d != 2 {
			t.Errorf("model calls ok moved by %v, want 2", d)
		}
		if d := delta("knowspace_model_call_duration_seconds_count", "model", obsModel, "outcome", "ok"); d != 2 {
			t.Errorf("model call latency observations moved by %v, want 2", d)
		}
		for _, kind := range []string{"prompt", "completion"} {
			if d := delta("knowspace_model_tokens_total", "model", obsModel, "kind", kind); d <= 0 {
				t.Errorf("%s tokens moved by %v", kind, d)
			}
		}
		if d := delta("knowspace_http_requests_total", "route", "/api/v1/knowledge-agent/stream", "method", "POST", "status", "200"); d != 1 {
			t.Errorf("stream requests moved by %v", d)
		}
		if v := after.get("knowspace_streams_active"); v != before.get("knowspace_streams_active") {
			t.Errorf("active streams %v after the turn, %v before", v, before.get("knowspace_streams_active"))
		}

		// A compile job: its transitions, its queue wait and run time.
		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		before = obsScrape(t, addr)
		e.compileOne("alice", "a.md", "alpha beta gamma")
		after = obsScrape(t, addr)
		for _, tr := range [][2]string{{"none", "queued"}, {"queued", "running"}, {"running", "succeeded"}} {
			if d := delta("knowspace_compile_job_transitions_total", "kind", compile.JobKind, "from", tr[0], "to", tr[1]); d < 1 {
				t.Errorf("transition %s→%s moved by %v", tr[0], tr[1], d)
			}
		}
		if d := delta("knowspace_compile_job_run_seconds_count", "kind", compile.JobKind, "outcome", "succeeded"); d < 1 {
			t.Errorf("run time observations moved by %v", d)
		}
		if d := delta("knowspace_compile_job_queue_wait_seconds_count", "kind", compile.JobKind); d < 1 {
			t.Errorf("queue wait observations moved by %v", d)
		}
		if d := delta("knowspace_model_calls_total", "model", obsModel, "outcome", "ok"); d < 1 {
			t.Errorf("the job's model calls moved by %v", d)
		}
		if v := after.get("knowspace_compile_jobs", "state", "succeeded"); v != 1 {
			t.Errorf("jobs succeeded gauge %v, want 1 (this store's one job)", v)
		}
		if v := after.get("knowspace_blob_bytes"); v < float64(len("alpha beta gamma")) {
			t.Errorf("blob bytes %v, below the uploaded file", v)
		}

		// Routes are templates: the job's id never becomes a label, and a
		// path no route knows collapses to one value.
		e.expect("GET", "/api/v1/jobs/424242", "alice", nil, 404)
		e.expect("GET", "/no/such/page/xyz", "", nil, 404)
		e.expect("DELETE", "/healthz", "", nil, 405)
		after = obsScrape(t, addr)
		if d := after.get("knowspace_http_requests_total", "route", "/api/v1/jobs/:id", "method", "GET", "status", "404"); d < 1 {
			t.Errorf("no /api/v1/jobs/:id 404 series")
		}
		if d := after.get("knowspace_http_requests_total", "route", "/api/v1/jobs/:id", "method", "GET", "status", "200"); d < 1 {
			t.Errorf("no /api/v1/jobs/:id 200 series")
		}
		routes := map[string]bool{observe.UnmatchedRoute: true}
		for _, r := range e.echo.Routes() {
			routes[r.Path] = true
		}
		for series := range after {
			if !strings.HasPrefix(series, "knowspace_http_") {
				continue
			}
			_, rest, _ := strings.Cut(series, `route="`)
			route, _, _ := strings.Cut(rest, `"`)
			if !routes[route] || strings.Contains(route, "424242") || strings.Contains(route, "xyz") {
				t.Errorf("route label %q is not a route template (series %s)", route, series)
			}
		}
		if after.get("knowspace_http_requests_total", "route", observe.UnmatchedRoute, "status", "404") < 1 {
			t.Errorf("a path no route knows is not counted under %q", observe.UnmatchedRoute)
		}
		if after.get("knowspace_http_requests_total", "route", "/healthz", "method", "DELETE", "status", "405") < 1 {
			t.Errorf("a wrong method on a known route is not counted under its template")
		}
	})
}

func TestNoMetricsListenerWhenMetricsListenIsEmpty(t *testing.T) {
	m, err := observe.Listen("")
	if m != nil || err != nil {
		t.Fatalf("empty metrics_listen: %v %v", m, err)
	}
	// And the API itself never serves the metrics.
	e := obsSetup(t, "sqlite", 0)
	res := e.open("GET", "/metrics", "", nil)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode == 200 || strings.Contains(string(b), "knowspace_http_requests_total") {
		t.Fatalf("the API listener answered /metrics: %d %.200s", res.StatusCode, b)
	}
}
