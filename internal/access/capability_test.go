package access

import (
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

func TestAllowIsTheRuleForTokens(t *testing.T) {
	session := kb.Caller{ID: 1, Username: "alice"}
	readOnly := kb.Caller{ID: 1, Username: "alice", ReadOnly: true}
	scopedRW := kb.Caller{ID: 1, Username: "alice", ScopeID: 7, ScopePath: "p"}
	scopedRO := kb.Caller{ID: 1, Username: "alice", ScopeID: 7, ScopePath: "p", ReadOnly: true}
	for _, tc := range []struct {
		c    kb.Caller
		need Capability
		want string // "" allowed, else the refusal's code
	}{
		{session, Public, ""}, {session, FolderRead, ""}, {session, FolderWrite, ""}, {session, Account, ""}, {session, Undeclared, ""},
		{readOnly, FolderRead, ""}, {readOnly, FolderWrite, "read_only"}, {readOnly, Account, ""},
		{scopedRW, FolderRead, ""}, {scopedRW, FolderWrite, ""}, {scopedRW, Account, "scoped_token"}, {scopedRW, Undeclared, "scoped_token"},
		{scopedRO, FolderRead, ""}, {scopedRO, FolderWrite, "read_only"}, {scopedRO, Account, "scoped_token"},
	} {
		err := Allow(tc.c, tc.need, "")
		e, _ := apierr.As(err)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v need %d: refused %v", tc.c, tc.need, err)
		case tc.want != "" && (e == nil || e.Code.String() != tc.want || e.Status != 403):
			t.Errorf("%+v need %d: got %v, want 403 %s", tc.c, tc.need, err, tc.want)
		}
	}
	e, _ := apierr.As(Allow(readOnly, FolderWrite, "it cannot change job 5"))
	if e == nil || e.Message != "this API token is read-only: it cannot change job 5" {
		t.Errorf("the refusal names what was refused: %v", e)
	}
}
