package store

import (
	"context"
	"database/sql"
	"strings"
	"time"
)

// MigrateTo applies migrations up to version only, for upgrade tests.
func MigrateTo(ctx context.Context, db *sql.DB, dialect string, version int64) error {
	p, err := migrator(db, dialect)
	if err != nil {
		return err
	}
	_, err = p.UpTo(ctx, version)
	return err
}

// SQLiteDSN exposes the DSN the store uses for a data dir.
func SQLiteDSN(path string) string { return sqliteDSN(path) }

// Chunking of the SQLite index, for its tests.
const (
	MaxChunkGrams      = maxChunkGrams
	SearchChunkOverlap = searchChunkOverlap
)

// IndexChunkEnds tells where the SQLite index's chunks of text end.
func IndexChunkEnds(text string) []int {
	var ends []int
	for end := range indexChunks(text) {
		ends = append(ends, end)
	}
	return ends
}

// IndexChunkRows counts the FTS rows the index holds for a node.
func (s *Store) IndexChunkRows(ctx context.Context, nodeID int64) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw(`SELECT COUNT(*) FROM search_fts WHERE rowid IN (SELECT id FROM search_chunks WHERE node_id = ?)`, nodeID).Row().Scan(&n)
	return n, err
}

// SetJobUpdatedAt stamps a job's last change, so a test can make ties.
func (s *Store) SetJobUpdatedAt(ctx context.Context, id int64, at time.Time) error {
	return s.db.WithContext(ctx).Model(&Job{}).Where("id = ?", id).Update("updated_at", at).Error
}

// RewriteAuditTarget tries to change an audit event in place, which the
// schema refuses.
func (s *Store) RewriteAuditTarget(ctx context.Context, id int64, target string) error {
	return s.db.WithContext(ctx).Model(&AuditEvent{}).Where("id = ?", id).Update("target", target).Error
}

// RankTermsOf counts the word postings PostgreSQL's index holds for a node.
func (s *Store) RankTermsOf(ctx context.Context, nodeID int64) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw(`SELECT COUNT(*) FROM rank_terms WHERE node_id = ?`, nodeID).Scan(&n).Error
	return n, err
}

// Exec runs one statement, for tests that hold a row's lock as another
// writer would.
func (s *Store) Exec(ctx context.Context, query string, args ...any) error {
	return s.db.WithContext(ctx).Exec(query, args...).Error
}

// BlocksAnother tells whether this connection holds a lock another
// PostgreSQL backend waits for (from pg_locks: pg_stat_activity stays
// as it was at a transaction's first look).
func (s *Store) BlocksAnother(ctx context.Context) (bool, error) {
	var b bool
	err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid)))`).Scan(&b).Error
	return b, err
}

// EnglishLexeme is what the word index holds for w on PostgreSQL.
func EnglishLexeme(w string) (string, bool) { return englishLexeme(w) }

// ServerLexemes are PostgreSQL's own english configuration's lexemes of
// each word of text that its parser takes for a plain word.
func (s *Store) ServerLexemes(ctx context.Context, text string) (map[string][]string, error) {
	rows, err := s.db.WithContext(ctx).Raw(`SELECT token, COALESCE(array_to_string(lexemes, ' '), '') FROM ts_debug('english', ?) WHERE alias IN ('asciiword', 'word', 'numword')`, text).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var token string
		var lexemes string
		if err := rows.Scan(&token, &lexemes); err != nil {
			return nil, err
		}
		out[token] = strings.Fields(lexemes)
	}
	return out, rows.Err()
}
