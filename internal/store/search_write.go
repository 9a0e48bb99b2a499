package store

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// The index writer keeps SQLite's write lock briefly: a body is indexed in
// chunks (indexChunks), one transaction each. Consecutive chunks overlap
// by searchChunkOverlap bytes, so any run of text that long lies whole in
// one chunk; a literal is looked up by its first maxChunkLiteralRunes
// runes (at most that many bytes), a superset of where the literal itself
// is.
const (
	searchChunkOverlap   = 4 << 10
	maxChunkLiteralRunes = searchChunkOverlap / utf8.UTFMax
)

// MarkSearchPending records, inside the write that made version versionID
// the node's text body, that the index must take it. Until the index
// writer has (WriteSearchText), every search reads the body in full.
func (s *Store) MarkSearchPending(ctx context.Context, nodeID, versionID int64) error {
	return s.MarkSearchPendingAll(ctx, []SearchDoc{{NodeID: nodeID, VersionID: versionID}})
}

// MarkSearchPendingAll is MarkSearchPending of many nodes, each at most
// once, a few hundred a statement.
func (s *Store) MarkSearchPendingAll(ctx context.Context, docs []SearchDoc) error {
	for part := range slices.Chunk(docs, rowsPerStatement) {
		args := make([]any, 0, 2*len(part))
		for _, d := range part {
			args = append(args, d.NodeID, d.VersionID)
		}
		err := s.db.WithContext(ctx).Exec(`INSERT INTO search_docs (node_id, version_id, indexed, pending) VALUES `+valueRows(len(part), "(?, ?, false, true)")+`
ON CONFLICT (node_id) DO UPDATE SET version_id = excluded.version_id, indexed = false, pending = true`, args...).Error
		if err != nil {
			return translate(err)
		}
	}
	return nil
}

// PendingSearchDocs returns up to limit bodies waiting for the index.
func (s *Store) PendingSearchDocs(ctx context.Context, limit int) ([]SearchDoc, error) {
	var ds []SearchDoc
	err := s.db.WithContext(ctx).Where("pending = ?", true).Order("node_id").Limit(limit).Find(&ds).Error
	return ds, translate(err)
}

// WriteSearchText makes text (the case-folded body of version versionID)
// the indexed text of d's node, and rank, when given, its word-index
// entry, unless d changed since it was read — a newer write marked it
// again, or the file is gone — which reports false and leaves the newer
// state to a later round. The word index is written first: once the body
// is marked indexed, ranked searches take the file's entry as current. It
// runs outside any transaction: PostgreSQL writes the file as a batch of
// one (WriteSearchEntries), without rank an empty word entry; SQLite
// writes chunk by chunk, pausing between them so that other writers get
// the lock, the word index with the first chunk and the mark with the
// last, so that a file of one chunk costs one transaction.
func (s *Store) WriteSearchText(ctx context.Context, d SearchDoc, versionID int64, text string, rank *RankDoc) (bool, error) {
	if s.dialect == DialectPostgres {
		e := SearchEntry{Doc: d, VersionID: versionID, Text: text}
		if rank != nil {
			e.Rank = *rank
		}
		n, err := s.WriteSearchEntries(ctx, []SearchEntry{e})
		return n == 1, err
	}
	text = cleanSearchText(text)
	first := true
	var written []int64
	for end, chunk := range indexChunks(text) {
		start := time.Now()
		still, marked := false, false
		err := s.InTx(ctx, func(tx *Store) error {
			var err error
			if still, err = tx.stillPending(d); err != nil || !still {
				return err
			}
			if first {
				if err := tx.db.Exec(`DELETE FROM search_chunks WHERE node_id = ?`, d.NodeID).Error; err != nil {
					return err
				}
			}
			var id int64
			if err := tx.db.Raw(`INSERT INTO search_chunks (node_id) VALUES (?) RETURNING id`, d.NodeID).Scan(&id).Error; err != nil {
				return err
			}
			written = append(written, id)
			if end == len(text) {
				if marked, err = tx.markIndexed(d, versionID, written); err != nil {
					return err
				}
			}
			// The FTS5 tables last: a statement on a plain table after them
			// would flush their pending terms early (see writeSearchEntriesSQLite).
			if first && rank != nil {
				if err := tx.writeRankFTS(d, *rank); err != nil {
					return err
				}
			}
			return tx.db.Exec(`INSERT INTO search_fts (rowid, body) VALUES (?, ?)`, id, chunk).Error
		})
		if err != nil || !still {
			return false, err
		}
		if end == len(text) {
			return marked, nil
		}
		first = false
		s.Pause(ctx, time.Since(start))
		if err := ctx.Err(); err != nil {
			return false, err
		}
	}
	return false, nil // indexChunks ends with the text's end
}

// markIndexed marks d's body indexed, in the transaction of its last
// chunk. A rebuild may have emptied the index and marked the file pending
// again (same version) while earlier chunks were written: the row then
// looks unchanged, but the chunks are gone. Only a row whose chunks are
// all still there is marked.
func (tx *Store) markIndexed(d SearchDoc, versionID int64, written []int64) (bool, error) {
	res := tx.db.Exec(`UPDATE search_docs SET version_id = ?, indexed = true, pending = false
WHERE node_id = ? AND version_id = ? AND pending AND (SELECT COUNT(*) FROM search_chunks WHERE node_id = ? AND id IN ?) = ?`,
		versionID, d.NodeID, d.VersionID, d.NodeID, written, len(written))
	return res.RowsAffected == 1, res.Error
}

// cleanSearchText is text as both dialects store it: neither stores NUL,
// and PostgreSQL refuses invalid UTF-8; the index only proposes
// candidates, so a cleaned copy serves.
func cleanSearchText(text string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(text, "\x00", " "), "\uFFFD")
}

func (s *Store) stillPending(d SearchDoc) (bool, error) {
	var n int64
	err := s.db.Table("search_docs").Where("node_id = ? AND version_id = ? AND pending = ?", d.NodeID, d.VersionID, true).Count(&n).Error
	return n == 1, err
}

// chunkMatch keeps the files whose body the index does not hold (too
// large, or pending), and those with every literal in one of their chunks.
func chunkMatch(db *gorm.DB, literals []string) *gorm.DB {
	cond := db.Where("NOT d.indexed")
	match := db
	found := false
	for _, l := range literals {
		terms := ftsQuery(l)
		if terms == "" {
			continue
		}
		found = true
		match = match.Where("n.id IN (?)", db.Raw(`SELECT c.node_id FROM search_chunks c
WHERE c.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)`, terms))
	}
	if !found {
		return db.Where("1 = 1")
	}
	return cond.Or(match)
}
