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

// writeSearchEntriesPG writes a batch in five statements whatever its
// size, each taking the batch's files as arrays: the files still pending
// at the version read get their rank_docs rows (the rest are left for a
// later round), their search_docs rows locked, lose their old postings,
// get their new ones, and have their body and trigrams stored. Rows are
// locked rank_docs first, as PutUnindexed locks them.
func (tx *Store) writeSearchEntriesPG(es []SearchEntry, cuts []entryCut) (int, error) {
	n := len(es)
	nodes, versions, lens := make([]int64, n), make([]int64, n), make([]int32, n)
	for i, e := range es {
		nodes[i], versions[i], lens[i] = e.Doc.NodeID, e.Doc.VersionID, int32(cuts[i].postings.len)
	}
	var fresh []int64
	if err := tx.db.Raw(`INSERT INTO rank_docs (node_id, user_id, len)
SELECT n.id, n.user_id, t.len
FROM unnest(?::int8[], ?::int8[], ?::int4[]) AS t(node_id, version_id, len)
JOIN nodes n ON n.id = t.node_id
WHERE EXISTS (SELECT 1 FROM search_docs WHERE node_id = t.node_id AND version_id = t.version_id AND pending)
ON CONFLICT (node_id) DO UPDATE SET len = excluded.len
RETURNING node_id`, pgArray(nodes), pgArray(versions), pgArray(lens)).Scan(&fresh).Error; err != nil {
		return 0, err
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	// The batch's rows of search_docs are locked in node order, as a
	// mark of many files (MarkSearchPendingAll) takes them, before the
	// update below takes them in whatever order its plan has.
	if err := tx.db.Exec(`SELECT node_id FROM search_docs WHERE node_id = ANY(?::int8[]) ORDER BY node_id FOR UPDATE`, pgArray(fresh)).Error; err != nil {
		return 0, err
	}
	if err := tx.db.Exec(`DELETE FROM rank_terms WHERE node_id = ANY(?::int8[])`, pgArray(fresh)).Error; err != nil {
		return 0, err
	}
	still := make(map[int64]bool, len(fresh))
	for _, id := range fresh {
		still[id] = true
	}
	var ps []postings
	var keys []int64
	var upNodes, upOld, upNew, lo, hi []int64
	var bodies []string
	for i, e := range es {
		if !still[e.Doc.NodeID] {
			continue
		}
		ps = append(ps, cuts[i].postings)
		upNodes, upOld, upNew = append(upNodes, e.Doc.NodeID), append(upOld, e.Doc.VersionID), append(upNew, e.VersionID)
		bodies = append(bodies, cuts[i].text)
		lo = append(lo, int64(len(keys))+1)
		keys = append(keys, cuts[i].keys...)
		hi = append(hi, int64(len(keys)))
	}
	if err := tx.insertPostings(ps); err != nil {
		return 0, err
	}
	// The trigram keys of all the files are one array, each file's a slice
	// of it: arrays of arrays must be rectangular.
	res := tx.db.Exec(`UPDATE search_docs d SET version_id = t.new_version, indexed = true, pending = false, body = t.body,
	grams = COALESCE((?::int8[])[t.lo:t.hi], '{}')
FROM unnest(?::int8[], ?::int8[], ?::int8[], ?::text[], ?::int8[], ?::int8[]) AS t(node_id, version_id, new_version, body, lo, hi)
WHERE d.node_id = t.node_id AND d.version_id = t.version_id AND d.pending`,
		pgArray(keys), pgArray(upNodes), pgArray(upOld), pgArray(upNew), pgArray(bodies), pgArray(lo), pgArray(hi))
	return int(res.RowsAffected), res.Error
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
