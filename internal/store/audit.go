package store

import (
	"context"
	"time"
)

// AuditEvent is one row of the append-only audit log; package audit says
// what its fields hold.
type AuditEvent struct {
	ID         int64 `gorm:"primaryKey"`
	At         time.Time
	UserID     *int64
	Username   string
	TokenID    *int64
	Provider   string
	Action     string
	Target     string
	Source     string
	BeforeJSON *string
	AfterJSON  *string
	ClientAddr string
	Result     string
	Code       string
}

// AuditFilter narrows ListAuditEvents; zero fields match every event.
type AuditFilter struct {
	UserID  int64
	Actions []string
	Since   time.Time // at or after
	Until   time.Time // before
	// BeforeID continues a listing: only events older than this one.
	BeforeID int64
	Limit    int // 0: 100
}

// AppendAuditEvent stores e and fills its ID; rows are never updated.
func (s *Store) AppendAuditEvent(ctx context.Context, e *AuditEvent) error {
	return translate(s.db.WithContext(ctx).Create(e).Error)
}

// ListAuditEvents returns the events f matches, newest first.
func (s *Store) ListAuditEvents(ctx context.Context, f AuditFilter) ([]AuditEvent, error) {
	q := s.db.WithContext(ctx).Model(&AuditEvent{})
	if f.UserID != 0 {
		q = q.Where("user_id = ?", f.UserID)
	}
	if len(f.Actions) > 0 {
		q = q.Where("action IN ?", f.Actions)
	}
	if !f.Since.IsZero() {
		q = q.Where("at >= ?", f.Since.UTC())
	}
	if !f.Until.IsZero() {
		q = q.Where("at < ?", f.Until.UTC())
	}
	if f.BeforeID > 0 {
		q = q.Where("id < ?", f.BeforeID)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	var es []AuditEvent
	err := q.Order("id DESC").Limit(limit).Find(&es).Error
	return es, translate(err)
}

// DeleteAuditEventsBefore removes the events older than cutoff (the
// retention sweep) and says how many went.
func (s *Store) DeleteAuditEventsBefore(ctx context.Context, cutoff time.Time) (int64, error) {
	res := s.db.WithContext(ctx).Where("at < ?", cutoff.UTC()).Delete(&AuditEvent{})
	return res.RowsAffected, translate(res.Error)
}
