package compile

import (
	"testing"

	"github.com/knowspace/knowspace/internal/store"
)

// TestQueuedJobsPerUser: past the cap a request's extra files are rejected
// with a reason, other users are not affected, and room frees as jobs end.
func TestQueuedJobsPerUser(t *testing.T) {
	e := newEnv(t, store.DialectSQLite, func(o *Options) { o.QueuedJobsPerUser = 2 })
	files := map[string][]byte{"a.md": []byte("a"), "b.md": []byte("b"), "c.md": []byte("c")}
	e.put(e.alice, "kb://me/d/", files)
	e.put(e.bob, "kb://me/d/", files)
	req := Request{URIs: []string{"kb://me/d/a.md", "kb://me/d/b.md", "kb://me/d/c.md"}, Executor: "llm", ModelID: "fake"}
	got := e.enqueue(e.alice, req)
	if len(got.Jobs) != 2 || len(got.Rejected) != 1 || got.Rejected[0].Code != "queue_full" || got.Rejected[0].URI != "kb://users/alice/d/c.md" {
		t.Fatalf("%+v", got)
	}
	if again := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/c.md"}, Executor: "llm", ModelID: "fake"}); len(again.Jobs) != 0 || again.Rejected[0].Code != "queue_full" {
		t.Fatalf("%+v", again)
	}
	if bob := e.enqueue(e.bob, req); len(bob.Jobs) != 2 {
		t.Fatalf("bob is limited by alice's queue: %+v", bob)
	}
	e.start(1)
	for _, j := range got.Jobs {
		e.wait(e.alice, j.ID, store.JobSucceeded, store.JobFailed)
	}
	if later := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/c.md"}, Executor: "llm", ModelID: "fake"}); len(later.Jobs) != 1 {
		t.Fatalf("after the queue drained: %+v", later)
	}
}
