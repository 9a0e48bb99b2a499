package importer

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkImportSmallFiles imports a zip of 5,000 small Markdown files
// (50 folders) through the job queue, commit and search index included,
// and reports files/s on each available dialect.
func BenchmarkImportSmallFiles(b *testing.B) {
	const n = 5000
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range n {
		w, _ := zw.Create(fmt.Sprintf("d%02d/note-%05d.md", i%50, i))
		fmt.Fprintf(w, "# Note %d\n\nIt mentions token%05d and a few other words.\n", i, i)
	}
	zw.Close()
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			ctx := context.Background()
			stack := apptest.NewStack(b, dialect)
			st, tree, c := stack.Store, stack.Tree, stack.Caller(b, "alice")
			imp := &Service{Store: st, Tree: tree, MaxUpload: 1 << 20}
			comp := compile.New(compile.Options{Store: st, Tree: tree, Poll: 5 * time.Millisecond,
				Runners: map[string]compile.Runner{Kind: imp}})
			imp.Notify = comp.Notify
			pool := comp.Start(1)
			defer pool.Stop(ctx)
			files := 0
			b.ResetTimer()
			for i := range b.N {
				j, err := imp.Enqueue(ctx, c, Request{URI: "kb://me/", FileName: fmt.Sprintf("run%d.zip", i)}, bytes.NewReader(buf.Bytes()))
				if err != nil {
					b.Fatal(err)
				}
				for {
					got, err := st.JobByID(ctx, c.ID, j.ID)
					if err != nil {
						b.Fatal(err)
					}
					if got.State == store.JobSucceeded {
						break
					}
					if !got.Active() {
						b.Fatalf("import %s: %s %s", got.State, got.ErrorCode, got.ErrorMessage)
					}
					time.Sleep(10 * time.Millisecond)
				}
				files += n
			}
			b.ReportMetric(float64(files)/b.Elapsed().Seconds(), "files/s")
		})
	}
}
