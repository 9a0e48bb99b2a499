package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

const issuer = "knowspace"

// tokenUseQuiet is how long a token goes unused before its next use is
// recorded in the audit log again.
const tokenUseQuiet = time.Hour

// TokenPrefix marks personal API tokens, so they are told apart from JWTs.
const TokenPrefix = "ks_"

type claims struct {
	jwt.RegisteredClaims
	Username  string `json:"name"`
	Role      string `json:"role"`
	SessionID string `json:"sid"`
}

// Session is the answer to a successful login. ExpiresAt is the longest the
// token can live (the session maximum); IdleExpiresAt is when it ends unless
// used, which each use pushes forward.
type Session struct {
	Token         string     `json:"token"`
	ExpiresAt     time.Time  `json:"expires_at"`
	IdleExpiresAt time.Time  `json:"idle_expires_at"`
	User          store.User `json:"-"`
}

// Principal is an authenticated caller and the credential it used: a
// session (SessionID) or a personal API token (TokenID).
type Principal struct {
	User      store.User
	SessionID string
	TokenID   int64
	// Scope is, for a scoped API token, its folder (node id and path now)
	// and whether it is read-only; zero for sessions and unscoped tokens.
	ScopeID   int64
	ScopePath string
	ReadOnly  bool
}

// Scoped tells whether the credential sees only one folder.
func (p Principal) Scoped() bool { return p.ScopeID != 0 }

// Caller is the principal as the tree and every front door see it; the one
// place a credential becomes a caller, so a door cannot forget a limit the
// credential carries.
func (p Principal) Caller() kb.Caller {
	return kb.Caller{ID: p.User.ID, Username: p.User.Username,
		ScopeID: p.ScopeID, ScopePath: p.ScopePath, ReadOnly: p.ReadOnly}
}

// Login checks a password, subject to the throttle, and opens a session.
func (s *Service) Login(ctx context.Context, username, password, addr string) (Session, error) {
	username = strings.ToLower(strings.TrimSpace(username))
	var u store.User
	err := s.throttle.Attempt(username, addr, func() (bool, error) {
		local, hasPassword, err := s.localPassword(ctx, username)
		if err != nil {
			return false, err
		}
		if s.dir != nil && !hasPassword {
			var ok bool
			u, ok, err = s.checkDirectory(ctx, username, password)
			return ok, err
		}
		u = local
		// With local passwords off, a password is still hashed (the same
		// cost for every name) but never accepted.
		return s.checkPassword(u.PasswordHash, password) && !u.Disabled && !s.localOff, nil
	})
	if err != nil {
		return Session{}, err
	}
	return s.issue(ctx, u)
}

func (s *Service) issue(ctx context.Context, u store.User) (Session, error) {
	sess := s.newSession(u)
	if err := s.st.CreateSession(ctx, &sess); err != nil {
		return Session{}, apierr.Internal("create session", err)
	}
	return s.sign(sess, u)
}

func (s *Service) newSession(u store.User) store.Session {
	now := s.now().UTC().Truncate(time.Second)
	return store.Session{ID: randomHex(16), UserID: u.ID, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(s.ttl), MaxExpiresAt: now.Add(s.maxTTL)}
}

func (s *Service) sign(sess store.Session, u store.User) (Session, error) {
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    issuer,
			Subject:   strconv.FormatInt(u.ID, 10),
			IssuedAt:  jwt.NewNumericDate(sess.CreatedAt),
			ExpiresAt: jwt.NewNumericDate(sess.MaxExpiresAt),
		},
		Username: u.Username, Role: u.Role, SessionID: sess.ID,
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.secret)
	if err != nil {
		return Session{}, apierr.Internal("sign session token", err)
	}
	return Session{Token: tok, ExpiresAt: sess.MaxExpiresAt, IdleExpiresAt: sess.ExpiresAt, User: u}, nil
}

// HandoffTTL is how long the browser has to redeem a provider's sign-in;
// BreakGlassTTL how long an operator has to open the one-time sign-in
// address `knowspace user reset-password` prints.
const (
	HandoffTTL    = time.Minute
	BreakGlassTTL = 15 * time.Minute
)

