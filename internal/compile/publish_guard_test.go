package compile

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

// TestCompileNeverReplacesTheUsersOwnFile: a file the user uploaded under
// wiki/ where a summary would land is kept, and the job says why it failed.
func TestCompileNeverReplacesTheUsersOwnFile(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("alpha")})
		e.put(e.alice, "kb://me/wiki/d/", map[string][]byte{"a.md": []byte("my own notes")})
		res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}})
		e.start(1)
		j := e.wait(e.alice, res.Jobs[0].ID, store.JobSucceeded, store.JobFailed)
		if j.State != store.JobFailed || j.Error == nil || j.Error.Code != "output_conflict" {
			t.Fatalf("job %s error %+v", j.State, j.Error)
		}
		if got := e.read(e.alice, "kb://me/wiki/d/a.md"); got != "my own notes" {
			t.Fatalf("the user's file was replaced by %q", got)
		}
	})
}

// TestCancelDuringSummaryPublishesNothing: a cancel requested while the
// model answers, before the heartbeat sees it, still stops the publish.
func TestCancelDuringSummaryPublishesNothing(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		// A slow heartbeat: only the guard inside the publish can catch it.
		e := newEnv(t, dialect, func(o *Options) { o.Heartbeat = time.Hour; o.Lease = 2 * time.Hour })
		answered := make(chan struct{}, 1)
		release := make(chan struct{})
		e.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			select {
			case answered <- struct{}{}:
			default:
			}
			<-release
			return fakellm.TextStream("summary")
		})
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("alpha")})
		res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}})
		e.start(1)
		select {
		case <-answered:
		case <-time.After(10 * time.Second):
			t.Fatal("the model was never called")
		}
		j, err := e.svc.Cancel(context.Background(), e.alice, res.Jobs[0].ID)
		if err != nil || j.State != store.JobRunning {
			t.Fatalf("cancel: %+v %v", j, err)
		}
		close(release)
		done := e.wait(e.alice, res.Jobs[0].ID, store.JobSucceeded, store.JobFailed, store.JobCancelled)
		if done.State != store.JobCancelled {
			t.Fatalf("job ended %s %+v", done.State, done.Error)
		}
		if e.exists(e.alice, "kb://me/wiki/d/a.md") {
			t.Fatal("a cancelled job published its summary")
		}
	})
}

// TestCancelQueuedAndFinishedJobs: cancelling is one statement; a finished
// job answers a conflict, another user's job not found.
func TestCancelQueuedAndFinishedJobs(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("alpha")})
		res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}})
		id := res.Jobs[0].ID
		ctx := context.Background()
		if _, err := e.st.CancelJob(ctx, e.bob.ID, id); err != store.ErrNotFound {
			t.Fatalf("bob cancelled alice's job: %v", err)
		}
		j, err := e.st.CancelJob(ctx, e.alice.ID, id)
		if err != nil || j.State != store.JobCancelled || !j.CancelRequested || j.FinishedAt == nil || !strings.Contains(j.ErrorMessage, "cancelled") {
			t.Fatalf("cancel queued: %+v %v", j, err)
		}
		if _, err := e.st.CancelJob(ctx, e.alice.ID, id); err != store.ErrConflict {
			t.Fatalf("cancel twice: %v", err)
		}
	})
}
