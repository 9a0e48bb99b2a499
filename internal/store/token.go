package store

import (
	"context"
	"time"
)

// APIToken is a personal token for scripts; only its hash is stored.
type APIToken struct {
	ID         int64 `gorm:"primaryKey"`
	UserID     int64
	Name       string
	Prefix     string
	TokenHash  string
	CreatedAt  time.Time
	LastUsedAt *time.Time
	ExpiresAt  *time.Time // nil: until revoked
	// Scoped tokens see only the folder ScopeNodeID; a deleted folder leaves
	// Scoped set and ScopeNodeID nil, and the token is refused.
	Scoped      bool
	ScopeNodeID *int64
	ReadOnly    bool
}

// TokenWithOwner is a token in the admin listing.
type TokenWithOwner struct {
	APIToken
	Username string
}

// ListAllTokens returns every user's tokens, newest first (admin view).
func (s *Store) ListAllTokens(ctx context.Context) ([]TokenWithOwner, error) {
	var ts []TokenWithOwner
	err := s.db.WithContext(ctx).Table("api_tokens").Select("api_tokens.*, users.username").
		Joins("JOIN users ON users.id = api_tokens.user_id").Order("api_tokens.id DESC").Scan(&ts).Error
	return ts, translate(err)
}

// DeleteTokenByID revokes any user's token (admin).
func (s *Store) DeleteTokenByID(ctx context.Context, id int64) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&APIToken{})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// CreateToken inserts t and fills its ID.
func (s *Store) CreateToken(ctx context.Context, t *APIToken) error {
	return translate(s.db.WithContext(ctx).Create(t).Error)
}

// ListTokens returns a user's tokens, newest first.
func (s *Store) ListTokens(ctx context.Context, userID int64) ([]APIToken, error) {
	var ts []APIToken
	err := s.db.WithContext(ctx).Where("user_id = ?", userID).Order("id DESC").Find(&ts).Error
	return ts, translate(err)
}

// DeleteToken revokes one of the user's tokens; another user's token is ErrNotFound.
func (s *Store) DeleteToken(ctx context.Context, userID, id int64) error {
	res := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Delete(&APIToken{})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// TokenByHash finds a token by the hash of its secret.
func (s *Store) TokenByHash(ctx context.Context, hash string) (APIToken, error) {
	var t APIToken
	err := s.db.WithContext(ctx).Where("token_hash = ?", hash).Take(&t).Error
	return t, translate(err)
}

// TouchToken records a use; it is advisory, so callers may ignore its error.
func (s *Store) TouchToken(ctx context.Context, id int64, at time.Time) error {
	return s.db.WithContext(ctx).Model(&APIToken{}).Where("id = ?", id).Update("last_used_at", at).Error
}
