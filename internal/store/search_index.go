package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SearchIndexVersion names the index's schema and tokenizer. A server that
// finds another name in search_meta rebuilds the index at start.
func (s *Store) SearchIndexVersion() string {
	if s.dialect == DialectPostgres {
		return "int8-grams-gin-folded-1+rank-bm25-postings-snowball-2"
	}
	return "fts5-grams-hex-folded-chunks-3+rank-porter-bigram-1"
}

// MinIndexRunes is the shortest literal the index can look up: both
// dialects' indexes hold three-character grams.
const MinIndexRunes = 3

// SearchDoc says which text body of a file the index holds.
type SearchDoc struct {
	NodeID    int64 `gorm:"primaryKey"`
	VersionID int64
	Indexed   bool
	// Pending: the index writer has yet to take this version.
	Pending bool
}

// PutUnindexed records that the index does not hold the node's body
// (version versionID, too large to index): every search reads it instead.
// The word index's entry of an earlier version goes with it: a ranked
// search counts the file as unranked rather than ranking old text.
func (s *Store) PutUnindexed(ctx context.Context, nodeID, versionID int64) error {
	drop := `DELETE FROM rank_fts WHERE rowid = ?`
	if s.dialect == DialectPostgres {
		drop = `DELETE FROM rank_docs WHERE node_id = ?`
	}
	if err := s.db.WithContext(ctx).Exec(drop, nodeID).Error; err != nil {
		return translate(err)
	}
	return translate(s.db.WithContext(ctx).Exec(`INSERT INTO search_docs (node_id, version_id, indexed, pending) VALUES (?, ?, false, false)
ON CONFLICT (node_id) DO UPDATE SET version_id = excluded.version_id, indexed = false, pending = false`, nodeID, versionID).Error)
}

// DropSearchText removes a node's text from the index.
func (s *Store) DropSearchText(ctx context.Context, nodeID int64) error {
	return translate(s.db.WithContext(ctx).Exec(`DELETE FROM search_docs WHERE node_id = ?`, nodeID).Error)
}

// SearchDocs returns the index rows of the nodes that have one.
func (s *Store) SearchDocs(ctx context.Context, nodeIDs []int64) (map[int64]SearchDoc, error) {
	out := make(map[int64]SearchDoc, len(nodeIDs))
	for part := range slices.Chunk(nodeIDs, 500) {
		var ds []SearchDoc
		if err := s.db.WithContext(ctx).Where("node_id IN ?", part).Find(&ds).Error; err != nil {
			return nil, translate(err)
		}
		for _, d := range ds {
			out[d.NodeID] = d
		}
	}
	return out, nil
}

// FindCandidates picks a page of the files below Root that may hold every
// one of Literals (case-folded as the text was, each at least MinIndexRunes
// long), in path order after the path After (at it when Inclusive).
type FindCandidates struct {
	Root      SearchRoot
	Literals  []string
	After     string
	Inclusive bool
	// Dense says the literals are common (an earlier page found more than
	// a page of candidates): PostgreSQL then tests the files' rows in path
	// order and stops at Limit, instead of first collecting every match of
	// the whole index, which for a common word means rechecking most
	// bodies on every page.
	Dense bool
	Limit int
}

