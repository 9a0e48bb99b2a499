package search

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/rank"
	"github.com/knowspace/knowspace/internal/store"
)

// Embedder writes meaning search's vectors: after the index writer has
// indexed a file's text, the embedder cuts it into chunks (embed.Chunk),
// asks the embedding model for their vectors in batches, and stores them.
// The database is its queue (a file waits while its indexed version has
// no embedding under the model in use), so a restart or a changed model
// resumes where it is. A model that cannot be reached is asked again
// after a pause, growing to embedRetryMax; meanwhile meaning answers count
// the waiting files as pending.
type Embedder struct {
	st    *store.Store
	blobs *blob.Store
	model knowledge.Meaning
	// Budget, when set before the first Kick, is asked before each batch:
	// embeddings are filed under no user, so only global budgets apply.
	Budget BudgetCheck

	runState
	retry   *time.Timer
	backoff time.Duration
	lastErr string
	ready   string // the key whose vector index is ensured
}

// BudgetCheck refuses work over a budget (usage.Budgets).
type BudgetCheck interface {
	Check(ctx context.Context, userID int64) error
}

// Embedding limits: a pass takes embedFiles files; a file's first
// embedMaxBytes of text are embedded (a longer body is found by its
// beginning, as the word index finds it).
const (
	embedFiles     = 16
	embedMaxBytes  = rank.MaxBodyBytes
	embedRetryMin  = 5 * time.Second
	embedRetryMax  = 5 * time.Minute
	dropOldPerPass = 500
)

// NewEmbedder makes model the embedding model of ix's tree (meaning and
// hybrid search) and builds the embedder of its files, kicked by the index
// writer ix whenever it has written.
func NewEmbedder(ix *Index, model knowledge.Meaning) *Embedder {
	e := &Embedder{st: ix.st, blobs: ix.blobs, model: model}
	ix.tree.SetMeaning(model)
	// Under the writer's lock: it may be running already (a restart resumes
	// what waited before the embedder is built).
	ix.mu.Lock()
	ix.after = e.Kick
	ix.mu.Unlock()
	return e
}

// Kick starts the embedder, or has the running one look again once done.
func (e *Embedder) Kick() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.retry != nil && !e.running {
		return // a pause after a failure: the timer kicks
	}
	if e.begin() {
		go e.run()
	}
}

// LastError is why the model was last not reached ("" once it answers).
func (e *Embedder) LastError() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lastErr
}

func (e *Embedder) run() {
	ctx := store.Background(context.Background()) // requests' writes go first
	for {
		n, err := e.pass(ctx)
		e.mu.Lock()
		switch {
		case err == nil:
			e.backoff, e.lastErr = 0, ""
		case errors.Is(err, store.ErrClosed):
			e.again = false
		default:
			e.backoff = min(max(2*e.backoff, embedRetryMin), embedRetryMax)
			e.lastErr = err.Error()
			slog.Warn("meaning search: embedding paused; files wait until the model answers or the global budget resets", "retry_in", e.backoff, "err", err)
			e.retry = time.AfterFunc(e.backoff, func() {
				e.mu.Lock()
				e.retry = nil
				e.mu.Unlock()
				e.Kick()
			})
			e.again = false
			n = 0
		}
		if err == nil && n > 0 || e.again {
			e.again = false
			e.mu.Unlock()
			continue
		}
		e.end()
		e.mu.Unlock()
		return
	}
}

// WaitEmbedded returns once the embedder has nothing left to embed (or
// is paused after a failure): for tests and tools that measure.
func (e *Embedder) WaitEmbedded(ctx context.Context) error {
	e.Kick()
	return e.wait(ctx)
}

