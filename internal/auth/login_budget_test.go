package auth

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// countHashes makes s count its password checks.
func countHashes(s *Service) *atomic.Int64 {
	var n atomic.Int64
	inner := s.compare
	s.compare = func(hash, pw []byte) error {
		n.Add(1)
		return inner(hash, pw)
	}
	return &n
}

// wantTooManyLogins checks err is the global budget's refusal.
func wantTooManyLogins(t *testing.T, what string, err error) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok || e.Status != 429 || e.Code.String() != "too_many_logins" || e.RetryAfter <= 0 || e.RetryAfter > time.Second {
		t.Fatalf("%s: want 429 too_many_logins within a second, got %v", what, err)
	}
}

// TestLoginBudgetCutsRandomUsernames: a flood of logins for names that do
// not exist, each from its own address, passes the per-(account, address)
// throttle, so only the global budget bounds the hashes: one second's
// worth at a time, the rest refused 429 too_many_logins with Retry-After,
// and the refused ones leave no state behind. A known name costs the same
// budget as an unknown one; a refused attempt is not a failure.
func TestLoginBudgetCutsRandomUsernames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		s, c := newService(t, dialect, time.Hour, time.Hour)
		ctx := context.Background()
		if _, err := s.CreateUser(ctx, "bob", "password-bob", store.RoleUser); err != nil {
			t.Fatal(err)
		}
		hashes := countHashes(s)
		var wg sync.WaitGroup
		var bad, refused atomic.Int64
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := s.Login(ctx, fmt.Sprintf("nobody-%d", i), "wrong-password", fmt.Sprintf("192.0.2.%d", i))
				switch e, _ := apierr.As(err); {
				case err == errBadCredentials:
					bad.Add(1)
				case e != nil && e.Code.String() == "too_many_logins" && e.RetryAfter > 0:
					refused.Add(1)
				default:
					t.Errorf("login %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if hashes.Load() != DefaultLoginsPerSecond || bad.Load() != DefaultLoginsPerSecond || refused.Load() != 200-DefaultLoginsPerSecond {
			t.Fatalf("%d hashes, %d wrong, %d refused; want %d, %d, %d", hashes.Load(), bad.Load(), refused.Load(),
				DefaultLoginsPerSecond, DefaultLoginsPerSecond, 200-DefaultLoginsPerSecond)
		}
		s.throttle.mu.Lock()
		kept := len(s.throttle.entries)
		s.throttle.mu.Unlock()
		if kept > 2*DefaultLoginsPerSecond {
			t.Fatalf("the throttle keeps %d entries after %d checked logins", kept, DefaultLoginsPerSecond)
		}

		// Refused attempts for bob from one address leave it unlocked.
		for range 20 {
			_, err := s.Login(ctx, "bob", "wrong-password", "198.51.100.1")
			wantTooManyLogins(t, "bob while the budget is spent", err)
		}
		c.add(time.Second)
		for i := range DefaultLoginsPerSecond / 2 {
			if _, err := s.Login(ctx, "bob", "wrong-password", fmt.Sprintf("203.0.113.%d", i)); err != errBadCredentials {
				t.Fatalf("bob, wrong password %d: %v", i, err)
			}
			if _, err := s.Login(ctx, fmt.Sprintf("ghost-%d", i), "wrong-password", "203.0.113.200"); err != errBadCredentials {
				t.Fatalf("an unknown name %d: %v", i, err)
			}
		}
		_, err := s.Login(ctx, "bob", "password-bob", "198.51.100.1")
		wantTooManyLogins(t, "a known name after the unknown and known ones spent the second", err)
		if hashes.Load() != 2*DefaultLoginsPerSecond {
			t.Fatalf("%d hashes after two seconds, want %d", hashes.Load(), 2*DefaultLoginsPerSecond)
		}
		c.add(time.Second)
		if _, err := s.Login(ctx, "bob", "password-bob", "198.51.100.1"); err != nil {
			t.Fatalf("bob's right password from the address whose attempts the budget refused: %v", err)
		}
	})
}
