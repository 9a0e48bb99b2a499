package knowledge

import (
	"context"
	"slices"

	"github.com/knowspace/knowspace/internal/store"
)

// DefaultMaxIndexedBytes bounds the text one file puts in the search
// index. A larger body is recorded as not indexed and every search reads
// it: a search stays exact, it only costs more for such files.
const DefaultMaxIndexedBytes int64 = 64 << 20

// IndexWriter writes the search index after the writes that need it have
// committed (package search provides it). The tree kicks it after every
// write; without one, the marked bodies wait and searches read them in
// full.
type IndexWriter interface{ Kick() }

// SetIndexWriter has the tree kick w after every write that commits.
func (t *Tree) SetIndexWriter(w IndexWriter) { t.indexWriter = w }

// KickIndex has the index writer look at the index: a search that found
// it not ready calls it, since on PostgreSQL a database crash may have
// emptied the index while no write came to kick the writer.
func (t *Tree) KickIndex() {
	if t.indexWriter != nil {
		t.indexWriter.Kick()
	}
}

// SetMaxIndexedBytes sets the largest text body the search index holds.
func (t *Tree) SetMaxIndexedBytes(n int64) { t.maxIndexed = n }

// MarkForIndex records, inside the transaction of the write that changed
// them, which text body of each node the index must hold (nothing, for a
// folder or a file without text). The index writer takes them after the
// write commits; until then every search reads them in full, so a file is
// searchable the moment its write commits. It returns how many files wait
// for the index writer.
func (t *Tree) MarkForIndex(ctx context.Context, tx *store.Store, ids ...int64) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	bodies, err := tx.LatestBodies(ctx, ids)
	if err != nil {
		return 0, err
	}
	if t.extracted != nil {
		if _, err := t.markExtractions(ctx, tx, bodies, ids); err != nil {
			return 0, err
		}
	}
	docs, err := tx.SearchDocs(ctx, ids)
	if err != nil {
		return 0, err
	}
	var pending []store.SearchDoc
	for _, id := range ids {
		v, ok := TextBody(bodies[id])
		d, has := docs[id]
		switch {
		case !ok && has:
			err = tx.DropSearchText(ctx, id)
		case !ok, has && d.VersionID == v.ID:
			continue
		case v.Size > t.maxIndexed:
			err = tx.PutUnindexed(ctx, v.NodeID, v.ID)
		default:
			pending = append(pending, store.SearchDoc{NodeID: v.NodeID, VersionID: v.ID})
		}
		if err != nil {
			return 0, err
		}
	}
	return len(pending), tx.MarkSearchPendingAll(ctx, pending)
}

// remarkRenamed has the index writer take a renamed file's text again:
// ranked search weighs the file's name, which its word-index entry holds.
// A folder's rename leaves the names of the files below it as they were.
func remarkRenamed(ctx context.Context, tx *store.Store, id int64) error {
	docs, err := tx.SearchDocs(ctx, []int64{id})
	if err != nil {
		return err
	}
	if d, ok := docs[id]; ok && d.Indexed {
		return tx.MarkSearchPending(ctx, id, d.VersionID)
	}
	return nil
}
