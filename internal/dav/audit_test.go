package dav_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// A WebDAV DELETE leaves one delete event naming alice, her token, the
// file's URI and where she connected from.
func TestDeleteIsAudited(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		rec := e.svc.Audit()
		ctx := context.Background()
		e.put("/dav/notes/gone.md", "bye", http.StatusCreated)
		if got := e.status(req{method: "DELETE", path: "/dav/notes/gone.md"}); got != http.StatusNoContent {
			t.Fatalf("DELETE: %d", got)
		}
		evs, _, err := rec.List(ctx, audit.Filter{Actions: []audit.Action{audit.Delete}})
		if err != nil || len(evs) != 1 {
			t.Fatalf("delete events: %v %+v", err, evs)
		}
		gone := evs[0]
		if gone.Username != "alice" || gone.UserID != e.alice.ID || gone.TokenID == 0 || gone.Target != "kb://users/alice/notes/gone.md" ||
			gone.Result != audit.OK || gone.ClientAddr != "127.0.0.1" {
			t.Errorf("the delete: %+v", gone)
		}
	})
}
