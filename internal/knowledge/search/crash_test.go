package search_test

import (
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// PostgreSQL empties the index's unlogged tables when it recovers from a
// crash, while the server keeps running. Searches must not then answer
// "complete, nothing found" from an empty index: they read the files
// until the index is rebuilt, and the rebuild starts without a restart.
func TestIndexRebuiltAfterDatabaseCrash(t *testing.T) {
	pg := storetest.StartCluster(t)
	stack := apptest.NewStackAt(t, pg.DSN, t.TempDir())
	e := &env{t: t, st: stack.Store, tree: stack.Tree, index: stack.Index, alice: stack.Caller(t, "alice"), bob: stack.Caller(t, "bob")}
	if err := e.index.Ensure(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.mkdir(e.alice, "kb://me/notes/")
	e.put(e.alice, "kb://me/notes/", "tower.md", []byte("# Lights\n\nThe quartzite lighthouse guards the northern bay.\n"))
	e.settle()
	found := func(when string, r searchOutcome) {
		t.Helper()
		if r.hits != 1 || !r.complete {
			t.Fatalf("%s: %d hits (mode %s), complete %v; want the file, complete", when, r.hits, r.mode, r.complete)
		}
	}
	before := e.outcome("quartzite")
	if before.mode != "index" {
		t.Fatalf("before the crash: mode %s, want index", before.mode)
	}
	found("before the crash", before)

	pg.Crash()
	pg.Start()

	after := e.outcome("quartzite")
	found("after the crash", after)
	if after.mode == "index" {
		t.Fatal("after the crash: answered from the emptied index")
	}
	// That search kicked the writer, which found the index lost and
	// rebuilt it.
	e.settle()
	rebuilt := e.outcome("quartzite")
	found("after the rebuild", rebuilt)
	if rebuilt.mode != "index" {
		t.Fatalf("after the rebuild: mode %s, want index", rebuilt.mode)
	}
	ranked := e.searchWith(e.alice, "kb://me/notes/", map[string]any{"query": "quartzite lighthouse", "mode": "ranked"})
	if len(ranked.Hits) != 1 || !ranked.Complete {
		t.Fatalf("ranked after the rebuild: %d hits, complete %v, note %q", len(ranked.Hits), ranked.Complete, ranked.Note)
	}
}

type searchOutcome struct {
	hits     int
	mode     string
	complete bool
}

func (e *env) outcome(query string) searchOutcome {
	e.t.Helper()
	r := e.searchFor(e.alice, "kb://me/notes/", query)
	return searchOutcome{len(r.Hits), r.Mode, r.Complete}
}
