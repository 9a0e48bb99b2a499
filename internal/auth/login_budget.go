package auth

import (
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// DefaultLoginsPerSecond is the login budget: password checks a second
// across every account and address. At bcrypt's default cost a check
// takes some 50–80 ms of one core, so a flood holds about one core at
// most, whatever names it tries.
const DefaultLoginsPerSecond = 10

// loginBudget is a token bucket of password checks shared by every
// login: it refills at rate a second and holds at most one second's
// worth. The per-(account, address) throttle cannot bound a flood of
// made-up names, each its own account; this does, and a made-up name
// costs the same as a real one, since the bucket is drawn from before
// the name is looked up.
type loginBudget struct {
	rate   float64
	tokens float64
	last   time.Time
}

func newLoginBudget(perSecond int) loginBudget {
	if perSecond <= 0 {
		perSecond = DefaultLoginsPerSecond
	}
	return loginBudget{rate: float64(perSecond), tokens: float64(perSecond)}
}

// take spends one check, or answers how long until one is free.
func (b *loginBudget) take(now time.Time) time.Duration {
	if !b.last.IsZero() && now.After(b.last) {
		b.tokens = min(b.rate, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	if now.After(b.last) {
		b.last = now
	}
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}

func tooManyLogins(d time.Duration) error {
	secs := int(d.Seconds() + 0.999)
	e := apierr.TooMany(apierr.CodeTooManyLogins, "too many logins on this server right now; try again in %d seconds", secs).WithDetail("retry_after_s", secs)
	e.RetryAfter = d
	return e
}
