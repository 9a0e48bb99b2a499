package store

import (
	"context"
	"fmt"
)

// BlobBytes sums the sizes of the distinct blobs file versions reference:
// one blob shared by many files counts once, as it is stored once.
func (s *Store) BlobBytes(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Raw(`SELECT COALESCE(SUM(size), 0) FROM
		(SELECT blob_hash, MAX(size) AS size FROM file_versions WHERE blob_hash <> '' GROUP BY blob_hash) AS blobs`).
		Scan(&n).Error
	return n, translate(err)
}

// CountJobsByState counts every user's compile jobs by state; a state
// without jobs answers 0.
func (s *Store) CountJobsByState(ctx context.Context) (map[string]int64, error) {
	var rows []struct {
		State string
		N     int64
	}
	err := s.db.WithContext(ctx).Model(&Job{}).Select("state, COUNT(*) AS n").Group("state").Scan(&rows).Error
	if err != nil {
		return nil, translate(err)
	}
	out := map[string]int64{JobQueued: 0, JobRunning: 0, JobSucceeded: 0, JobFailed: 0, JobCancelled: 0}
	for _, r := range rows {
		out[r.State] = r.N
	}
	return out, nil
}

// MigrationVersions reports the schema version the database is at and the
// latest one this binary embeds; they differ while migrations are behind.
// It takes no migration lock: a readiness probe must never wait on one.
func (s *Store) MigrationVersions(ctx context.Context) (current, latest int64, err error) {
	sqlDB, err := s.db.DB()
	if err != nil {
		return 0, 0, err
	}
	p, err := migrator(sqlDB, s.dialect)
	if err != nil {
		return 0, 0, err
	}
	current, latest, err = p.GetVersions(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read the schema version: %w", err)
	}
	return current, latest, nil
}