// OpenHandoff opens the session of a provider's sign-in, keeping the ID token
// for the provider's logout, and returns the one-time ticket the browser
// redeems for the session's token: the token itself never travels in an
// address, where history and logs would keep it.
func (s *Service) OpenHandoff(ctx context.Context, u store.User, provider, idToken string, ttl time.Duration) (string, error) {
	ticket := randomHex(24)
	h := hashToken(ticket)
	sess := s.newSession(u)
	exp := sess.CreatedAt.Add(ttl)
	sess.Provider, sess.IDToken, sess.HandoffHash, sess.HandoffExpiresAt = provider, idToken, &h, &exp
	if err := s.st.CreateSession(ctx, &sess); err != nil {
		return "", apierr.Internal("create session", err)
	}
	return ticket, nil
}

// RedeemHandoff trades a ticket, once, for its session's token.
func (s *Service) RedeemHandoff(ctx context.Context, ticket string) (Session, error) {
	sess, err := s.st.RedeemHandoff(ctx, hashToken(ticket), s.now().UTC())
	if errors.Is(err, store.ErrNotFound) {
		return Session{}, apierr.Unauthorized(apierr.CodeInvalidTicket, "the sign-in ticket is unknown, already used or expired; sign in again")
	}
	if err != nil {
		return Session{}, apierr.Internal("redeem sign-in ticket", err)
	}
	u, err := s.st.UserByID(ctx, sess.UserID)
	if err != nil {
		return Session{}, apierr.Internal("redeem sign-in ticket: read user", err)
	}
	if u.Disabled {
		return Session{}, apierr.Forbidden(apierr.CodeAccountDisabled, "the account %s is disabled; an administrator can enable it", u.Username)
	}
	return s.sign(sess, u)
}

// Authenticate turns a bearer credential into the account it belongs to.
func (s *Service) Authenticate(ctx context.Context, bearer string) (store.User, error) {
	p, err := s.AuthenticatePrincipal(ctx, bearer)
	return p.User, err
}

// AuthenticatePrincipal checks a bearer credential (a session JWT or a
// personal API token). Disabled accounts, ended sessions and expired or
// revoked tokens are refused.
func (s *Service) AuthenticatePrincipal(ctx context.Context, bearer string) (Principal, error) {
	if bearer == "" {
		return Principal{}, apierr.Unauthorized(apierr.CodeMissingToken, "sign in first: send Authorization: Bearer <token>")
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
		return Principal{}, errSessionExpired
	}
	if err != nil {
		return Principal{}, apierr.Unauthorized(apierr.CodeInvalidToken, "the token is not valid").WithCause(err)
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil || c.SessionID == "" {
		return Principal{}, errSessionEnded
	}
	sess, err := s.st.SessionByID(ctx, c.SessionID)
	if errors.Is(err, store.ErrNotFound) || err == nil && sess.UserID != id {
		return Principal{}, errSessionEnded
	}
	if err != nil {
		return Principal{}, apierr.Internal("authenticate: read session", err)
	}
	now := s.now().UTC()
	if !now.Before(sess.ExpiresAt) {
		return Principal{}, errSessionExpired
	}
	u, err := s.st.UserByID(ctx, id)
	if errors.Is(err, store.ErrNotFound) || err == nil && u.Disabled {
		return Principal{}, errSessionEnded
	}
	if err != nil {
		return Principal{}, apierr.Internal("authenticate: read session user", err)
	}
	// Sliding expiry, written at most once a minute per session so reads
	// do not all become writes.
	if now.Sub(sess.LastSeenAt) > time.Minute {
		_ = s.st.TouchSession(ctx, sess.ID, now, minTime(now.Add(s.ttl), sess.MaxExpiresAt))
	}
	return Principal{User: u, SessionID: sess.ID}, nil
}

var (
	errSessionExpired = apierr.Unauthorized(apierr.CodeTokenExpired, "the session has expired; sign in again")
	errSessionEnded   = apierr.Unauthorized(apierr.CodeInvalidToken, "the session is no longer valid; sign in again")
)

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Logout ends the caller's session and returns it, so a door can end the
// identity provider's session too (its Provider and IDToken).
func (s *Service) Logout(ctx context.Context, p Principal) (store.Session, error) {
	if p.SessionID == "" {
		return store.Session{}, apierr.BadRequest(apierr.CodeNotASession, "this request used an API token, not a session; revoke tokens with DELETE /api/v1/auth/tokens/{id}")
	}
	sess, err := s.st.SessionByID(ctx, p.SessionID)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.Session{}, apierr.Internal("logout: read session", err)
	}
	if err := s.st.DeleteSession(ctx, p.User.ID, p.SessionID); err != nil && !errors.Is(err, store.ErrNotFound) {
		return store.Session{}, apierr.Internal("logout: delete session", err)
	}
	return sess, nil
}

