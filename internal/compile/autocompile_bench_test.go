package compile

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkAutoCompileResync5000 syncs the same 5,000 files (10 folders of
// 500) into a folder kept compiled whose summaries and overviews are up to
// date, and reports what the second sync costs: the upload with its
// change marks, then the scan that finds nothing to queue. Summaries are
// published directly with the fingerprints a compile would record, so the
// setup makes no 5,000 model calls.
func BenchmarkAutoCompileResync5000(b *testing.B) {
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			e := newEnv(b, dialect)
			ctx := context.Background()
			files := map[string]string{}
			for i := range 5000 {
				files[fmt.Sprintf("d%d/f%04d.md", i%10, i)] = fmt.Sprintf("# File %d\nbody %d", i, i)
			}
			sync := func() {
				batch := map[string]string{}
				for name, body := range files {
					batch[name] = body
					if len(batch) == knowledge.MaxUploadFiles {
						e.upload(e.alice, "kb://me/big/", batch)
						batch = map[string]string{}
					}
				}
				if len(batch) > 0 {
					e.upload(e.alice, "kb://me/big/", batch)
				}
			}
			if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/big/"); err != nil {
				b.Fatal(err)
			}
			sync()
			if _, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/big/", QuietS: intp(0)}); err != nil {
				b.Fatal(err)
			}
			e.publishUpToDate(b, "big")
			if _, err := e.svc.RunDueAuto(ctx, "bench"); err != nil {
				b.Fatal(err)
			}
			if n := e.jobCounts(e.alice); len(n) != 0 {
				b.Fatalf("up-to-date folder queued %v", n)
			}
			var upload, scan time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				sync()
				t1 := time.Now()
				if done, err := e.svc.RunDueAuto(ctx, "bench"); err != nil || done {
					b.Fatalf("scan: %v %v", done, err)
				}
				upload, scan = upload+t1.Sub(t0), scan+time.Since(t1)
			}
			b.StopTimer()
			if n := e.jobCounts(e.alice); len(n) != 0 {
				b.Fatalf("the same 5,000 files again queued %v", n)
			}
			b.ReportMetric(upload.Seconds()/float64(b.N), "upload-s/op")
			b.ReportMetric(scan.Seconds()/float64(b.N), "scan-s/op")
		})
	}
}

// publishUpToDate writes, for every folder below root, the summaries and
// the overview a compile with the folder's saved choices would have left.
func (e *env) publishUpToDate(b *testing.B, root string) {
	ctx := context.Background()
	a, err := e.st.AutoCompileOf(ctx, e.alice.ID, mustNodeB(b, e, root).ID)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := e.svc.snapshot(ctx, e.alice, Request{URIs: []string{"kb://me/" + root + "/"}})
	if err != nil || a.RequestJSON == "" {
		b.Fatal(err)
	}
	dirs, err := e.svc.sourceDirs(ctx, mustNodeB(b, e, root), knowledge.GeneratedRoot+"/"+root)
	if err != nil {
		b.Fatal(err)
	}
	for _, d := range dirs {
		ids := make([]int64, len(d.files))
		for i, f := range d.files {
			ids[i] = f.ID
		}
		bodies, err := e.st.LatestBodies(ctx, ids)
		if err != nil {
			b.Fatal(err)
		}
		var gen []knowledge.GeneratedFile
		for _, f := range d.files {
			h := bodies[f.ID][store.BodyRaw].BlobHash
			id := f.ID
			gen = append(gen, knowledge.GeneratedFile{Name: summaryName(f.Name), Text: "summary of " + f.Name,
				Provenance: store.Provenance{Role: store.RoleSummary, Fingerprint: snap.fingerprint(store.RoleSummary, h),
					SourceNodeID: &id, SourceHash: h, SourcesJSON: "[]"}})
		}
		if len(gen) == 0 {
			continue
		}
		ns, err := e.tree.Publish(ctx, e.alice, d.out, gen, nil)
		if err != nil {
			b.Fatal(err)
		}
		sums := make([]int64, len(ns))
		for i, n := range ns {
			sums[i] = n.ID
		}
		sb, err := e.st.LatestBodies(ctx, sums)
		if err != nil {
			b.Fatal(err)
		}
		var refs []string
		for _, n := range ns {
			refs = append(refs, fmt.Sprintf(`{"uri":%q,"sha256":%q}`, kb.NodeURI(e.alice.Username, n.Path, false), sb[n.ID][store.BodyRaw].BlobHash))
		}
		if _, err := e.tree.Publish(ctx, e.alice, d.out, []knowledge.GeneratedFile{{Name: OverviewName, Text: "overview",
			Provenance: store.Provenance{Role: store.RoleOverview, Fingerprint: "x", SourcesJSON: "[" + strings.Join(refs, ",") + "]"}}}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func mustNodeB(b *testing.B, e *env, path string) store.Node {
	n, err := e.st.NodeByPath(context.Background(), e.alice.ID, path)
	if err != nil {
		b.Fatal(err)
	}
	return n
}
