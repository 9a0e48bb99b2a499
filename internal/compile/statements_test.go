package compile

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// jobStatements runs one compile job of notes/a.md whose output folder
// already holds n summaries, and returns how many statements the job sent
// from its claim to its completion (the heartbeat does not run: the job is
// run directly, so the count is the pipeline's own).
func jobStatements(t *testing.T, dialect string, n int) int64 {
	t.Helper()
	e := newEnv(t, dialect)
	ctx := context.Background()
	counter, err := e.st.CountStatements()
	if err != nil {
		t.Fatal(err)
	}
	e.put(e.alice, "kb://me/notes/", map[string][]byte{"a.md": []byte("# Alpha\nalpha text")})
	// The folder's other summaries are seeded in one publish, as earlier
	// jobs would have left them.
	files := make([]knowledge.GeneratedFile, n)
	for i := range files {
		files[i] = knowledge.GeneratedFile{Name: fmt.Sprintf("s%04d.md", i),
			Text:       fmt.Sprintf("---\nrole: summary\n---\n\nsummary %d", i),
			Provenance: store.Provenance{Role: store.RoleSummary, Fingerprint: "seed", SourcesJSON: "[]"}}
	}
	if _, err := e.tree.Publish(ctx, e.alice, "wiki/notes", files, nil); err != nil {
		t.Fatal(err)
	}
	res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/notes/a.md"}})
	if len(res.Jobs) != 1 {
		t.Fatalf("enqueue: %+v", res)
	}
	// The index writer's statements are not the job's.
	release, err := e.index.Hold(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	before := counter.Count()
	j, err := e.st.ClaimJob(ctx, "counting-worker", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r, err := e.svc.runJob(ctx, j, "counting-worker")
	if err != nil {
		t.Fatalf("job: %v", err)
	}
	if err := e.st.CompleteJob(ctx, j.ID, "counting-worker", "{}"); err != nil {
		t.Fatal(err)
	}
	used := counter.Count() - before
	if r.SummarySkipped || r.OverviewSkipped || r.OverviewDeferred {
		t.Fatalf("the job skipped a step: %+v", r)
	}
	// The overview was written from every summary of the folder.
	ovNode, err := e.st.NodeByPath(ctx, e.alice.ID, "wiki/notes/"+OverviewName)
	if err != nil {
		t.Fatal(err)
	}
	prov, err := e.st.ProvenanceOf(ctx, ovNode.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(prov.SourcesJSON, `"uri"`); got != n+1 ||
		!strings.Contains(prov.SourcesJSON, fmt.Sprintf("kb://users/alice/wiki/notes/s%04d.md", n-1)) {
		t.Fatalf("overview has %d sources, want %d: %.300s", got, n+1, prov.SourcesJSON)
	}
	last := e.fake.Requests()
	var prompt string
	for _, q := range last {
		if q.Chat != nil {
			if _, u := q.Chat.LastUser(); strings.HasPrefix(u, "Write the overview") {
				prompt = u
			}
		}
	}
	if !strings.Contains(prompt, "summary 0") || !strings.Contains(prompt, "## s0000") {
		t.Fatalf("overview prompt lacks the seeded summaries:\n%.400s", prompt)
	}
	return used
}

// A compile job's statements do not grow with the number of summaries in
// its output folder.
func TestCompileStatementsDoNotGrowWithFolder(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		small := jobStatements(t, dialect, 10)
		large := jobStatements(t, dialect, 1000)
		t.Logf("%s: statements per compile job: %d with 10 summaries in the folder, %d with 1000", dialect, small, large)
		if large-small > 4 {
			t.Fatalf("statements grow with the folder: %d for 10 summaries, %d for 1000", small, large)
		}
	})
}
