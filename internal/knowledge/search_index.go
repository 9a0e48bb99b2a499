package knowledge

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/store"
)

// maxIndexedBytes bounds the text one file puts in the index. A larger body
// is recorded as not indexed and every search reads it: a search stays
// exact, it only costs more for such files. (A variable for tests.)
var maxIndexedBytes int64 = 64 << 20

// syncIndex makes the index hold the current text body of each node (or
// nothing, for a folder or a file without text), inside the transaction of
// the write that changed it: a file is searchable when that write commits.
// It returns how many bytes of text it indexed.
func (t *Tree) syncIndex(ctx context.Context, tx *store.Store, ids ...int64) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	bodies, err := tx.LatestBodies(ctx, ids)
	if err != nil {
		return 0, err
	}
	docs, err := tx.SearchDocs(ctx, ids)
	if err != nil {
		return 0, err
	}
	var indexed int64
	for _, id := range ids {
		v, ok := pickBody(bodies[id])
		d, has := docs[id]
		switch {
		case !ok && has:
			err = tx.DropSearchText(ctx, id)
		case !ok, has && d.VersionID == v.ID:
			continue
		case v.Size > maxIndexedBytes:
			err = tx.PutSearchText(ctx, v.NodeID, v.ID, "", false)
		default:
			err = t.indexVersion(ctx, tx, v)
			indexed += v.Size
		}
		if err != nil {
			return 0, err
		}
	}
	return indexed, nil
}

func (t *Tree) indexVersion(ctx context.Context, tx *store.Store, v store.FileVersion) error {
	f, err := t.blobs.Open(v.BlobHash)
	if err != nil {
		return fmt.Errorf("index node %d: open blob %s: %w", v.NodeID, v.BlobHash, err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.NewSectionReader(f, 0, v.Size))
	if err != nil {
		return fmt.Errorf("index node %d: read blob %s: %w", v.NodeID, v.BlobHash, err)
	}
	// The index holds folded text and is asked for folded literals, so its
	// candidates are a superset of what the matcher's folding finds.
	folded, _ := index.Fold(nil, text, nil)
	return tx.PutSearchText(ctx, v.NodeID, v.ID, string(folded), true)
}

// EnsureIndex rebuilds the index when it was made by another version of
// the schema or tokenizer, or never finished: at start, before serving.
func (t *Tree) EnsureIndex(ctx context.Context) error {
	ok, err := t.st.SearchIndexReady(ctx)
	if err != nil || ok {
		return err
	}
	slog.Info("search index: rebuilding", "version", t.st.SearchIndexVersion())
	return t.Reindex(ctx)
}

// Reindex rebuilds the whole index from the stored text bodies, logging
// progress; searches scan until it is done.
func (t *Tree) Reindex(ctx context.Context) error {
	if err := t.st.MarkSearchIndex(ctx, false); err != nil {
		return err
	}
	if err := t.st.ClearSearchIndex(ctx); err != nil {
		return err
	}
	start, last := time.Now(), time.Now()
	var files, bytes, after int64
	for {
		// Small batches keep each transaction, and SQLite's write lock, short.
		ids, err := t.st.FileIDsAfter(ctx, after, 100)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			break
		}
		err = t.st.InTx(ctx, func(tx *store.Store) error {
			n, err := t.syncIndex(ctx, tx, ids...)
			bytes += n
			return err
		})
		if err != nil {
			return err
		}
		files += int64(len(ids))
		after = ids[len(ids)-1]
		if time.Since(last) > 5*time.Second {
			slog.Info("search index: rebuilding", "files", files, "text_mb", bytes>>20)
			last = time.Now()
		}
	}
	if err := t.st.MarkSearchIndex(ctx, true); err != nil {
		return err
	}
	took := time.Since(start)
	slog.Info("search index: ready", "files", files, "text_mb", bytes>>20, "took", took.Round(time.Millisecond),
		"mb_per_s", fmt.Sprintf("%.1f", float64(bytes)/(1<<20)/max(took.Seconds(), 0.001)))
	return nil
}
