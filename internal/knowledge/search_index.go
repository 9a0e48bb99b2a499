package knowledge

import (
	"context"
	"log/slog"

	"github.com/knowspace/knowspace/internal/store"
)

// maxIndexedBytes bounds the text one file puts in the index. A larger body
// is recorded as not indexed and every search reads it: a search stays
// exact, it only costs more for such files. (A variable for tests.)
var maxIndexedBytes int64 = 64 << 20

// syncIndex records, inside the transaction of the write that changed
// them, which text body of each node the index must hold (nothing, for a
// folder or a file without text). The index writer takes them after the
// write commits (see index_writer.go); until then every search reads them
// in full, so a file is searchable the moment its write commits. It
// returns how many files wait for the index writer.
func (t *Tree) syncIndex(ctx context.Context, tx *store.Store, ids ...int64) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	bodies, err := tx.LatestBodies(ctx, ids)
	if err != nil {
		return 0, err
	}
	if t.extracted != nil {
		if err := t.markExtractions(ctx, tx, bodies, ids); err != nil {
			return 0, err
		}
	}
	docs, err := tx.SearchDocs(ctx, ids)
	if err != nil {
		return 0, err
	}
	pending := 0
	for _, id := range ids {
		v, ok := pickBody(bodies[id])
		d, has := docs[id]
		switch {
		case !ok && has:
			err = tx.DropSearchText(ctx, id)
		case !ok, has && d.VersionID == v.ID:
			continue
		case v.Size > maxIndexedBytes:
			err = tx.PutUnindexed(ctx, v.NodeID, v.ID)
		default:
			err = tx.MarkSearchPending(ctx, v.NodeID, v.ID)
			pending++
		}
		if err != nil {
			return 0, err
		}
	}
	return pending, nil
}

// EnsureIndex rebuilds the index when it was made by another version of
// the schema or tokenizer, or never finished, and resumes what a stopped
// server left pending: at start, before serving.
func (t *Tree) EnsureIndex(ctx context.Context) error {
	ok, err := t.st.SearchIndexReady(ctx)
	if err != nil {
		return err
	}
	if ok {
		t.index.kick() // what a stopped server left pending
		return nil
	}
	slog.Info("search index: rebuilding", "version", t.st.SearchIndexVersion())
	_, err = t.Reindex(ctx)
	return err
}

// Reindex rebuilds the whole index from the stored text bodies: it marks
// every body pending, in small transactions, and has the index writer
// take them (WaitIndexed waits for it). Searches read pending bodies in
// full meanwhile. It returns how many files it marked.
func (t *Tree) Reindex(ctx context.Context) (int64, error) {
	if err := t.st.MarkSearchIndex(ctx, false); err != nil {
		return 0, err
	}
	if err := t.st.ClearSearchIndex(ctx); err != nil {
		return 0, err
	}
	var files, pending, after int64
	for {
		ids, err := t.st.FileIDsAfter(ctx, after, 500)
		if err != nil {
			return 0, err
		}
		if len(ids) == 0 {
			break
		}
		err = t.st.InTx(ctx, func(tx *store.Store) error {
			n, err := t.syncIndex(ctx, tx, ids...)
			pending += int64(n)
			return err
		})
		if err != nil {
			return 0, err
		}
		files += int64(len(ids))
		after = ids[len(ids)-1]
	}
	if err := t.st.MarkSearchIndex(ctx, true); err != nil {
		return 0, err
	}
	slog.Info("search index: rebuilding in the background", "files", files, "with_text", pending)
	t.index.kick()
	return pending, nil
}
