package search

import (
	"context"
	"errors"
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
	for attempt := 1; ; attempt++ {
		if err := w.st.MarkSearchIndex(ctx, false); err != nil {
			return 0, err
		}
		if err := w.st.ClearSearchIndex(ctx); err != nil {
			return 0, err
		}
		pending, err := w.markAll(ctx)
		if !errors.Is(err, store.ErrIndexLost) || attempt == maxRebuilds {
			return pending, err
		}
		slog.Warn("search index: the database crashed during the rebuild; starting it again")
	}
}

// maxRebuilds bounds how often Reindex starts over after losing its
// marks to database crashes.
const maxRebuilds = 3

// recoverLost rebuilds the index when PostgreSQL emptied its unlogged
// tables (a crash) while this server ran: searches scan until it is
// done. Another server that noticed first does it instead.
func (w *Index) recoverLost(ctx context.Context) error {
	lost, err := w.st.SearchIndexLost(ctx)
	if err != nil || !lost {
		return err
	}
	cleared, err := w.st.ClearLostSearchIndex(ctx)
	if err != nil || !cleared {
		return err
	}
	slog.Warn("search index: the database crashed and emptied the index; rebuilding it")
	_, err = w.markAll(ctx)
	switch {
	case errors.Is(err, store.ErrIndexLost):
		return nil // crashed again: the next run finds it lost again
	case err != nil:
		// Not every file is marked: leave the index lost, not "building"
		// for good, so that the next run starts the rebuild again.
		return errors.Join(err, w.st.MarkSearchIndexLost(context.WithoutCancel(ctx)))
	}
	return nil
}

// markAll marks every file's text body pending after the index was
// cleared, and the index ready for searches once they are.
func (w *Index) markAll(ctx context.Context) (int64, error) {
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
