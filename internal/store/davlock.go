package store

import (
	"context"
	"time"
)

// DavLock is a WebDAV lock on a path of a user's tree (see migration 00015).
type DavLock struct {
	Token     string `gorm:"primaryKey"`
	UserID    int64
	Root      string // "" for the root; the path need not exist
	ZeroDepth bool
	OwnerXML  string `gorm:"column:owner_xml"`
	// DurationS is the timeout the client asked for, -1 for infinite
	// (ExpiresAt is then the server's cap).
	DurationS int64 `gorm:"column:duration_s"`
	ExpiresAt time.Time
	CreatedAt time.Time
}

// DavLocks returns the user's locks that have not expired at now.
func (s *Store) DavLocks(ctx context.Context, userID int64, now time.Time) ([]DavLock, error) {
	var ls []DavLock
	err := s.db.WithContext(ctx).Where("user_id = ? AND expires_at > ?", userID, now.UTC()).
		Order("root").Find(&ls).Error
	return ls, translate(err)
}

// DavLockByToken finds an unexpired lock of the user by its token.
func (s *Store) DavLockByToken(ctx context.Context, userID int64, token string, now time.Time) (DavLock, error) {
	var l DavLock
	err := s.db.WithContext(ctx).Where("token = ? AND user_id = ? AND expires_at > ?", token, userID, now.UTC()).Take(&l).Error
	return l, translate(err)
}

// CreateDavLock inserts l; the caller checked for conflicts in the same
// transaction, after LockTree.
func (s *Store) CreateDavLock(ctx context.Context, l *DavLock) error {
	l.ExpiresAt, l.CreatedAt = l.ExpiresAt.UTC(), time.Now().UTC()
	return translate(s.db.WithContext(ctx).Create(l).Error)
}

// RefreshDavLock gives an unexpired lock a new timeout.
func (s *Store) RefreshDavLock(ctx context.Context, userID int64, token string, durationS int64, expires, now time.Time) error {
	res := s.db.WithContext(ctx).Model(&DavLock{}).
		Where("token = ? AND user_id = ? AND expires_at > ?", token, userID, now.UTC()).
		Updates(map[string]any{"duration_s": durationS, "expires_at": expires.UTC()})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteDavLock removes one of the user's unexpired locks.
func (s *Store) DeleteDavLock(ctx context.Context, userID int64, token string, now time.Time) error {
	res := s.db.WithContext(ctx).Where("token = ? AND user_id = ? AND expires_at > ?", token, userID, now.UTC()).Delete(&DavLock{})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// SweepDavLocks deletes the user's locks expired at now.
func (s *Store) SweepDavLocks(ctx context.Context, userID int64, now time.Time) error {
	return translate(s.db.WithContext(ctx).Where("user_id = ? AND expires_at <= ?", userID, now.UTC()).Delete(&DavLock{}).Error)
}