// SearchCandidates returns up to f.Limit files of f whose indexed text
// contains every literal, or whose body the index does not hold. The caller
// confirms each candidate with the exact matcher.
func (s *Store) SearchCandidates(ctx context.Context, f FindCandidates) ([]Node, error) {
	root, after, inclusive, dense, limit := f.Root, f.After, f.Inclusive, f.Dense, f.Limit
	// Cleaned as the stored text was: PostgreSQL refuses a NUL or invalid
	// UTF-8 in a query, and the text holds their replacements.
	literals := make([]string, len(f.Literals))
	for i, l := range f.Literals {
		literals[i] = cleanSearchText(l)
	}
	query := func(db *gorm.DB) ([]Node, error) {
		q := root.under(db.Table("nodes n").Select("n.*").Joins("JOIN search_docs d ON d.node_id = n.id")).
			Where("n.kind = ?", KindFile)
		switch {
		case s.dialect == DialectPostgres && dense:
			// Rows are walked in path order, not found by the index: each
			// is tested by its body alone, since testing its trigrams
			// first would search every literal's in all of the body's.
			cond, args := bodyMatch("d.", literals, false)
			q = q.Where("(NOT d.indexed OR ("+cond+"))", args...)
		case s.dialect == DialectPostgres:
			cond, args := bodyMatch("", literals, true)
			q = q.Where("(NOT d.indexed OR n.id IN (?))", db.Table("search_docs").Select("node_id").Where(cond, args...))
		default:
			q = q.Where(chunkMatch(db, literals))
		}
		switch {
		case after != "" && inclusive:
			q = q.Where("n.path >= ?", after)
		case after != "":
			q = q.Where("n.path > ?", after)
		}
		var ns []Node
		err := q.Order("n.path").Limit(limit).Find(&ns).Error
		return ns, err
	}
	if s.dialect != DialectPostgres || dense {
		ns, err := query(s.db.WithContext(ctx))
		return ns, translate(err)
	}
	// The planner prices a sequential scan of search_docs by its heap, which
	// is small because the bodies live in TOAST, so it prefers reading and
	// matching every body (seconds over 500 MB) to the trigram index
	// (milliseconds). Within this transaction only, it may not.
	var ns []Node
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SET LOCAL enable_seqscan = off").Error; err != nil {
			return err
		}
		var err error
		ns, err = query(tx)
		return err
	})
	return ns, translate(err)
}

// bodyMatch is PostgreSQL's condition on search_docs (its columns
// prefixed) that the body holds every literal; with grams, the literal's
// trigrams among the body's come first, for the GIN index to find.
func bodyMatch(prefix string, literals []string, grams bool) (string, []any) {
	var parts []string
	var args []any
	for _, l := range literals {
		if grams && utf8.RuneCountInString(l) >= MinIndexRunes {
			parts, args = append(parts, prefix+"grams @> ?"), append(args, pgArray(gramKeys(l)))
		}
		parts, args = append(parts, prefix+`body LIKE ? ESCAPE '\'`), append(args, "%"+escapeLike(l)+"%")
	}
	if len(parts) == 0 {
		return "true", nil
	}
	return strings.Join(parts, " AND "), args
}

// CountFilesWithoutText counts the files below root that have no text body
// (binary, or not parsed yet): the index holds nothing for them.
func (s *Store) CountFilesWithoutText(ctx context.Context, root SearchRoot) (int64, error) {
	var n int64
	err := root.under(s.db.WithContext(ctx).Table("nodes n").Joins("LEFT JOIN search_docs d ON d.node_id = n.id")).
		Where("n.kind = ? AND d.node_id IS NULL", KindFile).Count(&n).Error
	return n, translate(err)
}

// search_meta keys: which version built the index, and whether it is
// complete ("ready") or being rebuilt ("building").
const (
	metaIndexVersion = "index_version"
	metaIndexState   = "index_state"
)

// SearchIndexReady tells whether searches may take candidates from the
// index: this binary's version built it, no rebuild is under way, and on
// PostgreSQL no crash has emptied its unlogged tables since. Every search
// asks, so it is one query.
func (s *Store) SearchIndexReady(ctx context.Context) (bool, error) {
	want := 2
	alive := "0"
	if s.dialect == DialectPostgres {
		want, alive = 3, "(SELECT COUNT(*) FROM search_alive)"
	}
	var n int
	err := s.db.WithContext(ctx).Raw(`SELECT COUNT(*) + `+alive+` FROM search_meta WHERE (k = ? AND v = ?) OR (k = ? AND v = ?)`,
		metaIndexVersion, s.SearchIndexVersion(), metaIndexState, "ready").Row().Scan(&n)
	return n == want, translate(err)
}

