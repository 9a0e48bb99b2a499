package httpapi

import (
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

func TestRateLimiterSlidesAndNamesTheWait(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newRateLimiter(3, time.Minute, "a minute")
	l.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if err := l.allow(1, apierr.CodeTooManyChecks, "checks"); err != nil {
			t.Fatalf("event %d refused: %v", i, err)
		}
		now = now.Add(10 * time.Second)
	}
	// 30s after the first event: it leaves the window in 30s.
	err := l.allow(1, apierr.CodeTooManyChecks, "checks")
	e, ok := apierr.As(err)
	if !ok || e.Status != 429 || e.Code != apierr.CodeTooManyChecks || e.RetryAfter != 30*time.Second || e.Message != "at most 3 checks a minute; try again shortly" {
		t.Fatalf("fourth event: %+v", err)
	}
	if err := l.allow(2, apierr.CodeTooManyChecks, "checks"); err != nil {
		t.Fatalf("another key is limited too: %v", err)
	}
	// A refused event does not count: once the first leaves, one more fits.
	now = now.Add(30 * time.Second)
	if err := l.allow(1, apierr.CodeTooManyChecks, "checks"); err != nil {
		t.Fatalf("after the first left the window: %v", err)
	}
	if err := l.allow(1, apierr.CodeTooManyChecks, "checks"); err == nil {
		t.Fatal("the window holds three again, yet a fourth passed")
	}
}
