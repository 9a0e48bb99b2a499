package store

import (
	"context"
	"errors"
)

// SnapshotSQLite writes a consistent copy of the SQLite database to path
// (VACUUM INTO runs as one read transaction, so writers keep going).
func (s *Store) SnapshotSQLite(ctx context.Context, path string) error {
	if s.dialect != DialectSQLite {
		return errors.New("snapshot: the database is not SQLite")
	}
	return translate(s.db.WithContext(ctx).Exec("VACUUM INTO ?", path).Error)
}
