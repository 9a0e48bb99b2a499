package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Options configures the service.
type Options struct {
	Secret     []byte        // HS256 key
	TTL        time.Duration // a session ends when unused this long
	MaxTTL     time.Duration // and at the latest this long after login
	BcryptCost int
	// LoginsPerSecond caps password checks across all accounts (0:
	// DefaultLoginsPerSecond), so a flood of logins cannot take every core.
	LoginsPerSecond int
	// Directory checks the form's passwords for names without a local
	// password; nil: local passwords only.
	Directory *LDAPDirectory
	// LocalPasswordsOff refuses every local password (auth.password_login:
	// false); the directory's are still asked.
	LocalPasswordsOff bool
	// Audit records the uses of API tokens; nil records to st without a
	// log line.
	Audit *audit.Recorder
}

// Seeder gives a new account its starting content.
type Seeder interface {
	SeedSample(ctx context.Context, c kb.Caller) error
}

// Service manages accounts and credentials.
type Service struct {
	st        *store.Store
	seeder    Seeder
	secret    []byte
	ttl       time.Duration
	maxTTL    time.Duration
	cost      int
	dummyHash string
	throttle  *Throttle
	dir       *LDAPDirectory
	localOff  bool
	audit     *audit.Recorder
	now       func() time.Time
	// compare is bcrypt's; tests count the hashes through it.
	compare func(hash, pw []byte) error
}

// New builds the service.
func New(st *store.Store, seeder Seeder, opts Options) (*Service, error) {
	if len(opts.Secret) < 32 {
		return nil, errors.New("jwt secret must be at least 32 bytes")
	}
	s := &Service{st: st, seeder: seeder, secret: opts.Secret, ttl: opts.TTL, maxTTL: opts.MaxTTL, cost: opts.BcryptCost,
		throttle: NewThrottle(opts.LoginsPerSecond), audit: opts.Audit, now: time.Now, compare: bcrypt.CompareHashAndPassword,
		dir: opts.Directory, localOff: opts.LocalPasswordsOff}
	if s.audit == nil {
		s.audit = audit.New(st, audit.Options{})
	}
	if s.ttl <= 0 {
		s.ttl = 8 * time.Hour
	}
	if s.maxTTL <= 0 {
		s.maxTTL = 7 * 24 * time.Hour
	}
	s.maxTTL = max(s.maxTTL, s.ttl)
	var err error
	if s.dummyHash, err = s.hash(randomHex(16)); err != nil {
		return nil, err
	}
	return s, nil
}

// Audit is the recorder the service records with, for the doors to
// record through the same one.
func (s *Service) Audit() *audit.Recorder { return s.audit }

// LoadOrCreateSecret returns the configured secret, or one generated on
// first start and kept in the data directory so sessions survive restarts.
func LoadOrCreateSecret(configured, dataDir string) ([]byte, error) {
	if configured != "" {
		if len(configured) < 32 {
			return nil, errors.New("KB_JWT_SECRET must be at least 32 characters")
		}
		return []byte(configured), nil
	}
	path := filepath.Join(dataDir, "jwt.secret")
	if b, err := os.ReadFile(path); err == nil && len(b) >= 32 {
		return []byte(strings.TrimSpace(string(b))), nil
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, err
	}
	secret := randomHex(32)
	if err := os.WriteFile(path, []byte(secret), 0o600); err != nil {
		return nil, fmt.Errorf("store jwt secret: %w", err)
	}
	return []byte(secret), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// CreateUser validates and stores a new account, then seeds its sample tree.
func (s *Service) CreateUser(ctx context.Context, username, password, role string) (store.User, error) {
	username = strings.TrimSpace(username)
	if !kb.ValidUsername(username) {
		return store.User{}, apierr.BadRequest(apierr.CodeInvalidUsername, "username must be 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit")
	}
	if role == "" {
		role = store.RoleUser
	}
	if role != store.RoleAdmin && role != store.RoleUser {
		return store.User{}, apierr.BadRequest(apierr.CodeInvalidRole, "role must be admin or user")
	}
	if err := ValidatePassword(password); err != nil {
		return store.User{}, err
	}
	h, err := s.hash(password)
	if err != nil {
		return store.User{}, apierr.Internal("create user: hash password", err)
	}
	u := store.User{Username: username, PasswordHash: h, Role: role}
	if err := s.st.CreateUser(ctx, &u); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return store.User{}, apierr.Conflict(apierr.CodeUsernameTaken, "username %q is taken", username).WithDetail("username", username)
		}
		return store.User{}, apierr.Internal("create user", err)
	}
	if s.seeder != nil {
		if err := s.seeder.SeedSample(ctx, kb.Caller{ID: u.ID, Username: u.Username}); err != nil {
			return u, apierr.Internal("seed sample for "+username, err)
		}
	}
	return u, nil
}

// SetPassword replaces a password and ends the account's sessions.
func (s *Service) SetPassword(ctx context.Context, id int64, password string) (store.User, error) {
	if err := ValidatePassword(password); err != nil {
		return store.User{}, err
	}
	h, err := s.hash(password)
	if err != nil {
		return store.User{}, apierr.Internal("set password: hash password", err)
	}
	return s.update(ctx, id, store.UserUpdate{PasswordHash: &h})
}

// UpdateUser changes role or disabled flag (admin only, checked by the caller).
func (s *Service) UpdateUser(ctx context.Context, id int64, upd store.UserUpdate) (store.User, error) {
	if upd.Role != nil && *upd.Role != store.RoleAdmin && *upd.Role != store.RoleUser {
		return store.User{}, apierr.BadRequest(apierr.CodeInvalidRole, "role must be admin or user")
	}
	return s.update(ctx, id, upd)
}

func (s *Service) update(ctx context.Context, id int64, upd store.UserUpdate) (store.User, error) {
	u, err := s.st.UpdateUser(ctx, id, upd)
	if errors.Is(err, store.ErrNotFound) {
		return store.User{}, apierr.NotFound(apierr.CodeUserNotFound, "no user with id %d", id)
	}
	if err != nil {
		return store.User{}, apierr.Internal("update user", err)
	}
	return u, nil
}

// EnsureAdmin creates the first account on an empty database. It returns the
// password when it generated one, so the operator can be told once.
func (s *Service) EnsureAdmin(ctx context.Context, password string) (generated string, err error) {
	n, err := s.st.CountUsers(ctx)
	if err != nil || n > 0 {
		return "", err
	}
	if password == "" {
		password = randomHex(9)
		generated = password
	}
	if _, err := s.CreateUser(ctx, "admin", password, store.RoleAdmin); err != nil {
		// Another replica starting at the same moment won the race.
		if e, ok := apierr.As(err); ok && e.Code == apierr.CodeUsernameTaken {
			return "", nil
		}
		return "", err
	}
	return generated, nil
}
