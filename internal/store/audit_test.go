package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestAuditEvents: events list newest first by user, action, time range
// and page; no event can be rewritten; retention deletes the old ones.
func TestAuditEvents(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		base := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		alice, bob := int64(1), int64(2)
		before := `{"role":"read"}`
		for i, e := range []store.AuditEvent{
			{At: base, UserID: &alice, Username: "alice", Action: "signin", Result: "ok"},
			{At: base.Add(time.Hour), UserID: &bob, Username: "bob", Action: "signin_failed", Result: "refused", Code: "bad_credentials"},
			{At: base.Add(2 * time.Hour), UserID: &alice, Username: "alice", Action: "share_change", Target: "kb://alice/a", BeforeJSON: &before, Result: "ok"},
			{At: base.Add(3 * time.Hour), UserID: &alice, Username: "alice", Action: "logout", Result: "ok"},
		} {
			if err := st.AppendAuditEvent(ctx, &e); err != nil || e.ID == 0 {
				t.Fatalf("append %d: %v (id %d)", i, err, e.ID)
			}
		}
		list := func(f store.AuditFilter) []string {
			t.Helper()
			es, err := st.ListAuditEvents(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range es {
				got = append(got, e.Username+":"+e.Action)
			}
			return got
		}
		cases := []struct {
			name string
			f    store.AuditFilter
			want []string
		}{
			{"all, newest first", store.AuditFilter{}, []string{"alice:logout", "alice:share_change", "bob:signin_failed", "alice:signin"}},
			{"one user", store.AuditFilter{UserID: bob}, []string{"bob:signin_failed"}},
			{"actions", store.AuditFilter{Actions: []string{"signin", "logout"}}, []string{"alice:logout", "alice:signin"}},
			{"time range", store.AuditFilter{Since: base.Add(time.Hour), Until: base.Add(3 * time.Hour)}, []string{"alice:share_change", "bob:signin_failed"}},
			{"a page", store.AuditFilter{Limit: 2}, []string{"alice:logout", "alice:share_change"}},
		}
		for _, c := range cases {
			if got := list(c.f); !slices.Equal(got, c.want) {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
		first, _ := st.ListAuditEvents(ctx, store.AuditFilter{Limit: 2})
		if got := list(store.AuditFilter{BeforeID: first[1].ID}); !slices.Equal(got, []string{"bob:signin_failed", "alice:signin"}) {
			t.Errorf("next page: %v", got)
		}
		if first[1].BeforeJSON == nil || *first[1].BeforeJSON != before || !first[1].At.Equal(base.Add(2*time.Hour)) {
			t.Errorf("share_change read back as %+v", first[1])
		}
		if err := st.RewriteAuditTarget(ctx, first[0].ID, "kb://elsewhere"); err == nil {
			t.Errorf("an audit event was rewritten")
		}
		n, err := st.DeleteAuditEventsBefore(ctx, base.Add(90*time.Minute))
		if err != nil || n != 2 {
			t.Fatalf("retention deleted %d: %v", n, err)
		}
		if got := list(store.AuditFilter{}); !slices.Equal(got, []string{"alice:logout", "alice:share_change"}) {
			t.Errorf("after retention: %v", got)
		}
	})
}
