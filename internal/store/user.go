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

// User is an account. TokenVersion changes when the password is reset or the
// account is disabled, which invalidates every session issued before.
type User struct {
	ID           int64 `gorm:"primaryKey"`
	Username     string
	PasswordHash string
	Role         string
	Disabled     bool
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
type UserUpdate struct {
	PasswordHash *string
	Role         *string
	Disabled     *bool
}

// UpdateUser applies upd to the account and bumps its token version when the
// password or the disabled flag changes.
func (s *Store) UpdateUser(ctx context.Context, id int64, upd UserUpdate) (User, error) {
	var out User
	err := s.InTx(ctx, func(tx *Store) error {
		u, err := tx.UserByID(ctx, id)
		if err != nil {
			return err
		}
		if upd.PasswordHash != nil {
			u.PasswordHash = *upd.PasswordHash
			u.TokenVersion++
		}
		if upd.Role != nil {
			u.Role = *upd.Role
		}
		if upd.Disabled != nil && *upd.Disabled != u.Disabled {
			u.Disabled = *upd.Disabled
			u.TokenVersion++
		}
		out = u
		return tx.db.WithContext(ctx).Save(&u).Error
	})
	return out, err
}
