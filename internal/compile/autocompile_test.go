package compile

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

func intp(n int) *int { return &n }

// upload commits files (relative paths allowed) below folder in one upload.
func (e *env) upload(c kb.Caller, folder string, files map[string]string) {
	e.t.Helper()
	var staged []knowledge.Staged
	for name, body := range files {
		s, err := e.tree.StagePath(name, true, strings.NewReader(body))
		if err != nil {
			e.t.Fatal(err)
		}
		staged = append(staged, s)
	}
	if _, err := e.tree.CommitUpload(context.Background(), c, folder, staged, knowledge.ConflictReplace); err != nil {
		e.t.Fatal(err)
	}
}

// jobCounts counts the user's jobs by kind.
func (e *env) jobCounts(c kb.Caller) map[string]int {
	e.t.Helper()
	js, err := e.st.ListJobs(context.Background(), c.ID, store.JobFilter{Limit: 10000})
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]int{}
	for _, j := range js {
		out[j.Kind]++
	}
	return out
}

// settle waits until the folder has no pending change and the user no
// active job, twice in a row a few polls apart, and every job succeeded.
func (e *env) settle(c kb.Caller, folder string, mayFail ...string) {
	e.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(60 * time.Second)
	calm := 0
	for calm < 3 {
		if time.Now().After(deadline) {
			e.t.Fatalf("folder %s did not settle: jobs %v", folder, e.jobCounts(c))
		}
		time.Sleep(30 * time.Millisecond)
		v, err := e.svc.Auto(ctx, c, folder)
		pending := err == nil && v.Pending
		js, err := e.st.ListJobs(ctx, c.ID, store.JobFilter{Limit: 10000})
		if err != nil {
			e.t.Fatal(err)
		}
		active := false
		for _, j := range js {
			if j.Active() {
				active = true
			}
		}
		if pending || active {
			calm = 0
			continue
		}
		calm++
	}
	js, _ := e.st.ListJobs(ctx, c.ID, store.JobFilter{Limit: 10000})
	for _, j := range js {
		if j.State != store.JobSucceeded && !(j.State == store.JobFailed && slices.Contains(mayFail, j.Path)) {
			e.t.Fatalf("job %d (%s %s) is %s: %s %s", j.ID, j.Kind, j.Path, j.State, j.ErrorCode, j.ErrorMessage)
		}
	}
}

