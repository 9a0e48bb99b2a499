package auth

import (
	"context"
	"errors"
	"strings"
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

// CreateToken issues a personal API token for the user.
func (s *Service) CreateToken(ctx context.Context, userID int64, name string) (NewToken, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxTokenName {
		return NewToken{}, apierr.BadRequest("invalid_name", "name is required and at most %d characters", MaxTokenName)
	}
	secret := TokenPrefix + randomHex(24)
	t := store.APIToken{UserID: userID, Name: name, Prefix: secret[:len(TokenPrefix)+6], TokenHash: hashToken(secret)}
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
