package dav_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// watched is a compile service with workers over the env's store, its
// fake model answering every summary and overview.
func (e *env) watched() *compile.Service {
	fake := apptest.StartFake(e.t, fakellm.Options{})
	fake.SetFunc(func(*fakellm.Request) fakellm.Response { return fakellm.TextStream("a summary") })
	reg := apptest.Models(e.t, fake.Model("fake", "k", "m"))
	svc := compile.New(compile.Options{Store: e.st, Tree: e.tree, Models: reg, Lease: 2 * time.Second,
		Heartbeat: 50 * time.Millisecond, Poll: 20 * time.Millisecond, AutoRetry: 50 * time.Millisecond,
		Backoff: func(int) time.Duration { return 10 * time.Millisecond }, Defaults: compile.Defaults{ModelID: "fake", TimeoutS: 30}})
	pool := svc.Start(2)
	e.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = pool.Stop(ctx)
	})
	return svc
}

// settled waits until the folder has no pending change and no job is
// active, three polls in a row, and returns the job counts by kind.
func (e *env) settled(svc *compile.Service, folder string) map[string]int {
	e.t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(90 * time.Second)
	for calm := 0; calm < 3; {
		if time.Now().After(deadline) {
			e.t.Fatalf("%s did not settle", folder)
		}
		time.Sleep(30 * time.Millisecond)
		v, err := svc.Auto(ctx, e.alice, folder)
		js, jerr := e.st.ListJobs(ctx, e.alice.ID, store.JobFilter{Limit: 10000})
		if jerr != nil {
			e.t.Fatal(jerr)
		}
		busy := err == nil && v.Pending
		for _, j := range js {
			busy = busy || j.Active()
		}
		if busy {
			calm = 0
		} else {
			calm++
		}
	}
	js, _ := e.st.ListJobs(ctx, e.alice.ID, store.JobFilter{Limit: 10000})
	out := map[string]int{}
	for _, j := range js {
		if j.State != store.JobSucceeded {
			e.t.Fatalf("job %d (%s %s) %s: %s", j.ID, j.Kind, j.Path, j.State, j.ErrorMessage)
		}
		out[j.Kind]++
	}
	return out
}

// TestWatchedFolderThroughDAV: files synced in through WebDAV keep a
// folder compiled as uploads do — one summary per new or changed file, one
// overview per affected folder and batch, nothing for the same bytes again.
func TestWatchedFolderThroughDAV(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		svc := e.watched()
		for _, p := range []string{"/dav/lib/", "/dav/lib/sub/"} {
			if s := e.status(req{method: "MKCOL", path: p}); s != http.StatusCreated {
				t.Fatalf("MKCOL %s: %d", p, s)
			}
		}
		// Each PUT restarts the quiet period: a sync is one batch.
		quiet := 2
		if _, err := svc.SaveAuto(context.Background(), e.alice, compile.AutoRequest{URI: "kb://me/lib/", QuietS: &quiet}); err != nil {
			t.Fatal(err)
		}
		body := func(i int) string { return fmt.Sprintf("# Note %d\nsynced body %d", i, i) }
		path := func(i int) string {
			return fmt.Sprintf("/dav/lib/%sn%02d.md", map[bool]string{true: "sub/"}[i%2 == 1], i)
		}
		for i := range 50 {
			e.put(path(i), body(i), http.StatusCreated)
		}
		got := e.settled(svc, "kb://me/lib/")
		t.Logf("50 files through WebDAV: %v", got)
		if got[compile.JobKind] != 50 || got[compile.OverviewJobKind] != 2 {
			t.Fatalf("jobs %v, want 50 summaries and one overview per folder (2)", got)
		}

		// x/net/webdav answers 201 to a PUT over a file too.
		e.put(path(3), "# Note 3\nedited through WebDAV", http.StatusCreated)
		got = e.settled(svc, "kb://me/lib/")
		if got[compile.JobKind] != 51 || got[compile.OverviewJobKind] != 3 {
			t.Fatalf("after one change: %v, want 51 and 3", got)
		}

		if s := e.status(req{method: "DELETE", path: path(5)}); s != http.StatusNoContent {
			t.Fatalf("DELETE: %d", s)
		}
		got = e.settled(svc, "kb://me/lib/")
		if got[compile.JobKind] != 51 || got[compile.OverviewJobKind] != 4 {
			t.Fatalf("after one delete: %v, want 51 and 4", got)
		}
		n, err := e.st.NodeByPath(context.Background(), e.alice.ID, "wiki/lib/sub/.overview.md")
		if err != nil {
			t.Fatal(err)
		}
		if p, err := e.st.ProvenanceOf(context.Background(), n.ID); err != nil || strings.Contains(p.SourcesJSON, "n05.md") || !strings.Contains(p.SourcesJSON, "n03.md") {
			t.Fatalf("sub overview after the delete is built from %v (%v)", p.SourcesJSON, err)
		}

		// A second sync of the same bytes queues nothing.
		for i := range 50 {
			if i == 5 {
				continue
			}
			b := body(i)
			if i == 3 {
				b = "# Note 3\nedited through WebDAV"
			}
			e.put(path(i), b, http.StatusCreated)
		}
		if again := e.settled(svc, "kb://me/lib/"); again[compile.JobKind] != 51 || again[compile.OverviewJobKind] != 4 {
			t.Fatalf("the same files again: %v, want 51 and 4", again)
		}
	})
}