// overviewSources lists the summaries an overview was built from.
func (e *env) overviewSources(c kb.Caller, path string) []string {
	e.t.Helper()
	ctx := context.Background()
	n, err := e.st.NodeByPath(ctx, c.ID, path)
	if err != nil {
		e.t.Fatalf("overview %s: %v", path, err)
	}
	p, err := e.st.ProvenanceOf(ctx, n.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	var refs []sourceRef
	if err := json.Unmarshal([]byte(p.SourcesJSON), &refs); err != nil {
		e.t.Fatal(err)
	}
	var out []string
	for _, r := range refs {
		out = append(out, r.URI)
	}
	return out
}

func TestAutoCompileFolderBatches(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.AutoRetry = 50 * time.Millisecond })
		ctx := context.Background()
		if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/lib/"); err != nil {
			t.Fatal(err)
		}
		v, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/lib/", QuietS: intp(0)})
		if err != nil {
			t.Fatal(err)
		}
		if v.QuietS != 0 || v.URI != "kb://users/alice/lib/" || !v.Pending {
			t.Fatalf("saved %+v", v)
		}
		// 50 files in three folders, as a folder upload sends them.
		files := map[string]string{}
		for i := range 50 {
			dir := []string{"", "a/", "a/b/"}[i%3]
			files[fmt.Sprintf("%sf%02d.md", dir, i)] = fmt.Sprintf("# File %d\nbody %d", i, i)
		}
		e.upload(e.alice, "kb://me/lib/", files)
		l, err := e.tree.List(ctx, e.alice, "kb://me/", 0, 10)
		if err != nil || len(l.Items) != 1 || !l.Items[0].AutoCompile {
			t.Fatalf("listing does not say lib is kept compiled: %+v %v", l.Items, err)
		}
		e.start(2)
		e.settle(e.alice, "kb://me/lib/")
		got := e.jobCounts(e.alice)
		t.Logf("after 50 files: %v", got)
		if got[JobKind] != 50 || got[OverviewJobKind] != 3 {
			t.Fatalf("jobs = %v, want 50 summaries and 3 overviews", got)
		}
		for _, p := range []string{"wiki/lib/.overview.md", "wiki/lib/a/.overview.md", "wiki/lib/a/b/.overview.md", "wiki/lib/a/b/.abstract.md"} {
			if _, err := e.st.NodeByPath(ctx, e.alice.ID, p); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
		}
		if n := len(e.overviewSources(e.alice, "wiki/lib/a/b/.overview.md")); n != 16 {
			t.Fatalf("a/b overview built from %d summaries, want 16", n)
		}

		// One changed file: one summary, one overview.
		e.upload(e.alice, "kb://me/lib/a/", map[string]string{"f01.md": "# File 1\nnew body"})
		e.settle(e.alice, "kb://me/lib/")
		got = e.jobCounts(e.alice)
		t.Logf("after one change: %v", got)
		if got[JobKind] != 51 || got[OverviewJobKind] != 4 {
			t.Fatalf("jobs = %v, want 51 and 4", got)
		}

		// One deleted file leaves its folder's overview (and its summary
		// goes), without any summary job.
		if err := e.tree.Delete(ctx, e.alice, "kb://me/lib/a/b/f02.md"); err != nil {
			t.Fatal(err)
		}
		e.settle(e.alice, "kb://me/lib/")
		got = e.jobCounts(e.alice)
		t.Logf("after one delete: %v", got)
		if got[JobKind] != 51 || got[OverviewJobKind] != 5 {
			t.Fatalf("jobs = %v, want 51 and 5", got)
		}
		srcs := e.overviewSources(e.alice, "wiki/lib/a/b/.overview.md")
		if len(srcs) != 15 || strings.Contains(strings.Join(srcs, " "), "f02.md") {
			t.Fatalf("a/b overview sources after delete: %v", srcs)
		}
		if _, err := e.st.NodeByPath(ctx, e.alice.ID, "wiki/lib/a/b/f02.md"); err == nil {
			t.Fatal("the deleted file's summary is still there")
		}

		// A file moved away leaves too; its new folder compiles it.
		if _, err := e.tree.Move(ctx, e.alice, "kb://me/lib/f00.md", "kb://me/lib/a/f00.md"); err != nil {
			t.Fatal(err)
		}
		e.settle(e.alice, "kb://me/lib/")
		got = e.jobCounts(e.alice)
		t.Logf("after one move: %v", got)
		if got[JobKind] != 52 || got[OverviewJobKind] != 7 {
			t.Fatalf("jobs = %v, want 52 and 7", got)
		}
		if srcs := e.overviewSources(e.alice, "wiki/lib/.overview.md"); strings.Contains(strings.Join(srcs, " "), "f00.md") {
			t.Fatalf("lib overview still lists the moved file: %v", srcs)
		}

		// The same bytes again queue nothing.
		files["a/f01.md"] = "# File 1\nnew body"
		delete(files, "a/b/f02.md")
		delete(files, "f00.md")
		files["a/f00.md"] = "# File 0\nbody 0"
		calls := e.chatCount()
		e.upload(e.alice, "kb://me/lib/", files)
		e.settle(e.alice, "kb://me/lib/")
		if again := e.jobCounts(e.alice); again[JobKind] != 52 || again[OverviewJobKind] != 7 || e.chatCount() != calls {
			t.Fatalf("the same files again: jobs %v, model calls %d → %d", again, calls, e.chatCount())
		}

		// Turned off, a change queues nothing.
		if err := e.svc.DeleteAuto(ctx, e.alice, "kb://me/lib/"); err != nil {
			t.Fatal(err)
		}
		e.upload(e.alice, "kb://me/lib/", map[string]string{"f03.md": "changed after off"})
		time.Sleep(300 * time.Millisecond)
		if off := e.jobCounts(e.alice); off[JobKind] != 52 || off[OverviewJobKind] != 7 {
			t.Fatalf("jobs after turning off: %v", off)
		}
		if _, err := e.svc.Auto(ctx, e.alice, "kb://me/lib/"); !isCode(err, "auto_compile_not_found") {
			t.Fatalf("GET after off: %v", err)
		}
	})
}

func isCode(err error, code string) bool {
	e, ok := apierr.As(err)
	return ok && e.Code.String() == code
}

