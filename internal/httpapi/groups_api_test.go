package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

type groupJSON struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Members []struct {
		ID       int64  `json:"id"`
		Username string `json:"username"`
	} `json:"members"`
}

// TestGroupAdminAndDirectory: an admin lists and renames groups with their
// members; a user's directory finds other users and groups by prefix,
// never the caller. (The checking client validates each answer against
// the OpenAPI document too.)
func TestGroupAdminAndDirectory(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		alice, aliceTok := e.newUser("alice")
		e.newUser("albert")
		var g groupJSON
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/groups", e.Admin, map[string]string{"name": "algebra"}), http.StatusCreated, &g)
		e.mustOK(e.do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", g.ID, alice.ID), e.Admin, nil), http.StatusOK, nil)
		// A member's user_id is refused as user_id is everywhere else.
		wantErr(t, e.invalid().do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/x", g.ID), e.Admin, nil), http.StatusBadRequest, "invalid_user_id")

		var renamed groupJSON
		e.mustOK(e.do(http.MethodPatch, fmt.Sprintf("/api/v1/admin/groups/%d", g.ID), e.Admin, map[string]string{"name": "Alchemy"}), http.StatusOK, &renamed)
		if renamed.ID != g.ID || renamed.Name != "alchemy" || len(renamed.Members) != 1 || renamed.Members[0].Username != "alice" {
			t.Fatalf("renamed group %+v", renamed)
		}
		var list struct{ Items []groupJSON }
		e.mustOK(e.do(http.MethodGet, "/api/v1/admin/groups", e.Admin, nil), http.StatusOK, &list)
		if len(list.Items) != 1 || list.Items[0].Name != "alchemy" || len(list.Items[0].Members) != 1 {
			t.Fatalf("groups %+v", list.Items)
		}
		wantErr(t, e.do(http.MethodGet, "/api/v1/admin/groups", aliceTok, nil), http.StatusForbidden, "admin_only")

		var dir struct {
			Users  []struct{ Username string }
			Groups []struct{ Name string }
		}
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/directory?q=al", aliceTok, nil), http.StatusOK, &dir)
		if len(dir.Users) != 1 || dir.Users[0].Username != "albert" || len(dir.Groups) != 1 || dir.Groups[0].Name != "alchemy" {
			t.Fatalf("directory for al: %+v", dir)
		}
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/directory?q=zz", aliceTok, nil), http.StatusOK, &dir)
		if len(dir.Users) != 0 || len(dir.Groups) != 0 {
			t.Fatalf("directory for zz: %+v", dir)
		}
	})
}
