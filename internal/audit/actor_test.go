package audit_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/audit"
)

// A sign-in names the account once it is known and keeps the address the
// request came from; an event naming its own account is left as it is.
func TestWithAccountKeepsTheAddress(t *testing.T) {
	t.Parallel()
	ctx := audit.WithClientAddr(context.Background(), "198.51.100.4")
	ctx = audit.WithAccount(ctx, 7, "alice", 0, "keycloak")
	if a := audit.ActorFrom(ctx); a != (audit.Actor{UserID: 7, Username: "alice", Provider: "keycloak", ClientAddr: "198.51.100.4"}) {
		t.Errorf("actor %+v", a)
	}
	ctx = audit.WithAccount(ctx, 8, "bob", 3, "")
	if a := audit.ActorFrom(ctx); a != (audit.Actor{UserID: 8, Username: "bob", TokenID: 3, ClientAddr: "198.51.100.4"}) {
		t.Errorf("a second account replaces the first whole: %+v", a)
	}
}
