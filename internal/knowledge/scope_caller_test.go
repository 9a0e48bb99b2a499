package knowledge

import (
	"testing"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/kb"
)

func TestScopedCallerDecide(t *testing.T) {
	c := kb.Caller{ID: 1, Username: "alice", ScopeID: 7, ScopePath: "projects/alpha", ReadOnly: true}
	for _, raw := range []string{"kb://me/projects/", "kb://me/projects/alph", "kb://me/projects/alpha2/", "kb://users/bob/",
		"kb://me/projects/beta/x", "kb://users/bob/projects/alpha/"} {
		u, err := kb.ParseURI(raw, c.Username)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if _, _, err := decideScoped(c, u); err == nil {
			t.Errorf("%s is visible to a token scoped to projects/alpha", raw)
		}
		if c.SeesURI(raw) {
			t.Errorf("SeesURI(%s)", raw)
		}
	}
	for _, raw := range []string{"kb://me/projects/alpha/", "kb://users/alice/projects/alpha", "kb://me/projects/alpha/sub/f.md"} {
		u, _ := kb.ParseURI(raw, c.Username)
		_, dec, err := decideScoped(c, u)
		if err != nil || dec.Role != access.Read || dec.WriteRoot != "projects/alpha" || !c.SeesURI(raw) {
			t.Errorf("%s: %+v %v", raw, dec, err)
		}
	}
	root, _ := kb.ParseURI("kb://me/", c.Username)
	if _, dec, err := decideScoped(c, root); err != nil || dec.CanWrite() {
		t.Errorf("root: %+v %v", dec, err)
	}
	if got, _ := NarrowScope(c, "kb://me/"); got != "kb://users/alice/projects/alpha/" {
		t.Errorf("NarrowScope(root) = %s", got)
	}
	if _, err := NarrowScope(c, "kb://shared/"); err == nil {
		t.Error("kb://shared/ is inside a scope")
	}
	rw := c
	rw.ReadOnly = false
	u, _ := kb.ParseURI("kb://me/projects/alpha/x", c.Username)
	if _, dec, _ := decideScoped(rw, u); !dec.CanWrite() {
		t.Error("a read-write scoped token cannot write in its scope")
	}
	if (kb.Caller{ID: 1, Username: "alice"}).Scoped() || !(kb.Caller{ID: 1, Username: "alice"}).InScope("anything") {
		t.Error("an unscoped caller is limited")
	}
}
