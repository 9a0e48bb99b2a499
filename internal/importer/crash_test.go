package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestImportCrashAfterCommitRunsOnce: a worker that dies right after the
// tree's commit (before it could record the outcome) must not leave a job
// that a second worker runs again once the lease expires. The job completes
// in the commit's own transaction, so the files land exactly once.
func TestImportCrashAfterCommitRunsOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _, tree, c := importStack(t, dialect)
		if _, err := tree.Mkdir(ctx, c, "kb://me/dest/"); err != nil {
			t.Fatal(err)
		}
		const lease = 20 * time.Millisecond
		imp := &Service{Store: st, Tree: tree, MaxUpload: 1 << 20}
		j, err := imp.Enqueue(ctx, c, Request{Into: "kb://me/dest/", OnConflict: knowledge.ConflictRename, FileName: "three.zip"}, bytes.NewReader(zipOf(t, 3)))
		if err != nil {
			t.Fatal(err)
		}

		claimed, err := st.ClaimJob(ctx, "w1", lease)
		if err != nil || claimed.ID != j.ID {
			t.Fatalf("claim: %+v %v", claimed, err)
		}
		if _, err := imp.Run(ctx, claimed, "w1"); err != nil {
			t.Fatal(err)
		}
		// w1 dies here: it never records the outcome. Its lease lapses.
		time.Sleep(3 * lease)
		if _, err := st.RequeueExpired(ctx); err != nil {
			t.Fatal(err)
		}
		if again, err := st.ClaimJob(ctx, "w2", time.Minute); !errors.Is(err, store.ErrNotFound) {
			if err == nil {
				_, _ = imp.Run(ctx, again, "w2")
			}
			t.Errorf("after the crash the job was claimed again: %+v %v", again, err)
		}
		got, err := st.JobByID(ctx, c.ID, j.ID)
		if err != nil || got.State != store.JobSucceeded || got.ResultJSON == nil {
			t.Fatalf("job after the crash: %+v %v", got, err)
		}
		l, err := tree.List(ctx, c, "kb://me/dest/", 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 3 {
			names := make([]string, len(l.Items))
			for i, it := range l.Items {
				names[i] = it.Name
			}
			t.Fatalf("dest holds %d files, want 3: %v", len(l.Items), names)
		}
	})
}

// importStack is a store, blobs and tree on the dialect with one user,
// alice, the caller it returns.
func importStack(t *testing.T, dialect string) (*store.Store, *blob.Store, *knowledge.Tree, kb.Caller) {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	return stack.Store, stack.Blobs, stack.Tree, stack.Caller(t, "alice")
}

func zipOf(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		w, err := zw.Create(fmt.Sprintf("note-%d.md", i))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, "# Note %d\n", i)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestQueuedImportArchiveOutlivesTheSweep: a queued import's archive lives
// in the blob store, where the blob collection spares it however long the
// job waits (the staging sweep once removed it after an hour), and it goes
// once the import ended.
func TestQueuedImportArchiveOutlivesTheSweep(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, blobs, tree, c := importStack(t, dialect)
		imp := &Service{Store: st, Tree: tree, MaxUpload: 1 << 20}
		j, err := imp.Enqueue(ctx, c, Request{URI: "kb://me/", FileName: "notes.zip"}, bytes.NewReader(zipOf(t, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if j.BlobHash == "" || !blobs.Exists(j.BlobHash) {
			t.Fatalf("the archive is not in the blob store: %+v", j)
		}
		if got, err := blobs.CleanStaging(0); err != nil || len(got) != 0 {
			t.Errorf("the staging sweep removed %+v (%v)", got, err)
		}
		if _, err := blobs.Sweep(ctx, 0, tree.FreeBlobs); err != nil {
			t.Fatal(err)
		}
		if !blobs.Exists(j.BlobHash) {
			t.Fatal("the blob collection removed a queued import's archive")
		}
		claimed, err := st.ClaimJob(ctx, "w1", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := imp.Run(ctx, claimed, "w1"); err != nil {
			t.Fatal(err)
		}
		if blobs.Exists(j.BlobHash) {
			t.Fatal("the archive outlived its import")
		}
		l, err := tree.List(ctx, c, "kb://me/notes/", 0, 10)
		if err != nil || len(l.Items) != 2 {
			t.Fatalf("imported folder: %+v %v", l.Items, err)
		}
	})
}
