package auth

import (
	"context"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// clock is a settable time for the service and its throttle.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func newService(t *testing.T, dialect string, ttl, maxTTL time.Duration) (*Service, *clock) {
	t.Helper()
	st, _ := storetest.Open(t, dialect)
	s, err := New(st, nil, Options{Secret: []byte("auth-test-secret-0123456789abcdefgh"), TTL: ttl, MaxTTL: maxTTL, BcryptCost: bcrypt.MinCost})
	if err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Now()}
	s.now, s.throttle.now = c.now, c.now
	return s, c
}

func code(err error) string {
	if e, ok := apierr.As(err); ok {
		return e.Code.String()
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// TestSlidingSession: a session in use outlives its idle TTL, up to the
// maximum; an unused one ends after the idle TTL.
func TestSlidingSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		s, c := newService(t, dialect, time.Hour, 5*time.Hour)
		ctx := context.Background()
		if _, err := s.CreateUser(ctx, "bob", "password-bob", store.RoleUser); err != nil {
			t.Fatal(err)
		}
		busy, err := s.Login(ctx, "bob", "password-bob", "a")
		if err != nil {
			t.Fatal(err)
		}
		idle, _ := s.Login(ctx, "bob", "password-bob", "a")
		// Used every 50 minutes, the busy session lives past the idle hour.
		for i := 1; i <= 5; i++ {
			c.add(50 * time.Minute)
			if _, err := s.Authenticate(ctx, busy.Token); err != nil {
				t.Fatalf("use %d after %v: %v", i, time.Duration(i)*50*time.Minute, err)
			}
		}
		if _, err := s.Authenticate(ctx, idle.Token); code(err) != "token_expired" {
			t.Fatalf("unused session after 250m: %v", err)
		}
		// 250 minutes in; the maximum is 300 whatever the use.
		c.add(45 * time.Minute)
		if _, err := s.Authenticate(ctx, busy.Token); err != nil {
			t.Fatalf("before the maximum: %v", err)
		}
		c.add(10 * time.Minute)
		if _, err := s.Authenticate(ctx, busy.Token); code(err) != "token_expired" {
			t.Fatalf("past the maximum: %v", err)
		}
	})
}

// TestThrottleConcurrentAttempts: 200 concurrent wrong passwords from one
// address compute exactly the free number of hashes, the rest get 429.
func TestThrottleConcurrentAttempts(t *testing.T) {
	th := NewThrottle(1 << 20) // the pair rules alone
	var mu sync.Mutex
	hashes, refused := 0, 0
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			err := th.Attempt("bob", "10.0.0.1", func() (bool, error) {
				mu.Lock()
				hashes++
				mu.Unlock()
				time.Sleep(5 * time.Millisecond) // a hash takes time
				return false, nil
			})
			if e, ok := apierr.As(err); ok && e.Status == 429 && e.RetryAfter > 0 {
				mu.Lock()
				refused++
				mu.Unlock()
			}
		}()
	}
	close(start)
	wg.Wait()
	if hashes != pairFreeFailures || refused != 200-pairFreeFailures {
		t.Fatalf("%d hashes, %d refused; want %d and %d", hashes, refused, pairFreeFailures, 200-pairFreeFailures)
	}
}

// TestThrottleOwnerDuringAttack: guesses from many addresses never stop the
// owner's correct password from an address that has not failed, while the
// attackers' addresses are locked with growing delays.
func TestThrottleOwnerDuringAttack(t *testing.T) {
	th := NewThrottle(1 << 20) // the pair rules alone
	c := &clock{t: time.Now()}
	th.now = c.now
	wrong := func() (bool, error) { return false, nil }
	right := func() (bool, error) { return true, nil }
	// 50 addresses guess until each is locked; the account is under attack.
	for a := 0; a < 50; a++ {
		addr := "203.0.113." + string(rune('A'+a%26)) + string(rune('a'+a/26))
		for th.Attempt("bob", addr, wrong) == errBadCredentials {
		}
	}
	if err := th.Attempt("bob", "198.51.100.7", right); err != nil {
		t.Fatalf("owner refused during the attack: %v", err)
	}
	// A new attacker address gets one guess only, then waits.
	if err := th.Attempt("bob", "192.0.2.99", wrong); err != errBadCredentials {
		t.Fatal(err)
	}
	err := th.Attempt("bob", "192.0.2.99", wrong)
	if e, ok := apierr.As(err); !ok || e.Status != 429 {
		t.Fatalf("second guess from a new address under attack: %v", err)
	}
	// Delays grow: after each wait, one more guess and a longer lock.
	var waits []time.Duration
	for i := 0; i < 4; i++ {
		e, _ := apierr.As(th.Attempt("bob", "192.0.2.99", wrong))
		waits = append(waits, e.RetryAfter)
		c.add(e.RetryAfter)
		if err := th.Attempt("bob", "192.0.2.99", wrong); err != errBadCredentials {
			t.Fatalf("after waiting %v: %v", e.RetryAfter, err)
		}
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] <= waits[i-1] {
			t.Fatalf("delays do not grow: %v", waits)
		}
	}
	// The owner still gets in, from a fresh address and from their own.
	if err := th.Attempt("bob", "198.51.100.7", right); err != nil {
		t.Fatalf("owner refused: %v", err)
	}
}

// TestTokenExpiry: a token with expires_in_days stops working after it.
func TestTokenExpiry(t *testing.T) {
	s, c := newService(t, store.DialectSQLite, time.Hour, time.Hour)
	ctx := context.Background()
	u, err := s.CreateUser(ctx, "bob", "password-bob", store.RoleUser)
	if err != nil {
		t.Fatal(err)
	}
	day, _ := s.CreateToken(ctx, u.ID, "day", 1)
	forever, _ := s.CreateToken(ctx, u.ID, "forever", 0)
	c.add(23 * time.Hour)
	if _, err := s.Authenticate(ctx, day.Secret); err != nil {
		t.Fatal(err)
	}
	c.add(2 * time.Hour)
	if _, err := s.Authenticate(ctx, day.Secret); code(err) != "token_expired" {
		t.Fatalf("after 25h: %v", err)
	}
	if _, err := s.Authenticate(ctx, forever.Secret); err != nil {
		t.Fatal(err)
	}
}
