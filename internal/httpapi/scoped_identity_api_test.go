package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestScopedTokenMatchesByNodeNotPath: conversations and trash items
// belong to the folder they were about, whatever it is called now. A
// folder renamed away (q3/ → q3-private/) takes them along; a new folder
// of the old name, and a token scoped to it, get none of them.
func TestScopedTokenMatchesByNodeNotPath(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		ctx := context.Background()
		mkdir := func(uri string) {
			env.mustCall(t, "alice", http.MethodPost, "/api/v1/resources/folders", `{"uri":"`+uri+`"}`, http.StatusCreated, nil)
		}
		mkdir("kb://me/q3/")
		mkdir("kb://me/q3/old/")
		var conv convJSON
		env.mustCall(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/q3/","title":"Q3 layoffs"}`, http.StatusCreated, &conv)
		env.mustCall(t, "alice", http.MethodDelete, "/api/v1/resources?uri=kb://me/q3/old/", "", http.StatusNoContent, nil)
		var trash struct {
			Items []struct {
				ID  int64  `json:"id"`
				URI string `json:"uri"`
			} `json:"items"`
		}
		env.mustCall(t, "alice", http.MethodGet, "/api/v1/trash", "", http.StatusOK, &trash)
		if len(trash.Items) != 1 {
			t.Fatalf("alice's trash %+v", trash.Items)
		}
		item := trash.Items[0].ID
		env.mustCall(t, "alice", http.MethodPatch, "/api/v1/resources", `{"uri":"kb://me/q3/","new_uri":"kb://me/q3-private/"}`, http.StatusOK, nil)
		mkdir("kb://me/q3/")

		u, err := env.stack.Store.UserByUsername(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		f := false
		for name, sc := range map[string]auth.TokenScope{
			"new-ro": {URI: "kb://me/q3/"}, "new-rw": {URI: "kb://me/q3/", ReadOnly: &f},
			"old-rw": {URI: "kb://me/q3-private/", ReadOnly: &f},
		} {
			tok, err := env.stack.Auth.CreateScopedToken(ctx, u, name, 0, sc)
			if err != nil {
				t.Fatal(err)
			}
			env.tokens[name] = tok.Secret
		}
		convIDs := func(who string) []int64 {
			var page convPage
			env.mustCall(t, who, http.MethodGet, convPath, "", http.StatusOK, &page)
			var ids []int64
			for _, c := range page.Items {
				ids = append(ids, c.ID)
			}
			return ids
		}
		one := fmt.Sprintf("%s/%d", convPath, conv.ID)
		for _, who := range []string{"new-ro", "new-rw"} {
			if ids := convIDs(who); slices.Contains(ids, conv.ID) {
				t.Errorf("%s (scoped to the new q3/) lists the renamed folder's conversation: %v", who, ids)
			}
			for _, p := range []string{one, one + "/export"} {
				st, raw := env.call(t, who, http.MethodGet, p, "")
				if st != http.StatusNotFound || strings.Contains(string(raw), "Q3 layoffs") {
					t.Errorf("%s GET %s: %d %s, want 404", who, p, st, raw)
				}
			}
			env.mustCall(t, who, http.MethodGet, "/api/v1/trash", "", http.StatusOK, &trash)
			if len(trash.Items) != 0 {
				t.Errorf("%s sees the renamed folder's trash: %+v", who, trash.Items)
			}
		}
		st, raw := env.call(t, "new-rw", http.MethodPost, "/api/v1/trash/restore", fmt.Sprintf(`{"id":%d}`, item))
		if st != http.StatusNotFound {
			t.Errorf("new-rw restores the renamed folder's item: %d %s", st, raw)
		}
		st, raw = env.call(t, "new-rw", http.MethodDelete, fmt.Sprintf("/api/v1/trash/%d", item), "")
		if st != http.StatusNotFound {
			t.Errorf("new-rw purges the renamed folder's item: %d %s", st, raw)
		}

		// The renamed folder's own token sees both, and the restore lands
		// in the folder the item came from, under its new name.
		if ids := convIDs("old-rw"); !slices.Contains(ids, conv.ID) {
			t.Errorf("old-rw (scoped to q3-private/) misses its conversation: %v", ids)
		}
		env.mustCall(t, "old-rw", http.MethodGet, "/api/v1/trash", "", http.StatusOK, &trash)
		if len(trash.Items) != 1 || trash.Items[0].ID != item {
			t.Fatalf("old-rw's trash %+v", trash.Items)
		}
		var restored struct {
			URI string `json:"uri"`
		}
		env.mustCall(t, "old-rw", http.MethodPost, "/api/v1/trash/restore", fmt.Sprintf(`{"id":%d}`, item), http.StatusOK, &restored)
		if restored.URI != "kb://users/alice/q3-private/old/" {
			t.Fatalf("restored at %s", restored.URI)
		}
		if _, err := env.stack.Store.NodeByPath(ctx, u.ID, "q3/old"); err == nil {
			t.Fatalf("the restore made q3/old in the new q3/")
		}
	})
}