// pass embeds one batch of waiting files, or, with none waiting, drops
// vectors of other models; it tells how many files it took.
func (e *Embedder) pass(ctx context.Context) (int, error) {
	if s, ok := e.model.(knowledge.Switchable); ok && !s.InUse() {
		return 0, nil // files wait for an admin to put a model in use
	}
	// Before the model is asked anything (its key may probe it).
	if e.Budget != nil {
		if err := e.Budget.Check(ctx, 0); err != nil {
			return 0, err // waits, as for a model that does not answer
		}
	}
	key, err := e.model.Key(ctx)
	if err != nil {
		return 0, err
	}
	if e.ready != key {
		if err := e.ensureIndex(ctx, key); err != nil {
			return 0, err
		}
		e.ready = key
	}
	docs, err := e.st.PendingEmbeds(ctx, key, 0, embedFiles)
	if err != nil {
		return 0, err
	}
	if len(docs) == 0 {
		n, err := e.st.DropOtherEmbeddings(ctx, key, dropOldPerPass)
		return int(n), err
	}
	files, err := e.read(ctx, docs)
	if err != nil {
		return 0, err
	}
	if err := e.embedAll(ctx, files); err != nil {
		var ee *embed.Error
		if !errors.As(err, &ee) || !ee.Input {
			return 0, err
		}
		// A model that refuses one text refuses the batch: each file is
		// asked alone, so only the file it refuses is marked failed.
		for i := range files {
			if err := e.embedAll(ctx, files[i:i+1]); err != nil {
				if !errors.As(err, &ee) || !ee.Input {
					return 0, err
				}
				files[i].failed = err.Error()
			}
		}
	}
	for _, f := range files {
		if _, err := e.st.WriteEmbedding(ctx, f.doc, key, f.chunks, f.failed); err != nil {
			return 0, err
		}
	}
	return len(docs), nil
}

func (e *Embedder) ensureIndex(ctx context.Context, key string) error {
	var dims int
	if i := strings.LastIndexByte(key, '|'); i >= 0 {
		fmt.Sscan(key[i+1:], &dims)
	}
	return e.st.EnsureVectorIndex(ctx, dims)
}

// embedFile is one waiting file: its text, the pieces to embed, and what
// comes back.
type embedFile struct {
	doc    store.SearchDoc
	name   string
	text   string
	pieces []embed.Piece
	chunks []store.EmbedChunk
	failed string
}

// read returns the waiting files whose indexed body is still their text
// (a file changed since waits for the index writer, then comes again).
func (e *Embedder) read(ctx context.Context, docs []store.SearchDoc) ([]embedFile, error) {
	ids := make([]int64, len(docs))
	for i, d := range docs {
		ids[i] = d.NodeID
	}
	bodies, err := e.st.LatestBodies(ctx, ids)
	if err != nil {
		return nil, err
	}
	nodes, err := e.st.NodesByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	names := make(map[int64]string, len(nodes))
	for _, n := range nodes {
		names[n.ID] = n.Name
	}
	var out []embedFile
	for _, d := range docs {
		f := embedFile{doc: d, name: names[d.NodeID]}
		if v, ok := knowledge.TextBody(bodies[d.NodeID]); ok && v.ID == d.VersionID {
			text, err := e.readText(v)
			if err != nil {
				slog.Warn("meaning search: a file's text cannot be read; it is not embedded", "node", d.NodeID, "err", err)
				f.failed = "its text cannot be read"
			}
			f.text = text
			f.pieces = embed.Chunk(text)
		} else if ok {
			continue // changed since it was indexed
		}
		out = append(out, f)
	}
	return out, nil
}

func (e *Embedder) readText(v store.FileVersion) (string, error) {
	r, err := e.blobs.Open(v.BlobHash)
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(io.NewSectionReader(r, 0, min(v.Size, embedMaxBytes)))
	if err != nil {
		return "", err
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}

// embedAll asks the model for the vectors of the files' pieces, a batch
// of the model's size per request, across files.
func (e *Embedder) embedAll(ctx context.Context, files []embedFile) error {
	type ref struct{ file, piece int }
	var inputs []string
	var refs []ref
	for i := range files {
		files[i].chunks = files[i].chunks[:0]
		if files[i].failed != "" {
			continue
		}
		for j, p := range files[i].pieces {
			inputs = append(inputs, p.Input(files[i].name, files[i].text))
			refs = append(refs, ref{i, j})
		}
	}
	size := e.model.BatchSize()
	for start := 0; start < len(inputs); start += size {
		end := min(start+size, len(inputs))
		vs, err := e.model.Embed(ctx, inputs[start:end])
		if err != nil {
			return err
		}
		for k, v := range vs {
			r := refs[start+k]
			p := files[r.file].pieces[r.piece]
			files[r.file].chunks = append(files[r.file].chunks, store.EmbedChunk{Start: p.Start, End: p.End, Line: p.Line, Vec: v})
		}
	}
	return nil
}
