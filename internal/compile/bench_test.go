package compile

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/extract/extracttest"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkCompileThroughput compiles a batch of 32 small files per
// iteration with the fake LLM (3 model calls per file at most: summary,
// and the folder's overview and abstract by the last job) and reports
// jobs/s for 1, 2 and 4 workers on each available dialect. Markdown is
// decoded in the worker; the PDF batches measure what the extraction child
// costs, against parsing the same PDFs in-process in the same run.
func BenchmarkCompileThroughput(b *testing.B) {
	type run struct {
		kind, parse string
		workers     int
	}
	runs := []run{{"md", "", 1}, {"md", "", 2}, {"md", "", 4}, {"pdf", "child", 2}, {"pdf", "in-process", 2}}
	for _, dialect := range storetest.Dialects() {
		for _, r := range runs {
			b.Run(fmt.Sprintf("%s/%s%s/workers=%d", dialect, r.kind, map[string]string{"": "", "child": "/parse=child", "in-process": "/parse=in-process"}[r.parse], r.workers), func(b *testing.B) {
				e := newEnv(b, dialect, func(o *Options) {
					o.Poll = 5 * time.Millisecond
					o.Heartbeat = time.Second
					if r.parse == "in-process" {
						o.Extraction = nil
					}
				})
				workers := r.workers
				e.start(workers)
				jobs := 0
				b.ResetTimer()
				for i := range b.N {
					b.StopTimer()
					folder := fmt.Sprintf("kb://me/batch%d/", i)
					files := map[string][]byte{}
					var uris []string
					for f := range MaxFiles {
						name := fmt.Sprintf("note%02d.%s", f, r.kind)
						text := fmt.Sprintf("Note %d of batch %d: some text to summarize.", f, i)
						files[name] = []byte("# " + text)
						if r.kind == "pdf" {
							files[name] = extracttest.MinimalPDF(text)
						}
						uris = append(uris, folder+name)
					}
					e.put(e.alice, folder, files)
					b.StartTimer()
					res := e.enqueue(e.alice, Request{URIs: uris})
					for _, j := range res.Jobs {
						e.wait(e.alice, j.ID, store.JobSucceeded)
					}
					jobs += len(res.Jobs)
				}
				b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
			})
		}
	}
}

// BenchmarkQueueClaim measures one claim plus its completion on a queue
// of waiting jobs: the queue's own cost, without any job work.
func BenchmarkQueueClaim(b *testing.B) {
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			e := newEnv(b, dialect)
			ctx := context.Background()
			root, _ := e.st.EnsureRoot(ctx, e.alice.ID)
			for i := range b.N {
				n := store.Node{UserID: e.alice.ID, ParentID: &root.ID, Name: fmt.Sprintf("f%d", i), Kind: store.KindFile}
				n.Path = n.Name
				if err := e.st.CreateNode(ctx, &n); err != nil {
					b.Fatal(err)
				}
				j := store.Job{UserID: e.alice.ID, Kind: JobKind, NodeID: &n.ID, Path: n.Path, MaxAttempts: 1}
				if _, _, err := e.st.EnqueueJob(ctx, &j); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				j, err := e.st.ClaimJob(ctx, "bench", time.Minute)
				if errors.Is(err, store.ErrNotFound) {
					b.Fatal("queue empty")
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := e.st.CompleteJob(ctx, j.ID, "bench", "{}"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCompileScannedPage compiles one scanned 300 dpi page (a PNG,
// through the extraction child, fake LLM) per iteration on one worker and
// reports the share of the job's wall time that OCR takes, measured by
// reading the same page in-process in the same run.
func BenchmarkCompileScannedPage(b *testing.B) {
	if !(extract.OCR{}).Status().Available {
		b.Skip("needs Tesseract: " + extract.OCRInstallHint)
	}
	p, err := extracttest.RenderText("A scanned page: the harbour office kept 2,450 boxes of letters, maps and ledgers, each filed by the clerk on duty.", 300)
	if err != nil {
		b.Skip(err)
	}
	raw := p.PNG()
	e := newEnv(b, "sqlite", func(o *Options) { o.Poll = 5 * time.Millisecond; o.Heartbeat = time.Second })
	e.start(1)
	var ocr time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		folder := fmt.Sprintf("kb://me/scan%d/", i)
		e.put(e.alice, folder, map[string][]byte{"page.png": raw})
		start := time.Now()
		if _, err := extract.Extract(context.Background(), "page.png", raw, extract.Limits{}); err != nil {
			b.Fatal(err)
		}
		ocr += time.Since(start)
		b.StartTimer()
		res := e.enqueue(e.alice, Request{URIs: []string{folder + "page.png"}})
		e.wait(e.alice, res.Jobs[0].ID, store.JobSucceeded)
	}
	b.ReportMetric(100*ocr.Seconds()/b.Elapsed().Seconds(), "ocr-%-of-job")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}