// ErrIndexLost: PostgreSQL emptied the index's unlogged tables (a crash)
// after they were cleared for a rebuild, so the rebuild's marks are gone
// and it must start over.
var ErrIndexLost = errors.New("search index: the index's tables were emptied by a database crash")

// SearchIndexLost tells whether PostgreSQL emptied the index's unlogged
// tables (a crash) since they were last cleared, or a rebuild of a lost
// index did not finish (MarkSearchIndexLost): searches then scan, and the
// index must be rebuilt although its version is current. Never on
// SQLite, whose index is written with its data.
func (s *Store) SearchIndexLost(ctx context.Context) (bool, error) {
	if s.dialect != DialectPostgres {
		return false, nil
	}
	alive, err := s.searchAlive(ctx)
	return !alive, translate(err)
}

// searchAlive tells whether PostgreSQL's search_alive still holds its row:
// a crash empties it with the index's other unlogged tables.
func (s *Store) searchAlive(ctx context.Context) (bool, error) {
	var alive bool
	err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM search_alive)`).Row().Scan(&alive)
	return alive, err
}

// MarkSearchIndexLost records that the rebuild of a lost index failed
// before its marks were all written, so that the next look at the index
// (SearchIndexLost) starts it again.
func (s *Store) MarkSearchIndexLost(ctx context.Context) error {
	if s.dialect != DialectPostgres {
		return nil
	}
	return translate(s.db.WithContext(ctx).Exec(`DELETE FROM search_alive`).Error)
}

// MarkSearchIndex records that a rebuild starts (ready false: searches
// scan meanwhile) or has finished. On PostgreSQL a rebuild that lost its
// marks to a crash meanwhile cannot finish: ErrIndexLost.
func (s *Store) MarkSearchIndex(ctx context.Context, ready bool) error {
	if !ready {
		return s.setSearchMeta(ctx, metaIndexState, "building")
	}
	return s.InTx(ctx, func(tx *Store) error {
		if tx.dialect == DialectPostgres {
			if alive, err := tx.searchAlive(ctx); err != nil || !alive {
				return cmp.Or(err, ErrIndexLost)
			}
		}
		if err := tx.setSearchMeta(ctx, metaIndexVersion, tx.SearchIndexVersion()); err != nil {
			return err
		}
		return tx.setSearchMeta(ctx, metaIndexState, "ready")
	})
}

func (s *Store) searchMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.db.WithContext(ctx).Raw(`SELECT v FROM search_meta WHERE k = ?`, key).Row().Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, translate(err)
}

func (s *Store) setSearchMeta(ctx context.Context, key, value string) error {
	return translate(s.db.WithContext(ctx).Table("search_meta").Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "k"}}, DoUpdates: clause.AssignmentColumns([]string{"v"}),
	}).Create(map[string]any{"k": key, "v": value}).Error)
}

// ClearSearchIndex empties the index before a rebuild. On PostgreSQL it
// first waits for the index writer's transactions: they update rows in
// node order, and a DELETE locking rows in the table's physical order
// meanwhile deadlocks with them.
func (s *Store) ClearSearchIndex(ctx context.Context) error {
	_, err := s.clearSearchIndex(ctx, false)
	return err
}

// ClearLostSearchIndex starts the rebuild of an index a crash emptied
// (SearchIndexLost): it marks a rebuild under way and clears what was
// written since, unless another server started it first (false).
func (s *Store) ClearLostSearchIndex(ctx context.Context) (bool, error) {
	return s.clearSearchIndex(ctx, true)
}

func (s *Store) clearSearchIndex(ctx context.Context, onlyLost bool) (cleared bool, err error) {
	err = s.InTx(ctx, func(tx *Store) error {
		cleared = false
		if tx.dialect == DialectPostgres {
			if err := tx.db.Exec(`LOCK TABLE search_docs IN EXCLUSIVE MODE`).Error; err != nil {
				return err
			}
			if onlyLost {
				if alive, err := tx.searchAlive(ctx); err != nil || alive {
					return err
				}
				if err := tx.setSearchMeta(ctx, metaIndexState, "building"); err != nil {
					return err
				}
			}
			// From here the emptied tables and the marks the rebuild
			// writes next are what the index holds; a crash before it
			// finishes empties search_alive again.
			if err := tx.db.Exec(`INSERT INTO search_alive VALUES (1) ON CONFLICT DO NOTHING`).Error; err != nil {
				return err
			}
		} else {
			// Emptying the FTS table in one command is far cheaper than
			// letting the trigger delete row by row.
			for _, q := range []string{
				`INSERT INTO search_fts(search_fts) VALUES ('delete-all')`,
				`DELETE FROM search_chunks`,
				`INSERT INTO rank_fts(rank_fts) VALUES ('delete-all')`,
			} {
				if err := tx.db.Exec(q).Error; err != nil {
					return err
				}
			}
			// The rows stay, so that the embeddings, which reference them,
			// outlive the rebuild as on PostgreSQL (where they reference
			// the file). Of no version and not pending, each waits for the
			// rebuild to decide its file again (MarkForIndex).
			cleared = true
			return tx.db.Exec(`UPDATE search_docs SET version_id = 0, indexed = false, pending = false`).Error
		}
		cleared = true
		return tx.db.Exec(`DELETE FROM search_docs`).Error
	})
	return cleared, err
}

// SearchIndexBytes is the space the index takes: on PostgreSQL its table
// with the text copy, TOAST and indexes; on SQLite the payload of the FTS5
// shadow tables (trigrams and words) and search_docs (the text itself stays in the blob store).
func (s *Store) SearchIndexBytes(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	var err error
	if s.dialect == DialectPostgres {
		err = s.db.WithContext(ctx).Raw(`SELECT pg_total_relation_size('search_docs') + pg_total_relation_size('rank_docs') + pg_total_relation_size('rank_terms')`).Row().Scan(&n)
	} else {
		err = s.db.WithContext(ctx).Raw(`SELECT
  (SELECT COALESCE(SUM(LENGTH(block)) + 8 * COUNT(*), 0) FROM search_fts_data) +
  (SELECT COALESCE(SUM(LENGTH(term)) + 16 * COUNT(*), 0) FROM search_fts_idx) +
  (SELECT COALESCE(SUM(LENGTH(sz)) + 8 * COUNT(*), 0) FROM search_fts_docsize) +
  (SELECT 24 * COUNT(*) FROM search_docs) +
  (SELECT 16 * COUNT(*) FROM search_chunks) +
  (SELECT COALESCE(SUM(LENGTH(block)) + 8 * COUNT(*), 0) FROM rank_fts_data) +
  (SELECT COALESCE(SUM(LENGTH(term)) + 16 * COUNT(*), 0) FROM rank_fts_idx) +
  (SELECT COALESCE(SUM(LENGTH(sz)) + 8 * COUNT(*), 0) FROM rank_fts_docsize)`).Row().Scan(&n)
	}
	return n.Int64, translate(err)
}

// FileIDsAfter returns up to limit ids of files, every user's, above after
// in id order: the walk of a rebuild.
func (s *Store) FileIDsAfter(ctx context.Context, after int64, limit int) ([]int64, error) {
	var ids []int64
	err := s.db.WithContext(ctx).Model(&Node{}).Where("kind = ? AND id > ?", KindFile, after).
		Order("id").Limit(limit).Pluck("id", &ids).Error
	return ids, translate(err)
}

// initSearchMeta marks the index of a database without files as built by
// this version: there is nothing to rebuild. A database with files and no
// marks (upgraded from before the index) gets rebuilt at start.
func (s *Store) initSearchMeta(ctx context.Context) error {
	v, err := s.searchMeta(ctx, metaIndexVersion)
	if err != nil || v != "" {
		return err
	}
	var files int64
	if err := s.db.WithContext(ctx).Model(&Node{}).Where("kind = ?", KindFile).Limit(1).Count(&files).Error; err != nil {
		return translate(err)
	}
	if files > 0 {
		return nil
	}
	return s.MarkSearchIndex(ctx, true)
}