// LogoutAll ends every session of the caller, this one included.
func (s *Service) LogoutAll(ctx context.Context, p Principal) (int64, error) {
	n, err := s.st.DeleteSessions(ctx, p.User.ID, "")
	if err != nil {
		return 0, apierr.Internal("logout everywhere: delete sessions", err)
	}
	return n, nil
}

// ChangePassword lets users change their own password: the current one is
// checked (through the same throttle as login), then every other session and
// every API token of the account ends; the calling session stays.
func (s *Service) ChangePassword(ctx context.Context, p Principal, addr, current, next string) error {
	if err := ValidatePassword(next); err != nil {
		return err
	}
	err := s.throttle.Attempt(p.User.Username, addr, func() (bool, error) {
		u, err := s.st.UserByID(ctx, p.User.ID)
		if err != nil {
			return false, apierr.Internal("change password: read user", err)
		}
		return s.checkPassword(u.PasswordHash, current), nil
	})
	if e, ok := apierr.As(err); ok && e.Code == errBadCredentials.Code {
		return apierr.BadRequest(apierr.CodeWrongPassword, "the current password is wrong")
	}
	if err != nil {
		return err
	}
	h, err := s.hash(next)
	if err != nil {
		return apierr.Internal("change password: hash password", err)
	}
	_, err = s.update(ctx, p.User.ID, store.UserUpdate{PasswordHash: &h, KeepSession: p.SessionID})
	return err
}

func hashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func (s *Service) authenticateAPIToken(ctx context.Context, secret string) (Principal, error) {
	t, err := s.st.TokenByHash(ctx, hashToken(secret))
	if errors.Is(err, store.ErrNotFound) {
		return Principal{}, apierr.Unauthorized(apierr.CodeInvalidToken, "the API token is not valid or was revoked")
	}
	if err != nil {
		return Principal{}, apierr.Internal("authenticate API token: read token", err)
	}
	now := s.now().UTC()
	if t.ExpiresAt != nil && !now.Before(*t.ExpiresAt) {
		return Principal{}, apierr.Unauthorized(apierr.CodeTokenExpired, "the API token expired on %s; create a new one", t.ExpiresAt.Format(time.DateOnly))
	}
	u, err := s.st.UserByID(ctx, t.UserID)
	if err != nil || u.Disabled {
		return Principal{}, apierr.Unauthorized(apierr.CodeInvalidToken, "the API token's account is disabled")
	}
	// Recording every use would make each scripted request a write.
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) > time.Minute {
		_ = s.st.TouchToken(ctx, t.ID, now)
	}
	// The audit log gets a token's first use after a quiet hour: its owner
	// sees when and from where it was used, not every request.
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) > tokenUseQuiet {
		_ = s.audit.Record(ctx, audit.Event{Action: audit.TokenUse, UserID: u.ID, Username: u.Username, TokenID: t.ID,
			Target: fmt.Sprintf("token:%d", t.ID)})
	}
	p := Principal{User: u, TokenID: t.ID}
	if t.Scoped {
		// The scope is read on every use: a renamed folder moves the
		// scope along, a deleted one ends the token.
		if t.ScopeNodeID == nil {
			return Principal{}, knowledge.ErrScopeDeleted
		}
		n, err := s.st.NodeByID(ctx, u.ID, *t.ScopeNodeID)
		if errors.Is(err, store.ErrNotFound) {
			return Principal{}, knowledge.ErrScopeDeleted
		}
		if err != nil {
			return Principal{}, apierr.Internal("authenticate API token: read scope folder", err)
		}
		p.ScopeID, p.ScopePath, p.ReadOnly = n.ID, n.Path, t.ReadOnly
	}
	return p, nil
}