func TestAutoCompileQuietPeriodAndQueueLimit(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.QueuedJobsPerUser = 5; o.AutoRetry = time.Millisecond })
		ctx := context.Background()
		if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/q/"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/q/", QuietS: intp(1)}); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		for i := range 12 {
			files[fmt.Sprintf("n%02d.txt", i)] = fmt.Sprintf("note %d", i)
		}
		e.upload(e.alice, "kb://me/q/", files)
		// Within the quiet period nothing is due.
		if done, err := e.svc.RunDueAuto(ctx, "test"); err != nil || !done {
			t.Fatalf("due during the quiet period: %v %v", done, err)
		}
		time.Sleep(1100 * time.Millisecond)
		if done, err := e.svc.RunDueAuto(ctx, "test"); err != nil || done {
			t.Fatalf("not due after the quiet period: %v %v", done, err)
		}
		// The queue holds 5 jobs: the rest waits, the folder stays due.
		if got := e.jobCounts(e.alice); got[JobKind] != 5 || got[OverviewJobKind] != 0 {
			t.Fatalf("jobs with a full queue: %v", got)
		}
		v, err := e.svc.Auto(ctx, e.alice, "kb://me/q/")
		if err != nil || !v.Pending || !strings.Contains(v.LastError, "queue is full") {
			t.Fatalf("after a full queue: %+v %v", v, err)
		}
		e.start(1)
		e.settle(e.alice, "kb://me/q/")
		got := e.jobCounts(e.alice)
		t.Logf("12 files through a queue of 5: %v", got)
		if got[JobKind] != 12 || got[OverviewJobKind] != 1 {
			t.Fatalf("jobs = %v, want 12 and 1", got)
		}
		if srcs := e.overviewSources(e.alice, "wiki/q/.overview.md"); len(srcs) != 12 {
			t.Fatalf("overview sources %v", srcs)
		}
	})
}

func TestAutoCompileValidationAndIsolation(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ctx := context.Background()
		e.put(e.alice, "kb://me/v/", map[string][]byte{"a.md": []byte("x")})
		cases := []struct {
			c    kb.Caller
			r    AutoRequest
			code string
		}{
			{e.alice, AutoRequest{}, "invalid_uri"},
			{e.alice, AutoRequest{URI: "kb://me/v/", QuietS: intp(-1)}, "invalid_quiet_s"},
			{e.alice, AutoRequest{URI: "kb://me/v/", QuietS: intp(MaxQuietS + 1)}, "invalid_quiet_s"},
			{e.alice, AutoRequest{URI: "kb://me/v/", Request: Request{URIs: []string{"kb://me/v/a.md"}}}, "invalid_uris"},
			{e.alice, AutoRequest{URI: "kb://me/v/", Request: Request{Executor: "magic"}}, "invalid_executor"},
			{e.alice, AutoRequest{URI: "kb://me/v/", Request: Request{CallBudget: MaxCallBudget + 1}}, "invalid_call_budget"},
			{e.alice, AutoRequest{URI: "kb://me/v/", Request: Request{ModelID: "nope"}}, "unknown_model"},
			{e.alice, AutoRequest{URI: "kb://me/v/", Request: Request{Skill: "no-such-skill"}}, "unknown_skill"},
			{e.alice, AutoRequest{URI: "kb://me/v/a.md"}, "not_a_folder"},
			{e.alice, AutoRequest{URI: "kb://me/nope/"}, "not_found"},
			{e.bob, AutoRequest{URI: "kb://users/alice/v/"}, "not_found"},
			{kb.Caller{ID: e.alice.ID, Username: "alice", ScopeID: 1, ScopePath: "v", ReadOnly: true},
				AutoRequest{URI: "kb://me/v/"}, "read_only"},
		}
		for _, tc := range cases {
			_, err := e.svc.SaveAuto(ctx, tc.c, tc.r)
			if err == nil || !isCode(err, tc.code) {
				t.Errorf("%+v: err %v, want %s", tc.r, err, tc.code)
			}
		}
		if _, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/v/"}); err != nil {
			t.Fatal(err)
		}
		v, err := e.svc.Auto(ctx, e.alice, "kb://me/v/")
		if err != nil || v.QuietS != DefaultQuietS {
			t.Fatalf("default quiet period: %+v %v", v, err)
		}
		if _, err := e.svc.Auto(ctx, e.bob, "kb://users/alice/v/"); !isCode(err, "not_found") {
			t.Fatalf("bob reads alice's setting: %v", err)
		}
		if err := e.svc.DeleteAuto(ctx, e.bob, "kb://users/alice/v/"); !isCode(err, "not_found") {
			t.Fatalf("bob turns alice's setting off: %v", err)
		}
		// Bob's writes never mark alice's folder.
		e.put(e.bob, "kb://me/v/", map[string][]byte{"b.md": []byte("bob")})
		v0 := mustNode(t, e, e.alice, "v").ID
		if a, _ := e.st.AutoCompileOf(ctx, e.alice.ID, v0); a.ChangeSeq != 0 {
			t.Fatalf("bob's upload changed alice's folder: %+v", a)
		}
		e.put(e.alice, "kb://me/v/", map[string][]byte{"c.md": []byte("alice")})
		if a, _ := e.st.AutoCompileOf(ctx, e.alice.ID, v0); a.ChangeSeq != 1 || a.DueAt == nil {
			t.Fatalf("alice's upload did not mark her folder: %+v", a)
		}
	})
}

