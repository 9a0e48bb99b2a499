package auth

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// MaxTokenName bounds a token's label.
const MaxTokenName = 100

// NewToken is a freshly created API token; Secret is shown only this once.
type NewToken struct {
	store.APIToken
	Secret string
}

// MaxTokenDays bounds a token's optional lifetime.
const MaxTokenDays = 3650

// CreateToken issues a personal API token for the user; expiresInDays 0
// means it lasts until revoked.
func (s *Service) CreateToken(ctx context.Context, userID int64, name string, expiresInDays int) (NewToken, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxTokenName {
		return NewToken{}, apierr.BadRequest("invalid_name", "name is required and at most %d characters", MaxTokenName)
	}
	if expiresInDays < 0 || expiresInDays > MaxTokenDays {
		return NewToken{}, apierr.BadRequest("invalid_expiry", "expires_in_days must be between 1 and %d, or absent for no expiry", MaxTokenDays)
	}
	secret := TokenPrefix + randomHex(24)
	t := store.APIToken{UserID: userID, Name: name, Prefix: secret[:len(TokenPrefix)+6], TokenHash: hashToken(secret)}
	if expiresInDays > 0 {
		exp := s.now().UTC().Truncate(time.Second).AddDate(0, 0, expiresInDays)
		t.ExpiresAt = &exp
	}
	if err := s.st.CreateToken(ctx, &t); err != nil {
		return NewToken{}, apierr.Internal(err)
	}
	return NewToken{APIToken: t, Secret: secret}, nil
}

// ListTokens returns the user's tokens without secrets.
func (s *Service) ListTokens(ctx context.Context, userID int64) ([]store.APIToken, error) {
	ts, err := s.st.ListTokens(ctx, userID)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	return ts, nil
}

// RevokeToken deletes one of the user's tokens.
func (s *Service) RevokeToken(ctx context.Context, userID, id int64) error {
	err := s.st.DeleteToken(ctx, userID, id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound("token_not_found", "no API token with id %d", id)
	}
	if err != nil {
		return apierr.Internal(err)
	}
	return nil
}

// ListAllTokens returns every account's tokens (admin view).
func (s *Service) ListAllTokens(ctx context.Context) ([]store.TokenWithOwner, error) {
	ts, err := s.st.ListAllTokens(ctx)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	return ts, nil
}

// RevokeAnyToken deletes any account's token (admin).
func (s *Service) RevokeAnyToken(ctx context.Context, id int64) error {
	err := s.st.DeleteTokenByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound("token_not_found", "no API token with id %d", id)
	}
	if err != nil {
		return apierr.Internal(err)
	}
	return nil
}

// ListUsers returns all accounts (admin view).
func (s *Service) ListUsers(ctx context.Context) ([]store.User, error) {
	us, err := s.st.ListUsers(ctx)
	if err != nil {
		return nil, apierr.Internal(err)
	}
	return us, nil
}

// UserByName finds an account for the operator CLI.
func (s *Service) UserByName(ctx context.Context, name string) (store.User, error) {
	u, err := s.st.UserByUsername(ctx, strings.ToLower(name))
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apierr.NotFound("user_not_found", "no user named %q", name)
	}
	if err != nil {
		return store.User{}, apierr.Internal(err)
	}
	return u, nil
}
