package store

import (
	"context"
	"time"
)

// Roles a user can have.
const (
	RoleAdmin = "admin"
	RoleUser  = "user"
)

// User is an account. TokenVersion is kept for old databases; sessions are
// now rows (see Session), revoked with the password or the account.
type User struct {
	ID           int64 `gorm:"primaryKey"`
	Username     string
	PasswordHash string
	Role         string
	Disabled     bool
	// Email is set for accounts made or linked by single sign-on, and by
	// an operator who pre-creates an account for its owner's first sign-on.
	Email        string
	TokenVersion int
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// CreateUser inserts u and fills its ID; ErrConflict if the name is taken.
func (s *Store) CreateUser(ctx context.Context, u *User) error {
	return translate(s.db.WithContext(ctx).Create(u).Error)
}

// UserByUsername finds an account by its (lower-case) name.
func (s *Store) UserByUsername(ctx context.Context, username string) (User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("username = ?", username).Take(&u).Error
	return u, translate(err)
}

// UserByEmail finds the one account with this address; ErrNotFound when
// none has it, and ErrConflict when several do (no one of them is chosen).
func (s *Store) UserByEmail(ctx context.Context, email string) (User, error) {
	var us []User
	if err := s.db.WithContext(ctx).Where("email = ? AND email <> ''", email).Limit(2).Find(&us).Error; err != nil {
		return User{}, translate(err)
	}
	switch len(us) {
	case 0:
		return User{}, ErrNotFound
	case 1:
		return us[0], nil
	}
	return User{}, ErrConflict
}

// UserByID finds an account by id.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	var u User
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&u).Error
	return u, translate(err)
}

// ListUsers returns every account ordered by id.
func (s *Store) ListUsers(ctx context.Context) ([]User, error) {
	var us []User
	err := s.db.WithContext(ctx).Order("id").Find(&us).Error
	return us, translate(err)
}

// CountUsers tells whether this is a fresh install.
func (s *Store) CountUsers(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&User{}).Count(&n).Error
	return n, translate(err)
}

// UserUpdate lists the fields an update may change; nil means unchanged.
// KeepSession names the one session a password change leaves signed in
// (the caller's own, when users change their own password).
type UserUpdate struct {
	PasswordHash *string
	Role         *string
	Disabled     *bool
	KeepSession  string
}

// UpdateUser applies upd to the account. A new password or a disable ends
// the account's sessions (but KeepSession) and deletes its API tokens in the
// same transaction, so re-enabling the account revives none of them.
func (s *Store) UpdateUser(ctx context.Context, id int64, upd UserUpdate) (User, error) {
	var out User
	err := s.InTx(ctx, func(tx *Store) error {
		u, err := tx.UserByID(ctx, id)
		if err != nil {
			return err
		}
		revoke := false
		if upd.PasswordHash != nil {
			u.PasswordHash = *upd.PasswordHash
			u.TokenVersion++
			revoke = true
		}
		if upd.Role != nil {
			u.Role = *upd.Role
		}
		if upd.Disabled != nil && *upd.Disabled != u.Disabled {
			u.Disabled = *upd.Disabled
			u.TokenVersion++
			revoke = revoke || u.Disabled
		}
		out = u
		if err := tx.db.WithContext(ctx).Save(&u).Error; err != nil {
			return err
		}
		if !revoke {
			return nil
		}
		if u.Disabled {
			if err := tx.cancelUserJobs(ctx, id); err != nil {
				return err
			}
		}
		if _, err := tx.DeleteSessions(ctx, id, upd.KeepSession); err != nil {
			return err
		}
		return tx.db.WithContext(ctx).Where("user_id = ?", id).Delete(&APIToken{}).Error
	})
	return out, err
}

// Usernames maps account ids to their names.
func (s *Store) Usernames(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(ids) == 0 {
		return out, nil
	}
	var us []User
	err := s.db.WithContext(ctx).Select("id, username").Where("id IN ?", ids).Find(&us).Error
	for _, u := range us {
		out[u.ID] = u.Username
	}
	return out, translate(err)
}

// NamesBy maps the accounts rows refer to (through ref; nil refers to none)
// to their names.
func NamesBy[T any](ctx context.Context, s *Store, rows []T, ref func(T) *int64) (map[int64]string, error) {
	var ids []int64
	for _, r := range rows {
		if id := ref(r); id != nil {
			ids = append(ids, *id)
		}
	}
	return s.Usernames(ctx, ids)
}
