package search_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// proseText is n bytes of words drawn from a vocabulary of 5,000 made-up
// words, a closer stand-in for documents than random letters.
func proseText(r *rand.Rand, n int) []byte {
	vocab := make([]string, 5000)
	for i := range vocab {
		w := make([]byte, 3+r.Intn(9))
		for j := range w {
			w[j] = byte('a' + r.Intn(26))
		}
		vocab[i] = string(w)
	}
	var b bytes.Buffer
	for b.Len() < n {
		b.WriteString(vocab[r.Intn(len(vocab))])
		if r.Intn(14) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.Bytes()[:n]
}

// BenchmarkUploadWithIndex uploads 16 files of 1 MB of text per round, on
// SQLite, alternately to a tree whose index writer runs (the server) and
// to one without it (uploads only mark their text pending), and reports:
// upload throughput with the writer ÷ without, throughput until every
// file is indexed ÷ uploads without, and the p95 time from an upload's
// answer until its file is in the index.
func BenchmarkUploadWithIndex(b *testing.B) {
	const files, size = 16, 1 << 20
	with := newEnvUploading(b, store.DialectSQLite, 4<<20)
	without := newEnvUploading(b, store.DialectSQLite, 4<<20)
	without.tree.SetIndexWriter(nil)
	r := rand.New(rand.NewSource(1))
	ctx := context.Background()
	upload := func(e *env, name string, data []byte) {
		s, err := e.tree.Stage(name, bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.tree.CommitUpload(ctx, e.alice, "kb://me/", []knowledge.Staged{s}, knowledge.ConflictReplace); err != nil {
			b.Fatal(err)
		}
	}
	var withUp, withIndexed, withoutUp time.Duration
	var lags []time.Duration
	for i := 0; i < b.N; i++ {
		texts := make([][]byte, files)
		for j := range texts {
			texts[j] = proseText(r, size)
		}
		start := time.Now()
		for j, t := range texts {
			upload(without, fmt.Sprintf("r%d-%d.txt", i, j), t)
		}
		withoutUp += time.Since(start)

		start = time.Now()
		answered := make([]time.Time, files)
		for j, t := range texts {
			upload(with, fmt.Sprintf("r%d-%d.txt", i, j), t)
			answered[j] = time.Now()
		}
		withUp += time.Since(start)
		// Each file's lag: from its answer until the writer has no
		// pending file answered at or before it.
		for done := 0; done < files; {
			pending, err := with.st.PendingSearchDocs(ctx, files+1)
			if err != nil {
				b.Fatal(err)
			}
			now := time.Now()
			for ; done < files-len(pending); done++ {
				lags = append(lags, now.Sub(answered[done]))
			}
			if done < files {
				time.Sleep(5 * time.Millisecond)
			}
		}
		withIndexed += time.Since(start)
	}
	mb := float64(b.N*files*size) / (1 << 20)
	slices.Sort(lags)
	b.ReportMetric(mb/withoutUp.Seconds(), "MB/s-without-writer")
	b.ReportMetric(mb/withUp.Seconds(), "MB/s-with-writer")
	b.ReportMetric(withoutUp.Seconds()/withUp.Seconds(), "upload-ratio")
	b.ReportMetric(withoutUp.Seconds()/withIndexed.Seconds(), "until-indexed-ratio")
	b.ReportMetric(float64(lags[len(lags)*95/100].Milliseconds()), "p95-ms-to-indexed")
}
