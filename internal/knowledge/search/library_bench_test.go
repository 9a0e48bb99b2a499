package search_test

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/testsupport/searchcorpus"
)

// libraryMB is the default size of BenchmarkLibrarySearchable's library:
// 10,000 files of the search corpus's kind at a tenth of its bytes, so the
// median file is a few kilobytes and the largest a few megabytes, as in a
// documentation folder.
const libraryMB = 50

// BenchmarkLibrarySearchable is #38's "the 10,000-file library searchable
// in ≤ 2× the plain pipeline's time": a library of 10,000 generated text
// files in 400 folders (English, Chinese and mixed prose; log-normal
// sizes; KB_BENCH_LIBRARY_MB and KB_BENCH_LIBRARY_FILES make another) is uploaded 64 files per
// request and timed until the index writer holds every file, against the
// same upload to a tree without the index writer (the files stored and
// nothing else) in the same iteration. Each iteration runs both sides
// twice, in the order plain, indexed, indexed, plain, so load that comes
// and goes on the shared machine falls on both. A rare word is searched
// afterwards and must be answered from the index, complete.
func BenchmarkLibrarySearchable(b *testing.B) {
	mbs, files := envInt(b, "KB_BENCH_LIBRARY_MB", libraryMB), envInt(b, "KB_BENCH_LIBRARY_FILES", 10_000)
	c, _, err := searchcorpus.Ensure(searchcorpus.Config{Seed: searchcorpus.DefaultSeed, Files: files, Bytes: int64(mbs) << 20})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			with := newEnvUploading(b, dialect, 1<<30)
			without := newEnvUploading(b, dialect, 1<<30)
			without.tree.SetIndexWriter(nil)
			users := 0
			var plainT, indexedT, uploadsT time.Duration
			plain := func() time.Duration {
				u := newCorpusUser(b, without, users)
				users++
				start := time.Now()
				ingestCorpus(b, without, u, c)
				return time.Since(start)
			}
			indexed := func() time.Duration {
				u := newCorpusUser(b, with, users)
				users++
				start := time.Now()
				ingestCorpus(b, with, u, c)
				uploadsT += time.Since(start)
				if err := with.index.WaitIndexed(ctx); err != nil {
					b.Fatal(err)
				}
				took := time.Since(start)
				term := c.Rare[0]
				res := with.searchFor(u, corpusFolder, term.Text)
				if !res.Complete || res.Mode != "index" || len(res.Hits) == 0 {
					b.Fatalf("search %q after indexing: complete %v, mode %q, %d hits", term.Text, res.Complete, res.Mode, len(res.Hits))
				}
				return took
			}
			for b.Loop() {
				plainT += plain()
				indexedT += indexed()
				indexedT += indexed()
				plainT += plain()
			}
			n := float64(2 * b.N)
			b.Logf("library: %d files, %.1f MB; plain %v, indexed %v per upload", len(c.Files), mb(c.Bytes),
				(plainT / time.Duration(2*b.N)).Round(time.Millisecond), (indexedT / time.Duration(2*b.N)).Round(time.Millisecond))
			b.ReportMetric(plainT.Seconds()/n, "plain-s")
			b.ReportMetric(indexedT.Seconds()/n, "searchable-s")
			b.ReportMetric(indexedT.Seconds()/plainT.Seconds(), "ratio")
			// Of searchable-s, the uploads themselves (slowed by the writer
			// working beside them); the rest is the index catching up.
			b.ReportMetric(uploadsT.Seconds()/n, "uploads-s")
			b.ReportMetric(mb(c.Bytes)*n/indexedT.Seconds(), "MB/s-searchable")
			b.ReportMetric(float64(len(c.Files))*n/indexedT.Seconds(), "files/s-searchable")
		})
	}
}

// envInt is the positive whole number in the environment variable name,
// or def when it is not set.
func envInt(b *testing.B, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		b.Fatalf("%s=%q: want a positive whole number", name, s)
	}
	return n
}
