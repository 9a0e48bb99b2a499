// Package search keeps the content index of the knowledge tree: the
// writer that indexes what the tree's writes marked, and the rebuild at
// start or on demand. It reaches the tree through knowledge's seam
// (IndexWriter, MarkForIndex, TextBody); the tree never imports it.
package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/rank"
	"github.com/knowspace/knowspace/internal/store"
)

// Index writes the search index after the writes that need it have
// committed, outside their transactions: indexing a large body takes
// seconds, and inside the write it held SQLite's write lock, and with it
// every other user's writes, that long. The database is its queue
// (search_docs.pending), so what a stopped server left is resumed at
// start, and a replica may take what another marked.
type Index struct {
	st    *store.Store
	blobs *blob.Store
	tree  *knowledge.Tree

	runState
	held int // Hold calls not yet released
	// after, when set, is called once a run has written what waited (the
	// embedder takes the indexed files from there).
	after func()
}

// NewIndex builds the index writer of tree and has the tree kick it after
// every write.
func NewIndex(st *store.Store, blobs *blob.Store, tree *knowledge.Tree) *Index {
	ix := &Index{st: st, blobs: blobs, tree: tree}
	tree.SetIndexWriter(ix)
	return ix
}

// indexBatch is how many pending files one pass reads.
const indexBatch = 200

// maxPostgresWriters bounds the index writer's connections on PostgreSQL
// (the store opens at most 20).
const maxPostgresWriters = 4

// Kick starts the writer, or has the running one look again once done.
func (w *Index) Kick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.held > 0 {
		w.again = true
		return
	}
	if w.begin() {
		go w.run()
	}
}

func (w *Index) run() {
	// Not a request's context: a client that leaves does not stop the
	// index of what it wrote. Requests' writes go first.
	ctx := store.Background(context.Background())
	for {
		n, err := 0, w.recoverLost(ctx)
		if err == nil {
			n, err = w.writePending(ctx)
		}
		if errors.Is(err, store.ErrClosed) {
			w.again = false // the server is stopping; the next start resumes
		} else if err != nil {
			slog.Warn("search index: writing failed; searches read the waiting files in full until the next write", "err", err)
		}
		w.mu.Lock()
		if err == nil && n > 0 || w.again {
			w.again = false
			w.mu.Unlock()
			continue
		}
		w.end()
		after := w.after
		w.mu.Unlock()
		if after != nil {
			after()
		}
		return
	}
}

// Hold lets the index writer finish what waits, then keeps it from
// starting until release is called (searches read what waits in full
// meanwhile): for tests that count a request's own statements.
func (w *Index) Hold(ctx context.Context) (release func(), err error) {
	for {
		if err := w.WaitIndexed(ctx); err != nil {
			return nil, err
		}
		w.mu.Lock()
		if !w.running {
			w.held++
			w.mu.Unlock()
			break
		}
		w.mu.Unlock()
	}
	return sync.OnceFunc(func() {
		w.mu.Lock()
		w.held--
		start := w.held == 0 && w.again
		w.mu.Unlock()
		if start {
			w.Kick()
		}
	}), nil
}

// WaitIndexed returns once the index writer has nothing left to write
// (or failed, or is held): for tests and tools that measure the index.
func (w *Index) WaitIndexed(ctx context.Context) error {
	w.Kick()
	return w.wait(ctx)
}

// writePending indexes one batch of pending files and tells how many it
// took.
func (w *Index) writePending(ctx context.Context) (int, error) {
	docs, err := w.st.PendingSearchDocs(ctx, indexBatch)
	if err != nil || len(docs) == 0 {
		return 0, err
	}
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.NodeID
	}
	bodies, err := w.st.LatestBodies(ctx, ids)
	if err != nil {
		return 0, err
	}
	nodes, err := w.st.NodesByIDs(ctx, ids)
	if err != nil {
		return 0, err
	}
	names := make(map[int64]string, len(nodes))
	for _, n := range nodes {
		names[n.ID] = n.Name
	}
	// Small files go into the index together, a batch of about one chunk
	// per transaction; a large one is written chunk by chunk. The next
	// batch is read and cut on another core while one is written.
	work := make(chan indexWork, 1)
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	go w.prepare(pctx, docs, bodies, names, work)
	// PostgreSQL's own CPU is most of an index write there, so batches go
	// to it on as many connections as there are cores, up to a few of the
	// pool's, which requests need; SQLite has one writer.
	writers := 1
	if w.st.Dialect() == store.DialectPostgres {
		writers = min(runtime.GOMAXPROCS(0), maxPostgresWriters)
	}
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			for wk := range work {
				if errs[i] == nil {
					if errs[i] = w.write(ctx, wk); errs[i] != nil {
						stop()
					}
				}
			}
		})
	}
	wg.Wait()
	if err := cmp.Or(errors.Join(errs...), ctx.Err()); err != nil {
		return 0, err
	}
	return len(docs), nil
}

