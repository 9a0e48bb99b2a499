package store

import "context"

// Overview is the admin dashboard's counts, across every user.
type Overview struct {
	Users         int64
	DisabledUsers int64
	Admins        int64
	// Files and Bytes count the live files of every tree (not the trash
	// or older versions); Bytes is the sum of their sizes.
	Files int64
	Bytes int64
	// Jobs counts jobs by state; every state is present.
	Jobs map[string]int64
}

// Overview counts users, files and jobs.
func (s *Store) Overview(ctx context.Context) (Overview, error) {
	db := s.db.WithContext(ctx)
	var o Overview
	var users struct{ Total, Disabled, Admins int64 }
	err := db.Table("users").Select(`COUNT(*) AS total,
		COALESCE(SUM(CASE WHEN disabled THEN 1 ELSE 0 END), 0) AS disabled,
		COALESCE(SUM(CASE WHEN role = ? THEN 1 ELSE 0 END), 0) AS admins`, RoleAdmin).Scan(&users).Error
	if err != nil {
		return o, translate(err)
	}
	o.Users, o.DisabledUsers, o.Admins = users.Total, users.Disabled, users.Admins
	var files struct{ N, Bytes int64 }
	err = db.Table("nodes").Select("COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes").
		Where("kind = ?", KindFile).Scan(&files).Error
	if err != nil {
		return o, translate(err)
	}
	o.Files, o.Bytes = files.N, files.Bytes
	var rows []struct {
		State string
		N     int64
	}
	if err := db.Table("jobs").Select("state, COUNT(*) AS n").Group("state").Scan(&rows).Error; err != nil {
		return o, translate(err)
	}
	o.Jobs = map[string]int64{JobQueued: 0, JobRunning: 0, JobSucceeded: 0, JobFailed: 0, JobCancelled: 0}
	for _, r := range rows {
		o.Jobs[r.State] = r.N
	}
	return o, nil
}
