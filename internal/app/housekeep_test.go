package app

import (
	"context"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// The housekeeping's audit sweep removes the events past retention and
// keeps the rest.
func TestExpireAuditKeepsRetention(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := storetest.Open(t, "sqlite")
	rec := audit.New(st, audit.Options{})
	now := time.Now()
	for _, at := range []time.Time{now.AddDate(0, 0, -40), now.AddDate(0, 0, -20), now} {
		if err := rec.Record(ctx, audit.Event{Action: audit.SignIn, Username: "alice", At: at}); err != nil {
			t.Fatal(err)
		}
	}
	expireAudit(rec, 30)(ctx)
	evs, _, err := rec.List(ctx, audit.Filter{})
	if err != nil || len(evs) != 2 || evs[1].At.Before(now.AddDate(0, 0, -30)) {
		t.Fatalf("after the sweep: %v %+v", err, evs)
	}
}
