package store

import (
	"context"
	"database/sql"
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
