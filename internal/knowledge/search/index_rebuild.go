package search

import (
	"context"
	"log/slog"

	"github.com/knowspace/knowspace/internal/store"
)

// Ensure rebuilds the index when it was made by another version of the
// schema or tokenizer, or never finished, and resumes what a stopped
// server left pending: at start, before serving.
func (w *Index) Ensure(ctx context.Context) error {
	ok, err := w.st.SearchIndexReady(ctx)
	if err != nil {
		return err
	}
	if ok {
		w.Kick() // what a stopped server left pending
		return nil
	}
	slog.Info("search index: rebuilding", "version", w.st.SearchIndexVersion())
	_, err = w.Reindex(ctx)
	return err
}

// Reindex rebuilds the whole index from the stored text bodies: it marks
// every body pending, in small transactions, and has the index writer
// take them (WaitIndexed waits for it). Searches read pending bodies in
// full meanwhile. It returns how many files it marked.
func (w *Index) Reindex(ctx context.Context) (int64, error) {
	if err := w.st.MarkSearchIndex(ctx, false); err != nil {
		return 0, err
	}
	if err := w.st.ClearSearchIndex(ctx); err != nil {
		return 0, err
	}
	var files, pending, after int64
	for {
		ids, err := w.st.FileIDsAfter(ctx, after, 500)
		if err != nil {
			return 0, err
		}
		if len(ids) == 0 {
			break
		}
		err = w.st.InTx(ctx, func(tx *store.Store) error {
			n, err := w.tree.MarkForIndex(ctx, tx, ids...)
			pending += int64(n)
			return err
		})
		if err != nil {
			return 0, err
		}
		files += int64(len(ids))
		after = ids[len(ids)-1]
	}
	if err := w.st.MarkSearchIndex(ctx, true); err != nil {
		return 0, err
	}
	slog.Info("search index: rebuilding in the background", "files", files, "with_text", pending)
	w.Kick()
	return pending, nil
}
