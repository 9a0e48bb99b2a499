package knowledge

import (
	"context"
	"fmt"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// listBadges lists a folder of 10 files, each compiled perJob times (all
// jobs but the latest cancelled, every other file's latest still queued;
// a.md has a summary), and returns the listing with the statements and
// rows the listing cost, plus each file's latest job.
func listBadges(t *testing.T, dialect string, perFile int) (Listing, map[string]store.Job, int64, int64) {
	t.Helper()
	tree, cs, _ := newTestTree(t, dialect, "alice")
	alice := cs[0]
	ctx := context.Background()
	counter, err := tree.st.CountStatements()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Mkdir(ctx, alice, "kb://me/d/"); err != nil {
		t.Fatal(err)
	}
	latest := map[string]store.Job{}
	for f := range 10 {
		name := fmt.Sprintf("f%02d.md", f)
		mustUpload(t, tree, alice, "kb://me/d/", name, "text of "+name)
		n, err := tree.st.NodeByPath(ctx, alice.ID, "d/"+name)
		if err != nil {
			t.Fatal(err)
		}
		for k := range perFile {
			j, _, err := tree.st.EnqueueJob(ctx, &store.Job{UserID: alice.ID, Kind: "compile", NodeID: &n.ID, Path: n.Path, OutputPath: "wiki/d"})
			if err != nil {
				t.Fatal(err)
			}
			if k < perFile-1 || f%2 == 1 {
				if j, err = tree.st.CancelJob(ctx, alice.ID, j.ID); err != nil {
					t.Fatal(err)
				}
			}
			latest[name] = j
		}
	}
	src, err := tree.st.NodeByPath(ctx, alice.ID, "d/f00.md")
	if err != nil {
		t.Fatal(err)
	}
	v, err := tree.st.LatestVersion(ctx, src.ID, store.BodyRaw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Publish(ctx, alice, "wiki/d", []GeneratedFile{{Name: "f00.md", Text: "summary",
		Provenance: store.Provenance{Role: store.RoleSummary, SourceNodeID: &src.ID, SourceHash: v.BlobHash, Fingerprint: "f", SourcesJSON: "[]"}}}, nil); err != nil {
		t.Fatal(err)
	}
	n0, r0 := counter.Count(), counter.Rows()
	l, err := tree.List(ctx, alice, "kb://me/d/", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	return l, latest, counter.Count() - n0, counter.Rows() - r0
}

// The tree's badges cost the same statements and rows whether the files
// were compiled once or fifty times each.
func TestListBadgesDoNotGrowWithJobs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		type cost struct{ stmts, rows int64 }
		var costs []cost
		for _, perFile := range []int{1, 50} {
			l, latest, stmts, rows := listBadges(t, dialect, perFile)
			costs = append(costs, cost{stmts, rows})
			if len(l.Items) != 10 {
				t.Fatalf("%d items", len(l.Items))
			}
			for _, it := range l.Items {
				want := latest[it.Name]
				if it.Job == nil || it.Job.ID != want.ID || it.Job.State != want.State || it.Job.Error != want.ErrorMessage || it.Job.ErrorCode != want.ErrorCode {
					t.Fatalf("%d jobs per file: badge of %s is %+v, want job %d %s %s %q", perFile, it.Name, it.Job, want.ID, want.State, want.ErrorCode, want.ErrorMessage)
				}
				wantSummary := ""
				if it.Name == "f00.md" {
					wantSummary = store.SummaryFresh
				}
				if it.Summary != wantSummary || (wantSummary != "" && it.SummaryURI != "kb://users/alice/wiki/d/f00.md") {
					t.Fatalf("summary badge of %s: %q %q", it.Name, it.Summary, it.SummaryURI)
				}
			}
			if l.Items[1].Job.State != store.JobCancelled || l.Items[2].Job.State != store.JobQueued {
				t.Fatalf("latest states: %+v %+v", l.Items[1].Job, l.Items[2].Job)
			}
		}
		t.Logf("%s: listing 10 files: %d statements, %d rows with 10 jobs; %d statements, %d rows with 500 jobs",
			dialect, costs[0].stmts, costs[0].rows, costs[1].stmts, costs[1].rows)
		if costs[0] != costs[1] {
			t.Fatalf("the listing's cost grows with the jobs: %+v for 10 jobs, %+v for 500", costs[0], costs[1])
		}
	})
}
