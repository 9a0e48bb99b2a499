package auth

import (
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// Throttle slows password guessing without handing an attacker a way to
// lock the owner out. It counts failures per (account, client address):
// after a few free failures each further one locks that pair for a period
// that doubles up to a ceiling. Other addresses are not affected, so the
// owner signs in while someone else guesses, and a NAT full of users is not
// locked by one of them. Across addresses, an account whose failures pass
// a ceiling is under attack: from then on a new address gets one attempt
// before its lock begins, which slows guessing from many addresses, while an
// address that has not failed is still checked at once, so the correct
// password from it is never refused.
//
// Attempts are admitted under the lock before the password is hashed (in
// flight counts against the free failures), so concurrent guesses cannot all
// pass the check before the first failure is recorded. An admitted attempt
// also spends the global login budget; an attempt refused for either reason
// costs no hash and counts as no failure, and leaves no entry behind, so a
// flood of made-up names cannot fill the table.
// It is in memory, per process; replicas each apply it.
type Throttle struct {
	mu      sync.Mutex
	entries map[string]*throttleEntry
	budget  loginBudget
	now     func() time.Time
}

type throttleEntry struct {
	failures int
	inFlight int
	last     time.Time
	until    time.Time
}

// Throttle tuning.
const (
	pairFreeFailures   = 5
	accountUnderAttack = 20 // failures of one account across addresses
	maxLockout         = 5 * time.Minute
	forgetAfter        = 15 * time.Minute
	maxThrottleEntries = 100_000
)

// NewThrottle builds an empty throttle that admits at most loginsPerSecond
// password checks a second in all (0: DefaultLoginsPerSecond).
func NewThrottle(loginsPerSecond int) *Throttle {
	return &Throttle{entries: map[string]*throttleEntry{}, budget: newLoginBudget(loginsPerSecond), now: time.Now}
}

// Attempt runs check (which reports whether the password was right) unless
// the (account, addr) pair must wait (429 too_many_attempts) or the login
// budget is spent (429 too_many_logins); either carries the wait in
// RetryAfter. A wrong password is errBadCredentials.
func (t *Throttle) Attempt(account, addr string, check func() (bool, error)) error {
	pairKey, acctKey := "p:"+account+"\x00"+addr, "u:"+account
	if err := t.admit(pairKey, acctKey); err != nil {
		return err
	}
	ok, err := check()
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	pair := t.entry(pairKey, now)
	pair.inFlight--
	switch {
	case err != nil:
		return err
	case ok:
		// The account's count stays: the owner signing in does not give an
		// attacker elsewhere a fresh budget.
		pair.failures, pair.until = 0, time.Time{}
		return nil
	}
	acct := t.entry(acctKey, now)
	pair.failures++
	pair.last = now
	acct.failures++
	acct.last = now
	if over := pair.failures - t.limit(acct); over >= 0 {
		pair.until = now.Add(min(time.Second<<min(over, 16), maxLockout))
	}
	return errBadCredentials
}

func (t *Throttle) admit(pairKey, acctKey string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.entries) > maxThrottleEntries {
		t.prune(now)
	}
	pair, acct := t.peek(pairKey, now), t.peek(acctKey, now)
	if d := pair.until.Sub(now); d > 0 {
		return tooMany(d)
	}
	// Below the limit as many attempts may run at once as failures remain;
	// past it, one at a time between locks.
	if pair.inFlight >= max(t.limit(&acct)-pair.failures, 1) {
		return tooMany(time.Second)
	}
	if d := t.budget.take(now); d > 0 {
		return tooManyLogins(d)
	}
	t.entry(pairKey, now).inFlight++
	return nil
}

// peek is key's entry as entry would give it, without storing one.
func (t *Throttle) peek(key string, now time.Time) throttleEntry {
	if e := t.entries[key]; e != nil && (e.inFlight > 0 || now.Sub(e.last) <= forgetAfter) {
		return *e
	}
	return throttleEntry{last: now}
}

// limit is how many failures a pair has before its lock begins.
func (t *Throttle) limit(acct *throttleEntry) int {
	if acct.failures >= accountUnderAttack {
		return 1
	}
	return pairFreeFailures
}

// entry returns key's entry, starting afresh once the last failure is old.
func (t *Throttle) entry(key string, now time.Time) *throttleEntry {
	e := t.entries[key]
	if e == nil {
		e = &throttleEntry{last: now}
		t.entries[key] = e
	} else if e.inFlight == 0 && now.Sub(e.last) > forgetAfter {
		*e = throttleEntry{last: now}
	}
	return e
}

func (t *Throttle) prune(now time.Time) {
	for k, e := range t.entries {
		if e.inFlight == 0 && now.Sub(e.last) > forgetAfter && !e.until.After(now) {
			delete(t.entries, k)
		}
	}
}

func tooMany(d time.Duration) error {
	secs := int(d.Seconds() + 0.999)
	e := apierr.TooMany(apierr.CodeTooManyAttempts, "too many failed logins from this address; try again in %d seconds", secs).WithDetail("retry_after_s", secs)
	e.RetryAfter = d
	return e
}
