package compile

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

// TestFileGoneMidRunFailsAsSourceMissing: a running job whose file
// disappears without a cancel reaching it (a delete that committed between
// a request's enqueue and its own cancel of the file's jobs) fails on the
// write that refers to the file. The job names why — source_missing — and
// never reads as an internal error.
func TestFileGoneMidRunFailsAsSourceMissing(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.Defaults.MaxAttempts = 1 })
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("alpha")})
		_, src, err := e.tree.Resolve(context.Background(), e.alice, "kb://me/d/a.md")
		if err != nil {
			t.Fatal(err)
		}
		e.fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			// The summary is being written: the file goes now, in a
			// transaction as every delete of the product's is, which
			// PostgreSQL may pick as a deadlock's victim against the index
			// writer (then it runs again).
			err := e.st.InTx(context.Background(), func(tx *store.Store) error { return tx.DeleteNode(context.Background(), src) })
			if err != nil {
				t.Errorf("delete the source: %v", err)
			}
			return fakellm.TextStream("a summary")
		})
		j := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
		e.start(1)
		done := e.wait(e.alice, j.ID, store.JobSucceeded, store.JobFailed, store.JobCancelled)
		if done.State != store.JobFailed || done.Error == nil || done.Error.Code != "source_missing" {
			t.Fatalf("job ended %s %+v, want failed source_missing", done.State, done.Error)
		}
		if e.exists(e.alice, "kb://me/wiki/d/a.md") {
			t.Fatal("a summary of a deleted file was published")
		}
	})
}
