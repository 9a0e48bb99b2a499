package auth

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// MaxTokenName bounds a token's label.
const MaxTokenName = 100

// NewToken is a freshly created API token; Secret is shown only this once.
type NewToken struct {
	store.APIToken
	Secret string
	// ScopeURI is the canonical URI of a scoped token's folder.
	ScopeURI string
}

// MaxTokenDays bounds a token's optional lifetime.
const MaxTokenDays = 3650

// CreateToken issues a personal API token for the user; expiresInDays 0
// means it lasts until revoked.
func (s *Service) CreateToken(ctx context.Context, userID int64, name string, expiresInDays int) (NewToken, error) {
	return s.createToken(ctx, store.APIToken{UserID: userID}, name, expiresInDays)
}

// TokenScope limits a new token to one folder of its owner's tree.
// ReadOnly nil means true: a token handed to an outside agent reads only
// unless it is asked otherwise.
type TokenScope struct {
	URI      string
	ReadOnly *bool
}

// CreateScopedToken is CreateToken for a token that sees only the folder
// sc.URI of u's own tree.
func (s *Service) CreateScopedToken(ctx context.Context, u store.User, name string, expiresInDays int, sc TokenScope) (NewToken, error) {
	uri, err := kb.ParseURI(sc.URI, u.Username)
	if err != nil {
		return NewToken{}, apierr.BadRequest(apierr.CodeInvalidScope, "scope_uri: %s", errMessage(err))
	}
	if uri.Username != u.Username {
		return NewToken{}, apierr.BadRequest(apierr.CodeInvalidScope, "scope_uri must be a folder of your own tree (kb://me/…), not %s", uri)
	}
	if uri.Path == "" {
		return NewToken{}, apierr.BadRequest(apierr.CodeInvalidScope, "scope_uri is your whole tree; leave scope_uri out for an unscoped token")
	}
	n, err := s.st.NodeByPath(ctx, u.ID, uri.Path)
	if errors.Is(err, store.ErrNotFound) {
		return NewToken{}, apierr.NotFound(apierr.CodeNotFound, "no such resource: %s", uri).WithDetail("uri", uri.String())
	}
	if err != nil {
		return NewToken{}, apierr.Internal("create scoped token: read scope folder", err)
	}
	if !n.IsDir() {
		return NewToken{}, apierr.BadRequest(apierr.CodeInvalidScope, "%s is a file; a token is scoped to a folder", uri)
	}
	t := store.APIToken{UserID: u.ID, Scoped: true, ScopeNodeID: &n.ID, ReadOnly: sc.ReadOnly == nil || *sc.ReadOnly}
	nt, err := s.createToken(ctx, t, name, expiresInDays)
	nt.ScopeURI = kb.NodeURI(u.Username, n.Path, true)
	return nt, err
}

func errMessage(err error) string {
	if e, ok := apierr.As(err); ok {
		return e.Message
	}
	return err.Error()
}

func (s *Service) createToken(ctx context.Context, t store.APIToken, name string, expiresInDays int) (NewToken, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxTokenName {
		return NewToken{}, apierr.BadRequest(apierr.CodeInvalidName, "name is required and at most %d characters", MaxTokenName)
	}
	if expiresInDays < 0 || expiresInDays > MaxTokenDays {
		return NewToken{}, apierr.BadRequest(apierr.CodeInvalidExpiry, "expires_in_days must be between 1 and %d, or absent for no expiry", MaxTokenDays)
	}
	secret := TokenPrefix + randomHex(24)
	t.Name, t.Prefix, t.TokenHash = name, secret[:len(TokenPrefix)+6], hashToken(secret)
	if expiresInDays > 0 {
		exp := s.now().UTC().Truncate(time.Second).AddDate(0, 0, expiresInDays)
		t.ExpiresAt = &exp
	}
	if err := s.st.CreateToken(ctx, &t); err != nil {
		return NewToken{}, apierr.Internal("create token", err)
	}
	return NewToken{APIToken: t, Secret: secret}, nil
}

// TokenView is a token as its owner lists it: ScopeURI is where its scope
// folder is now ("" for an unscoped token, or one whose folder is gone).
type TokenView struct {
	store.APIToken
	ScopeURI string
	// Username is the owner's, filled in the admin listing.
	Username string
}

// view resolves a token's scope folder to its URI now: the folder may have
// been renamed since, and a deleted one leaves ScopeURI empty.
func (s *Service) view(ctx context.Context, t store.APIToken, owner string) (TokenView, error) {
	v := TokenView{APIToken: t}
	if t.ScopeNodeID == nil {
		return v, nil
	}
	n, err := s.st.NodeByID(ctx, t.UserID, *t.ScopeNodeID)
	if err == nil {
		v.ScopeURI = kb.NodeURI(owner, n.Path, true)
	} else if !errors.Is(err, store.ErrNotFound) {
		return v, apierr.Internal("view token: read scope folder", err)
	}
	return v, nil
}

// ListTokens returns the user's tokens without secrets.
func (s *Service) ListTokens(ctx context.Context, u store.User) ([]TokenView, error) {
	ts, err := s.st.ListTokens(ctx, u.ID)
	if err != nil {
		return nil, apierr.Internal("list tokens", err)
	}
	out := make([]TokenView, len(ts))
	for i, t := range ts {
		if out[i], err = s.view(ctx, t, u.Username); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RevokeToken deletes one of the user's tokens.
func (s *Service) RevokeToken(ctx context.Context, userID, id int64) error {
	err := s.st.DeleteToken(ctx, userID, id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound(apierr.CodeTokenNotFound, "no API token with id %d", id)
	}
	if err != nil {
		return apierr.Internal("revoke token", err)
	}
	return nil
}

// ListAllTokens returns every account's tokens (admin view).
func (s *Service) ListAllTokens(ctx context.Context) ([]TokenView, error) {
	ts, err := s.st.ListAllTokens(ctx)
	if err != nil {
		return nil, apierr.Internal("list all tokens", err)
	}
	out := make([]TokenView, len(ts))
	for i, t := range ts {
		if out[i], err = s.view(ctx, t.APIToken, t.Username); err != nil {
			return nil, err
		}
		out[i].Username = t.Username
	}
	return out, nil
}

// RevokeAnyToken deletes any account's token (admin).
func (s *Service) RevokeAnyToken(ctx context.Context, id int64) error {
	err := s.st.DeleteTokenByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return apierr.NotFound(apierr.CodeTokenNotFound, "no API token with id %d", id)
	}
	if err != nil {
		return apierr.Internal("revoke any token", err)
	}
	return nil
}

// ListUsers returns all accounts (admin view).
func (s *Service) ListUsers(ctx context.Context) ([]store.User, error) {
	us, err := s.st.ListUsers(ctx)
	if err != nil {
		return nil, apierr.Internal("list users", err)
	}
	return us, nil
}

// UserByName finds an account for the operator CLI.
func (s *Service) UserByName(ctx context.Context, name string) (store.User, error) {
	u, err := s.st.UserByUsername(ctx, strings.ToLower(name))
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apierr.NotFound(apierr.CodeUserNotFound, "no user named %q", name)
	}
	if err != nil {
		return store.User{}, apierr.Internal("read user by name", err)
	}
	return u, nil
}
