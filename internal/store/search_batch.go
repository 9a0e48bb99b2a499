package store

import "context"

// SmallSearchBytes is the largest folded text WriteSearchEntries takes,
// indexed whole as one row of the trigram index.
const SmallSearchBytes = 256 << 10

// SearchEntry is a small file's entries in both indexes: the folded text
// of its body's version VersionID (at most SmallSearchBytes) and its word
// index entry.
type SearchEntry struct {
	Doc       SearchDoc
	VersionID int64
	Text      string
	Rank      RankDoc
	// cut is what PrepareSearchEntry made of it ahead of the write.
	cut *entryCut
}

// entryCut is an entry as the dialect's indexes take it: its text's
// distinct trigrams, and on PostgreSQL the cleaned text and its word
// postings.
type entryCut struct {
	terms    string  // SQLite: FTS5 terms
	keys     []int64 // PostgreSQL: int8 keys
	text     string  // PostgreSQL: the text as stored
	postings postings
}

// PrepareSearchEntry does the part of writing e that needs no database,
// so that it can run while another batch is written: cutting the text's
// trigrams, and on PostgreSQL its words.
func (s *Store) PrepareSearchEntry(e *SearchEntry) {
	text := cleanSearchText(e.Text)
	if s.dialect == DialectSQLite {
		e.cut = &entryCut{terms: gramTerms(text)}
	} else {
		e.cut = &entryCut{keys: gramKeys(text), text: text, postings: rankPostingsOf(e.Doc.NodeID, e.Rank)}
	}
}

// WriteSearchEntries indexes many small files in one transaction: a
// library of small files costs a transaction (and, on SQLite, one wait
// for the requests' writes) per batch, not three per file. A file that
// changed since it was read is left pending for a later round; it returns
// how many were written.
func (s *Store) WriteSearchEntries(ctx context.Context, es []SearchEntry) (int, error) {
	written := 0
	// Cut before the write lock is taken.
	cuts := make([]entryCut, len(es))
	for i, e := range es {
		if e.cut == nil {
			s.PrepareSearchEntry(&e)
		}
		cuts[i] = *e.cut
	}
	err := s.InTx(ctx, func(tx *Store) error {
		var err error
		if tx.dialect == DialectPostgres {
			written, err = tx.writeSearchEntriesPG(es, cuts)
		} else {
			written, err = tx.writeSearchEntriesSQLite(es, cuts)
		}
		return err
	})
	return written, err
}

func (tx *Store) writeSearchEntriesPG(es []SearchEntry, cuts []entryCut) (int, error) {
	written := 0
	var ps []postings
	for i, e := range es {
		d := e.Doc
		if still, err := tx.stillPending(d); err != nil || !still {
			if err != nil {
				return 0, err
			}
			continue
		}
		ok, err := tx.putRankDoc(d, cuts[i].postings)
		if err != nil {
			return 0, err
		}
		if ok {
			ps = append(ps, cuts[i].postings)
		}
		res := tx.db.Exec(`UPDATE search_docs SET version_id = ?, indexed = true, pending = false, body = ?, grams = ?
WHERE node_id = ? AND version_id = ? AND pending`, e.VersionID, cuts[i].text, pgArray(cuts[i].keys), d.NodeID, d.VersionID)
		if res.Error != nil {
			return 0, res.Error
		}
		written += int(res.RowsAffected)
	}
	return written, tx.insertPostings(ps)
}

// writeSearchEntriesSQLite writes the plain tables' rows of every entry
// first and the two FTS5 tables' after them. FTS5 keeps a transaction's
// new terms in memory and flushes them to a new segment whenever a
// statement opens a savepoint, which the plain tables' statements do
// (foreign keys); interleaved per file, that made a segment per file and
// table and cost more than everything else of the entry together
// (profiled on a 10,000-file library). In this order the terms of the
// whole batch are flushed once, at the commit.
func (tx *Store) writeSearchEntriesSQLite(es []SearchEntry, cuts []entryCut) (int, error) {
	type row struct {
		e     *SearchEntry
		terms string
		chunk int64
	}
	var rows []row
	for i := range es {
		e := &es[i]
		d := e.Doc
		if still, err := tx.stillPending(d); err != nil {
			return 0, err
		} else if !still {
			continue
		}
		var had bool
		if err := tx.db.Raw(`SELECT EXISTS (SELECT 1 FROM search_chunks WHERE node_id = ?)`, d.NodeID).Scan(&had).Error; err != nil {
			return 0, err
		}
		if had {
			if err := tx.db.Exec(`DELETE FROM search_chunks WHERE node_id = ?`, d.NodeID).Error; err != nil {
				return 0, err
			}
		}
		var id int64
		if err := tx.db.Raw(`INSERT INTO search_chunks (node_id) VALUES (?) RETURNING id`, d.NodeID).Scan(&id).Error; err != nil {
			return 0, err
		}
		if err := tx.db.Exec(`UPDATE search_docs SET version_id = ?, indexed = true, pending = false
WHERE node_id = ? AND version_id = ? AND pending`, e.VersionID, d.NodeID, d.VersionID).Error; err != nil {
			return 0, err
		}
		rows = append(rows, row{e, cuts[i].terms, id})
	}
	for _, r := range rows {
		if err := tx.writeRankFTS(r.e.Doc, r.e.Rank); err != nil {
			return 0, err
		}
	}
	for _, r := range rows {
		if err := tx.db.Exec(`INSERT INTO search_fts (rowid, body) VALUES (?, ?)`, r.chunk, r.terms).Error; err != nil {
			return 0, err
		}
	}
	return len(rows), nil
}
