package store

import (
	"context"
	"time"
)

// Session is a signed-in browser or client. The JWT only names it: the row
// decides whether it still counts, so logout and revocation take effect at
// once, and its idle expiry slides with use up to MaxExpiresAt.
type Session struct {
	ID           string `gorm:"primaryKey"`
	UserID       int64
	CreatedAt    time.Time
	LastSeenAt   time.Time
	ExpiresAt    time.Time
	MaxExpiresAt time.Time
	// Provider and IDToken are set for a session opened by single sign-on:
	// the provider's logout is sent the token as id_token_hint.
	Provider string
	IDToken  string
	// HandoffHash is the hash of the one-time ticket the browser redeems
	// for this session's token, until HandoffExpiresAt; nil once redeemed.
	HandoffHash      *string
	HandoffExpiresAt *time.Time
}

// RedeemHandoff ends the one-time ticket whose hash is given and returns its
// session; ErrNotFound when no live ticket has it, so a second redeem of the
// same ticket fails like a forged one.
func (s *Store) RedeemHandoff(ctx context.Context, hash string, now time.Time) (Session, error) {
	var sess Session
	err := s.InTx(ctx, func(tx *Store) error {
		if err := tx.db.WithContext(ctx).Where("handoff_hash = ? AND handoff_expires_at > ?", hash, now).
			Take(&sess).Error; err != nil {
			return translate(err)
		}
		res := tx.db.WithContext(ctx).Model(&Session{}).Where("id = ? AND handoff_hash = ?", sess.ID, hash).
			Updates(map[string]any{"handoff_hash": nil, "handoff_expires_at": nil})
		if res.Error != nil {
			return translate(res.Error)
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		return nil
	})
	return sess, err
}

// CreateSession stores a new session and drops the user's expired ones,
// so the table holds only live sessions plus those not yet used again.
func (s *Store) CreateSession(ctx context.Context, sess *Session) error {
	return s.InTx(ctx, func(tx *Store) error {
		if err := tx.db.WithContext(ctx).Where("user_id = ? AND expires_at < ?", sess.UserID, sess.CreatedAt).
			Delete(&Session{}).Error; err != nil {
			return translate(err)
		}
		return translate(tx.db.WithContext(ctx).Create(sess).Error)
	})
}

// SessionByID finds a session; a revoked one is ErrNotFound.
func (s *Store) SessionByID(ctx context.Context, id string) (Session, error) {
	var sess Session
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&sess).Error
	return sess, translate(err)
}

// TouchSession records a use and slides the idle expiry to expires (the
// caller caps it at the session's maximum); advisory, like TouchToken.
func (s *Store) TouchSession(ctx context.Context, id string, at, expires time.Time) error {
	return s.db.WithContext(ctx).Model(&Session{}).Where("id = ?", id).
		Updates(map[string]any{"last_seen_at": at, "expires_at": expires}).Error
}

// DeleteSession ends one session of the user; ErrNotFound if there is none.
func (s *Store) DeleteSession(ctx context.Context, userID int64, id string) error {
	res := s.db.WithContext(ctx).Where("user_id = ? AND id = ?", userID, id).Delete(&Session{})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// DeleteSessions ends every session of the user but keep (may be empty) and
// reports how many ended.
func (s *Store) DeleteSessions(ctx context.Context, userID int64, keep string) (int64, error) {
	res := s.db.WithContext(ctx).Where("user_id = ? AND id <> ?", userID, keep).Delete(&Session{})
	return res.RowsAffected, translate(res.Error)
}
