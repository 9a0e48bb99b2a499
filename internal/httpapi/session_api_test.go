package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestLogout: logout ends only the calling session; logout-all ends every
// session of the user and leaves API tokens and other users alone.
func TestLogout(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, one := e.newUser("bob")
		two := e.login("bob", userPassword)
		three := e.login("bob", userPassword)
		_, carol := e.newUser("carol")
		var tok tokenJSON
		e.mustOK(e.do("POST", "/api/v1/auth/tokens", one, map[string]string{"name": "script"}), 201, &tok)
		const me = "/api/v1/auth/me"

		e.mustOK(e.do("POST", "/api/v1/auth/logout", one, nil), 204, nil)
		wantErr(t, e.do("GET", me, one, nil), 401, "invalid_token")
		wantErr(t, e.do("POST", "/api/v1/auth/logout", one, nil), 401, "invalid_token")
		e.mustOK(e.do("GET", me, two, nil), 200, nil)
		wantErr(t, e.do("POST", "/api/v1/auth/logout", tok.Token, nil), 400, "not_a_session")

		var out struct {
			SessionsEnded int `json:"sessions_ended"`
		}
		e.mustOK(e.do("POST", "/api/v1/auth/logout-all", two, nil), 200, &out)
		if out.SessionsEnded != 2 {
			t.Fatalf("logout-all ended %d sessions, want 2", out.SessionsEnded)
		}
		for _, s := range []string{two, three} {
			wantErr(t, e.do("GET", me, s, nil), 401, "invalid_token")
		}
		e.mustOK(e.do("GET", me, tok.Token, nil), 200, nil)
		e.mustOK(e.do("GET", me, carol, nil), 200, nil)
		e.login("bob", userPassword)
	})
}

// TestChangePassword: the current password is required; the change keeps
// the calling session and ends every other session and API token.
func TestChangePassword(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, here := e.newUser("bob")
		elsewhere := e.login("bob", userPassword)
		var tok tokenJSON
		e.mustOK(e.do("POST", "/api/v1/auth/tokens", here, map[string]string{"name": "script"}), 201, &tok)
		const pw, me = "/api/v1/auth/password", "/api/v1/auth/me"
		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Invalid: true, Name: "missing fields", Method: "POST", URL: pw, Token: here, Body: map[string]string{"new_password": "x"}, WantStatus: 400, WantCode: "invalid_request"},
			{Name: "wrong current password", Method: "POST", URL: pw, Token: here, Body: map[string]string{"current_password": "nope-nope", "new_password": "brand-new-password"}, WantStatus: 400, WantCode: "wrong_password"},
			{Name: "weak new password", Method: "POST", URL: pw, Token: here, Body: map[string]string{"current_password": userPassword, "new_password": "short"}, WantStatus: 400, WantCode: "weak_password"},
			{Name: "nothing changed yet", Method: "GET", URL: me, Token: elsewhere, WantStatus: 200},
			{Name: "change", Method: "POST", URL: pw, Token: here, Body: map[string]string{"current_password": userPassword, "new_password": "brand-new-password"}, WantStatus: 204},
			{Name: "this session stays", Method: "GET", URL: me, Token: here, WantStatus: 200},
			{Name: "the other session ended", Method: "GET", URL: me, Token: elsewhere, WantStatus: 401, WantCode: "invalid_token"},
			{Name: "the API token ended", Method: "GET", URL: me, Token: tok.Token, WantStatus: 401, WantCode: "invalid_token"},
			{Name: "old password refused", Method: "POST", URL: "/api/v1/auth/login", Body: map[string]string{"username": "bob", "password": userPassword}, WantStatus: 401, WantCode: "invalid_credentials"},
		})
		e.login("bob", "brand-new-password")
	})
}

// TestTokenExpiryAndAdminTokens: expires_in_days sets expires_at; admins
// list every token with its owner and revoke any of them.
func TestTokenExpiryAndAdminTokens(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		const tokens = "/api/v1/auth/tokens"
		var week, forever tokenJSON
		e.mustOK(e.do("POST", tokens, bob, map[string]any{"name": "week", "expires_in_days": 7}), 201, &week)
		e.mustOK(e.do("POST", tokens, bob, map[string]any{"name": "forever"}), 201, &forever)
		if week.ExpiresAt == nil || time.Until(*week.ExpiresAt) < 7*24*time.Hour-time.Minute || time.Until(*week.ExpiresAt) > 7*24*time.Hour+time.Minute {
			t.Fatalf("expires_at %v, want in 7 days", week.ExpiresAt)
		}
		if forever.ExpiresAt != nil {
			t.Fatalf("token without expiry has expires_at %v", forever.ExpiresAt)
		}
		for _, bad := range []any{-1, 3651, "7", 1.5} {
			wantErr(t, e.invalid().do("POST", tokens, bob, map[string]any{"name": "x", "expires_in_days": bad}), 400, map[bool]string{true: "invalid_expiry", false: "invalid_json"}[fmt.Sprint(bad) == "-1" || fmt.Sprint(bad) == "3651"])
		}
		// last_used_at is recorded on use.
		e.mustOK(e.do("GET", "/api/v1/auth/me", week.Token, nil), 200, nil)
		var mine struct{ Items []tokenJSON }
		e.mustOK(e.do("GET", tokens, bob, nil), 200, &mine)
		for _, it := range mine.Items {
			if it.ID == week.ID && it.LastUsedAt == nil {
				t.Fatal("last_used_at not recorded")
			}
		}

		const admin = "/api/v1/admin/tokens"
		wantErr(t, e.do("GET", admin, bob, nil), 403, "admin_only")
		wantErr(t, e.do("DELETE", fmt.Sprintf("%s/%d", admin, week.ID), bob, nil), 403, "admin_only")
		var all struct {
			Items []struct {
				tokenJSON
				Username string `json:"username"`
			}
		}
		e.mustOK(e.do("GET", admin, e.Admin, nil), 200, &all)
		if len(all.Items) != 2 || all.Items[0].Username != "bob" || all.Items[0].Name != "forever" || all.Items[1].Name != "week" {
			t.Fatalf("admin listing %+v", all.Items)
		}
		e2 := e.do("GET", admin, e.Admin, nil)
		if strings.Contains(string(e2.Body), week.Token) || strings.Contains(string(e2.Body), "hash") {
			t.Fatalf("admin listing leaks secrets: %s", e2.Body)
		}
		e.mustOK(e.do("DELETE", fmt.Sprintf("%s/%d", admin, week.ID), e.Admin, nil), 204, nil)
		wantErr(t, e.do("DELETE", fmt.Sprintf("%s/%d", admin, week.ID), e.Admin, nil), 404, "token_not_found")
		wantErr(t, e.do("GET", "/api/v1/auth/me", week.Token, nil), 401, "invalid_token")
		e.mustOK(e.do("GET", "/api/v1/auth/me", forever.Token, nil), 200, nil)
	})
}
