package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

const issuer = "knowspace"

// TokenPrefix marks personal API tokens, so they are told apart from JWTs.
const TokenPrefix = "ks_"

type claims struct {
	jwt.RegisteredClaims
	Username     string `json:"name"`
	Role         string `json:"role"`
	TokenVersion int    `json:"tv"`
}

// Session is the answer to a successful login.
type Session struct {
	Token     string     `json:"token"`
	ExpiresAt time.Time  `json:"expires_at"`
	User      store.User `json:"-"`
}

// Login checks a password, subject to the throttle on both the account and
// the client address, and issues a signed session token.
func (s *Service) Login(ctx context.Context, username, password, addr string) (Session, error) {
	username = strings.ToLower(strings.TrimSpace(username))
	acctKey, addrKey := "u:"+username, "a:"+addr
	if d := max(s.throttle.Wait(acctKey), s.throttle.Wait(addrKey)); d > 0 {
		e := apierr.TooMany("too_many_attempts", "too many failed logins; try again in %d seconds", int(d.Seconds()+0.999))
		e.RetryAfter = d
		return Session{}, e
	}
	u, err := s.st.UserByUsername(ctx, username)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return Session{}, apierr.Internal(err)
	}
	if !s.checkPassword(u.PasswordHash, password) || u.Disabled {
		s.throttle.Fail(acctKey, accountFailuresBeforeLock)
		s.throttle.Fail(addrKey, addressFailuresBeforeLock)
		return Session{}, errBadCredentials
	}
	s.throttle.Reset(acctKey)
	return s.issue(u)
}

func (s *Service) issue(u store.User) (Session, error) {
	now := s.now()
	exp := now.Add(s.ttl)
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   strconv.FormatInt(u.ID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
		},
		Username: u.Username, Role: u.Role, TokenVersion: u.TokenVersion,
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.secret)
	if err != nil {
		return Session{}, apierr.Internal(err)
	}
	return Session{Token: tok, ExpiresAt: exp.UTC().Truncate(time.Second), User: u}, nil
}

// Authenticate turns a bearer credential (a session JWT or a personal API
// token) into the account it belongs to. Disabled accounts and sessions
// issued before a password reset are refused.
func (s *Service) Authenticate(ctx context.Context, bearer string) (store.User, error) {
	if bearer == "" {
		return store.User{}, apierr.Unauthorized("missing_token", "sign in first: send Authorization: Bearer <token>")
	}
	if strings.HasPrefix(bearer, TokenPrefix) {
		return s.authenticateAPIToken(ctx, bearer)
	}
	var c claims
	_, err := jwt.ParseWithClaims(bearer, &c, func(*jwt.Token) (any, error) { return s.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(s.now),
	)
	if errors.Is(err, jwt.ErrTokenExpired) {
		return store.User{}, apierr.Unauthorized("token_expired", "the session has expired; sign in again")
	}
	if err != nil {
		return store.User{}, apierr.Unauthorized("invalid_token", "the token is not valid").WithCause(err)
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil {
		return store.User{}, apierr.Unauthorized("invalid_token", "the token is not valid")
	}
	u, err := s.st.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (u.Disabled || u.TokenVersion != c.TokenVersion)) {
		return store.User{}, apierr.Unauthorized("invalid_token", "the session is no longer valid; sign in again")
	}
	if err != nil {
		return store.User{}, apierr.Internal(err)
	}
	return u, nil
}

func hashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func (s *Service) authenticateAPIToken(ctx context.Context, secret string) (store.User, error) {
	t, err := s.st.TokenByHash(ctx, hashToken(secret))
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apierr.Unauthorized("invalid_token", "the API token is not valid or was revoked")
	}
	if err != nil {
		return store.User{}, apierr.Internal(err)
	}
	u, err := s.st.UserByID(ctx, t.UserID)
	if err != nil || u.Disabled {
		return store.User{}, apierr.Unauthorized("invalid_token", "the API token's account is disabled")
	}
	// Recording every use would make each scripted request a write.
	if now := s.now().UTC(); t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) > time.Minute {
		_ = s.st.TouchToken(ctx, t.ID, now)
	}
	return u, nil
}