// write writes one piece of work of the index writer.
func (w *Index) write(ctx context.Context, wk indexWork) error {
	switch {
	case wk.unreadable != nil:
		// Searches go on reading it in full and say so if they cannot.
		slog.Warn("search index: a file's text cannot be read; searches read it in full", "node", wk.large.Doc.NodeID, "err", wk.unreadable)
		return w.st.PutUnindexed(ctx, wk.large.Doc.NodeID, wk.large.Doc.VersionID)
	case wk.batch != nil:
		start := time.Now()
		if _, err := w.st.WriteSearchEntries(ctx, wk.batch); err != nil {
			return err
		}
		// As after a large file's chunk: others get the write lock.
		w.st.Pause(ctx, time.Since(start))
		return nil
	default:
		_, err := w.st.WriteSearchText(ctx, wk.large.Doc, wk.large.VersionID, wk.large.Text, &wk.large.Rank)
		return err
	}
}

// indexWork is what the index writer writes next: a batch of small
// files, or one large file, or one whose text cannot be read.
type indexWork struct {
	batch      []store.SearchEntry
	large      store.SearchEntry
	unreadable error
}

// prepare reads and cuts the bodies of docs into batches of about one
// chunk and large files, in order, and closes work at the end or when ctx
// ends.
func (w *Index) prepare(ctx context.Context, docs []store.SearchDoc, bodies map[int64]map[string]store.FileVersion, names map[int64]string, work chan<- indexWork) {
	defer close(work)
	send := func(wk indexWork) bool {
		select {
		case work <- wk:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var batch []store.SearchEntry
	batchBytes := 0
	for _, d := range docs {
		// Reading and cutting a body is most of a file's CPU: it waits
		// for the requests' writes too, not only its transactions — once
		// per batch of small files.
		if batchBytes == 0 {
			w.st.Yield(ctx)
		}
		v, ok := knowledge.TextBody(bodies[d.NodeID])
		var text, raw string
		if ok {
			var err error
			if text, raw, err = w.readBody(v); err != nil {
				if !send(indexWork{large: store.SearchEntry{Doc: d}, unreadable: err}) {
					return
				}
				continue
			}
		}
		e := store.SearchEntry{Doc: d, VersionID: v.ID, Text: text, Rank: rankDoc(names[d.NodeID], raw)}
		if len(text) > store.SmallSearchBytes {
			if !send(indexWork{large: e}) {
				return
			}
			continue
		}
		w.st.PrepareSearchEntry(&e)
		batch = append(batch, e)
		if batchBytes += len(text) + 1; batchBytes >= store.SmallSearchBytes {
			if !send(indexWork{batch: batch}) {
				return
			}
			batch, batchBytes = nil, 0
		}
	}
	if len(batch) > 0 {
		send(indexWork{batch: batch})
	}
}

// readBody returns the text the trigram index holds for a version,
// folded as the exact matcher folds (so the index's candidates are a
// superset of what the matcher finds), and the text as it is, for the
// word index.
func (w *Index) readBody(v store.FileVersion) (folded, raw string, err error) {
	f, err := w.blobs.Open(v.BlobHash)
	if err != nil {
		return "", "", fmt.Errorf("open blob %s: %w", v.BlobHash, err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.NewSectionReader(f, 0, v.Size))
	if err != nil {
		return "", "", fmt.Errorf("read blob %s: %w", v.BlobHash, err)
	}
	fb, _ := index.Fold(nil, text, nil)
	return string(fb), string(text), nil
}

// rankDoc cuts a file into its word-index entry.
func rankDoc(name, text string) store.RankDoc {
	d := rank.Fields(name, text)
	cut := func(s string) store.RankText {
		words, cjk := rank.Split(s)
		return store.RankText{Words: words, CJK: cjk}
	}
	return store.RankDoc{Name: cut(d.Name), Title: cut(d.Title), Headings: cut(d.Headings), Body: cut(d.Body)}
}

// runState is a background writer's run, shared by the index writer and
// the embedder: whether one runs, whether more came during it, and the
// channel closed when it ends.
type runState struct {
	mu      sync.Mutex
	running bool
	again   bool // more to write came during the current run
	idle    chan struct{}
}

// begin marks a run started, unless one runs (it then looks again once
// done); the caller holds mu and starts the run when it returns true.
func (r *runState) begin() bool {
	if r.running {
		r.again = true
		return false
	}
	r.running, r.again = true, false
	r.idle = make(chan struct{})
	return true
}

// end marks the run over; the caller holds mu.
func (r *runState) end() {
	r.running = false
	close(r.idle)
}

// wait returns once the current run ends, at once when none runs.
func (r *runState) wait(ctx context.Context) error {
	r.mu.Lock()
	idle, running := r.idle, r.running
	r.mu.Unlock()
	if !running {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