func mustNode(t *testing.T, e *env, c kb.Caller, path string) store.Node {
	t.Helper()
	n, err := e.st.NodeByPath(context.Background(), c.ID, path)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAutoCompileDoesNotRetryAFileThatFailedOnTheSameBytes(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.AutoRetry = 50 * time.Millisecond })
		ctx := context.Background()
		files := map[string][]byte{"a.md": []byte("alpha"), "broken.pdf": []byte("%PDF-1.4 not really")}
		e.put(e.alice, "kb://me/p/", files)
		if _, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/p/", QuietS: intp(0)}); err != nil {
			t.Fatal(err)
		}
		e.start(1)
		e.settle(e.alice, "kb://me/p/", "p/broken.pdf")
		if got := e.jobCounts(e.alice); got[JobKind] != 2 || got[OverviewJobKind] != 1 {
			t.Fatalf("first batch: %v", got)
		}
		if ov := e.read(e.alice, "kb://me/wiki/p/.overview.md"); !strings.Contains(ov, "`broken.pdf` — parse_failed") {
			t.Fatalf("overview does not list the failed file:\n%s", ov)
		}
		e.put(e.alice, "kb://me/p/", files)
		e.settle(e.alice, "kb://me/p/", "p/broken.pdf")
		if got := e.jobCounts(e.alice); got[JobKind] != 2 || got[OverviewJobKind] != 1 {
			t.Fatalf("the same bytes again: %v", got)
		}
		e.put(e.alice, "kb://me/p/", map[string][]byte{"a.md": []byte("alpha, changed")})
		e.settle(e.alice, "kb://me/p/", "p/broken.pdf")
		if got := e.jobCounts(e.alice); got[JobKind] != 3 || got[OverviewJobKind] != 2 {
			t.Fatalf("one change beside a failed file: %v", got)
		}
	})
}

// TestAutoCompileTwoReplicas: two services on one database (two replicas)
// schedule the same folders without queuing anything twice; a claimed
// folder is not claimed again until its claim ends.
func TestAutoCompileTwoReplicas(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.AutoRetry = 50 * time.Millisecond })
		ctx := context.Background()
		if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/r/"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/r/", QuietS: intp(0)}); err != nil {
			t.Fatal(err)
		}
		a, err := e.st.ClaimDueAutoCompile(ctx, "one", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.st.ClaimDueAutoCompile(ctx, "two", time.Minute); err == nil {
			t.Fatal("a claimed folder was claimed again")
		}
		if err := e.st.FinishAutoCompile(ctx, a.ID, "two", a.ChangeSeq, nil, ""); err == nil {
			t.Fatal("another replica ended the claim")
		}
		// A change during the claim keeps the folder due after it ends.
		e.upload(e.alice, "kb://me/r/", map[string]string{"x.md": "x"})
		if err := e.st.FinishAutoCompile(ctx, a.ID, "one", a.ChangeSeq, nil, ""); err != nil {
			t.Fatal(err)
		}
		if v, _ := e.svc.Auto(ctx, e.alice, "kb://me/r/"); !v.Pending {
			t.Fatal("a change made during the scan was lost")
		}
		files := map[string]string{}
		for i := range 30 {
			files[fmt.Sprintf("%sg%02d.md", []string{"", "s/"}[i%2], i)] = fmt.Sprintf("g %d", i)
		}
		e.upload(e.alice, "kb://me/r/", files)
		other := New(e.opts)
		p2 := other.Start(2)
		t.Cleanup(func() { _ = p2.Stop(context.Background()) })
		e.start(2)
		e.settle(e.alice, "kb://me/r/")
		got := e.jobCounts(e.alice)
		t.Logf("31 files, two replicas: %v", got)
		if got[JobKind] != 31 || got[OverviewJobKind] != 2 {
			t.Fatalf("jobs = %v, want 31 and 2", got)
		}
	})
}
