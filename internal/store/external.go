package store

import (
	"context"
	"time"
)

// ExternalIdentity ties an account to its subject at an identity provider.
type ExternalIdentity struct {
	ID          int64 `gorm:"primaryKey"`
	Provider    string
	Subject     string
	UserID      int64
	Email       string
	CreatedAt   time.Time
	LastLoginAt time.Time
}

// ExternalIdentity finds the link of a provider's subject.
func (s *Store) ExternalIdentity(ctx context.Context, provider, subject string) (ExternalIdentity, error) {
	var e ExternalIdentity
	err := s.db.WithContext(ctx).Where("provider = ? AND subject = ?", provider, subject).Take(&e).Error
	return e, translate(err)
}

// LinkExternalIdentity stores a new link; ErrConflict when the subject is
// linked already (another replica's sign-in won).
func (s *Store) LinkExternalIdentity(ctx context.Context, e *ExternalIdentity) error {
	return translate(s.db.WithContext(ctx).Create(e).Error)
}

// TouchExternalIdentity records a sign-in and the address the provider gave.
func (s *Store) TouchExternalIdentity(ctx context.Context, id int64, at time.Time, email string) error {
	return translate(s.db.WithContext(ctx).Model(&ExternalIdentity{}).Where("id = ?", id).
		Updates(map[string]any{"last_login_at": at, "email": email}).Error)
}

// ExternalIdentitiesOf lists the links of an account.
func (s *Store) ExternalIdentitiesOf(ctx context.Context, userID int64) ([]ExternalIdentity, error) {
	var es []ExternalIdentity
	err := s.db.WithContext(ctx).Where("user_id = ?", userID).Order("id").Find(&es).Error
	return es, translate(err)
}
