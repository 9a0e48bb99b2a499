package knowledge

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// sweepCounters reads the sweep metrics from the registry /metrics serves.
func sweepCounters(t *testing.T) (ok, removed float64) {
	t.Helper()
	rec := httptest.NewRecorder()
	observe.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		name, v, _ := strings.Cut(line, " ")
		f, _ := strconv.ParseFloat(v, 64)
		switch name {
		case `knowspace_blob_sweeps_total{outcome="ok"}`:
			ok = f
		case "knowspace_blob_sweep_removed_total":
			removed = f
		}
	}
	return ok, removed
}

func TestSweepBlobsIsCounted(t *testing.T) {
	ctx := context.Background()
	tree, _, dir := newTestTree(t, storetest.Dialects()[0], "alice")
	p, err := tree.blobs.Put(strings.NewReader("bytes no file references"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(filepath.Join(dir, "blobs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(path, old, old)
		}
		return nil
	})
	okBefore, removedBefore := sweepCounters(t)
	n, err := tree.SweepBlobs(ctx, time.Minute)
	if err != nil || n < 1 {
		t.Fatalf("sweep removed %d (%v), want the orphan", n, err)
	}
	okAfter, removedAfter := sweepCounters(t)
	if okAfter-okBefore < 1 || removedAfter-removedBefore < float64(n) {
		t.Fatalf("sweeps %v→%v, removed %v→%v after removing %d", okBefore, okAfter, removedBefore, removedAfter, n)
	}
}
