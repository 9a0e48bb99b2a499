package tools

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestToolStatusReportsCallersJobsForScope(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		ctx := context.Background()
		a := e.put(e.alice, "kb://me/d/", "a.md", []byte("x"))
		e.put(e.alice, "kb://me/d/", "b.md", []byte("y"))
		e.put(e.alice, "kb://me/other/", "c.md", []byte("z"))
		e.put(e.bob, "kb://me/d/", "a.md", []byte("bob"))
		enqueue := func(c kb.Caller, path string) store.Job {
			n, err := e.st.NodeByPath(ctx, c.ID, path)
			if err != nil {
				t.Fatal(err)
			}
			j := store.Job{UserID: c.ID, Kind: "wiki_compile", NodeID: &n.ID, Path: path, MaxAttempts: 1}
			got, _, err := e.st.EnqueueJob(ctx, &j)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		ja := enqueue(e.alice, "d/a.md")
		enqueue(e.alice, "d/b.md")
		enqueue(e.alice, "other/c.md")
		enqueue(e.bob, "d/a.md")
		// a.md's job fails with a reason.
		claimed, err := e.st.ClaimJob(ctx, "w", 60e9)
		if err != nil || claimed.ID != ja.ID {
			t.Fatalf("claim %+v %v", claimed, err)
		}
		if _, err := e.st.FailJob(ctx, ja.ID, "w", "unsupported_format", "a.md is a PNG image", false, 0); err != nil {
			t.Fatal(err)
		}

		r := e.mustRun(e.alice, "kb://me/d/", "status", map[string]any{"uri": "kb://me/d/"})
		s := r.Value.(*StatusResult)
		if len(s.Jobs) != 2 || r.Summary != "2 jobs; 0 of 2 files summarized, 0 stale, 1 failed" {
			t.Fatalf("folder status %s", r.JSON)
		}
		r = e.mustRun(e.alice, "kb://me/d/", "status", map[string]any{"uri": a})
		s = r.Value.(*StatusResult)
		if len(s.Jobs) != 1 || s.Jobs[0].URI != a || s.Jobs[0].State != store.JobFailed ||
			s.Jobs[0].Stage != "parse" || s.Jobs[0].Error != "unsupported_format: a.md is a PNG image" {
			t.Fatalf("file status %s", r.JSON)
		}
		// Bob sees only his own job.
		r = e.mustRun(e.bob, "kb://me/", "status", map[string]any{"uri": "kb://me/"})
		if s = r.Value.(*StatusResult); len(s.Jobs) != 1 || s.Jobs[0].URI != "kb://users/bob/d/a.md" {
			t.Fatalf("bob status %s", r.JSON)
		}
	})
}
