package httpapi_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// signJWT builds a token the way an attacker (or a test) would.
func signJWT(t *testing.T, m jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, claims).SignedString(key)
	if err != nil {
		t.Fatalf("sign %s: %v", m.Alg(), err)
	}
	return s
}

// sessionClaims are the claims the server issues for the user.
func sessionClaims(id int64, name, role string, exp time.Time) jwt.MapClaims {
	return jwt.MapClaims{
		"iss": "knowspace", "sub": strconv.FormatInt(id, 10),
		"iat": time.Now().Add(-time.Minute).Unix(), "exp": exp.Unix(),
		"name": name, "role": role,
	}
}

// sessionID reads the session id out of a real session token.
func sessionID(t *testing.T, token string) string {
	t.Helper()
	var c jwt.MapClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &c); err != nil {
		t.Fatal(err)
	}
	sid, _ := c["sid"].(string)
	if sid == "" {
		t.Fatalf("session token without sid: %v", c)
	}
	return sid
}

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// TestLoginAndTokens covers login, bad JSON bodies and every kind of bad
// bearer credential.
func TestLoginAndTokens(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		bob, bobTok := e.newUser("bob")
		const login = "/api/v1/auth/login"
		const me = "/api/v1/auth/me"
		secret := []byte(testSecret)
		future := time.Now().Add(time.Hour)

		var wrongPwMsg string
		noneTok := signJWT(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, sessionClaims(bob.ID, "bob", "user", future))
		huge := `{"username":"` + strings.Repeat("a", httpapi.MaxJSONBody+10) + `","password":"x"}`
		noExp := sessionClaims(bob.ID, "bob", "user", future)
		delete(noExp, "exp")
		otherIss := sessionClaims(bob.ID, "bob", "user", future)
		otherIss["iss"] = "someone-else"
		// Claims signed with the server's key still need a live session.
		withSession := func(c jwt.MapClaims, sid string) jwt.MapClaims { c["sid"] = sid; return c }
		bobSID := sessionID(t, bobTok)
		valid := signJWT(t, jwt.SigningMethodHS256, secret, withSession(sessionClaims(bob.ID, "bob", "user", future), bobSID))
		parts := strings.Split(valid, ".")
		noSession := signJWT(t, jwt.SigningMethodHS256, secret, sessionClaims(bob.ID, "bob", "user", future))
		madeUp := signJWT(t, jwt.SigningMethodHS256, secret, withSession(sessionClaims(bob.ID, "bob", "user", future), "0123456789abcdef0123456789abcdef"))
		asAdmin := withSession(sessionClaims(bob.ID, "bob", "admin", future), bobSID)
		adminSID := sessionID(t, e.Admin)

		rows := []apptest.Scenario{
			{Name: "login success", Method: "POST", URL: login, Body: map[string]string{"username": "bob", "password": userPassword}, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var raw map[string]json.RawMessage
					r.Decode(t, &raw)
					for _, k := range []string{"token", "expires_at", "user"} {
						if _, ok := raw[k]; !ok {
							t.Errorf("login answer lacks %q: %s", k, r.Body)
						}
					}
					var out loginJSON
					r.Decode(t, &out)
					if out.Token == "" || out.User.ID != bob.ID || out.User.Username != "bob" || out.User.Role != "user" {
						t.Errorf("login answer %s", r.Body)
					}
					if d := time.Until(out.IdleExpiresAt); d < testSessionTTL-time.Minute || d > testSessionTTL+time.Minute {
						t.Errorf("idle_expires_at %s is not about %s from now", out.IdleExpiresAt, testSessionTTL)
					}
					if d := time.Until(out.ExpiresAt); d < testSessionMax-time.Minute || d > testSessionMax+time.Minute {
						t.Errorf("expires_at %s is not about %s from now", out.ExpiresAt, testSessionMax)
					}
					if strings.Contains(strings.ToLower(string(r.Body)), "hash") || strings.Contains(string(r.Body), "$2a$") {
						t.Errorf("login answer leaks the password hash: %s", r.Body)
					}
				}},
			{Name: "login name is case-insensitive and trimmed", Method: "POST", URL: login, Body: map[string]string{"username": " BOB ", "password": userPassword}, WantStatus: 200},
			{Name: "wrong password", Method: "POST", URL: login, Body: map[string]string{"username": "bob", "password": "wrong-password"}, WantStatus: 401, WantCode: "invalid_credentials",
				Check: func(t *testing.T, r resp) { _, wrongPwMsg, _ = r.APIError() }},
			{Name: "unknown user answers like a wrong password", Method: "POST", URL: login, Body: map[string]string{"username": "nobody", "password": "wrong-password"}, WantStatus: 401, WantCode: "invalid_credentials",
				Check: func(t *testing.T, r resp) {
					if _, msg, _ := r.APIError(); msg != wrongPwMsg {
						t.Errorf("unknown user message %q differs from wrong password message %q", msg, wrongPwMsg)
					}
				}},
			{Invalid: true, Name: "missing password", Method: "POST", URL: login, Body: `{"username":"bob"}`, WantStatus: 400, WantCode: "invalid_request"},
			{Invalid: true, Name: "malformed JSON", Method: "POST", URL: login, Body: `{"username":"bob",`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "not JSON at all", Method: "POST", URL: login, Body: `username=bob&password=x`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "unknown field", Method: "POST", URL: login, Body: `{"username":"bob","password":"x","admin":true}`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "wrong field type", Method: "POST", URL: login, Body: `{"username":42,"password":"x"}`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "JSON array", Method: "POST", URL: login, Body: `[]`, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "trailing object", Method: "POST", URL: login, Body: `{"username":"bob","password":"x"}{}`, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "trailing garbage", Method: "POST", URL: login, Body: `{"username":"bob","password":"x"} junk`, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "empty body", Method: "POST", URL: login, Body: ``, WantStatus: 400, WantCode: "invalid_json"},
			{Invalid: true, Name: "no body", Method: "POST", URL: login, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "oversized body", Method: "POST", URL: login, Body: huge, WantStatus: 413, WantCode: "body_too_large"},

			{Name: "self-signed control token on bob's session works", Method: "GET", URL: me, Token: valid, WantStatus: 200},
			{Name: "signed token without a session", Method: "GET", URL: me, Token: noSession, WantStatus: 401, WantCode: "invalid_token"},
			{Name: "signed token naming no session", Method: "GET", URL: me, Token: madeUp, WantStatus: 401, WantCode: "invalid_token"},
			{Name: "bob's claims on the admin's session", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS256, secret, withSession(sessionClaims(bob.ID, "bob", "admin", future), adminSID)), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "session works", Method: "GET", URL: me, Token: bobTok, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var u userJSON
					r.Decode(t, &u)
					if u.ID != bob.ID || u.Username != "bob" || u.Role != "user" {
						t.Errorf("me = %+v", u)
					}
				}},
			{Name: "missing token", Method: "GET", URL: me, WantStatus: 401, WantCode: "missing_token"},
			{Name: "garbage token", Method: "GET", URL: me, Token: "not-a-token", WantStatus: 401, WantCode: "invalid_token"},
			{Name: "garbage three-part token", Method: "GET", URL: me, Token: "a.b.c", WantStatus: 401, WantCode: "invalid_token"},
			{Name: "expired token", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS256, secret, sessionClaims(bob.ID, "bob", "user", time.Now().Add(-time.Minute))), WantStatus: 401, WantCode: "token_expired"},
			{Name: "token without exp", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS256, secret, noExp), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "token from another issuer", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS256, secret, otherIss), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "forged signature", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS256, []byte("another-secret-0123456789abcdefghijkl"), sessionClaims(bob.ID, "bob", "user", future)), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "claims edited after signing", Method: "GET", URL: me, Token: parts[0] + "." + b64(fmt.Sprintf(`{"iss":"knowspace","sub":"1","exp":%d,"name":"admin","role":"admin","tv":0}`, future.Unix())) + "." + parts[2], WantStatus: 401, WantCode: "invalid_token"},
			{Name: "alg none", Method: "GET", URL: me, Token: noneTok, WantStatus: 401, WantCode: "invalid_token"},
			{Name: "alg none with signature kept", Method: "GET", URL: me, Token: b64(`{"alg":"none","typ":"JWT"}`) + "." + parts[1] + "." + parts[2], WantStatus: 401, WantCode: "invalid_token"},
			{Name: "alg HS256 with empty signature", Method: "GET", URL: me, Token: parts[0] + "." + parts[1] + ".", WantStatus: 401, WantCode: "invalid_token"},
			{Name: "HS512 with the right secret", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS512, secret, sessionClaims(bob.ID, "bob", "user", future)), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "HS384 with the right secret", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS384, secret, sessionClaims(bob.ID, "bob", "user", future)), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "token of a user that does not exist (deleted)", Method: "GET", URL: me, Token: signJWT(t, jwt.SigningMethodHS256, secret, sessionClaims(987654, "ghost", "admin", future)), WantStatus: 401, WantCode: "invalid_token"},
			{Name: "role claim is not trusted", Method: "GET", URL: "/api/v1/admin/users", Token: signJWT(t, jwt.SigningMethodHS256, secret, asAdmin), WantStatus: 403, WantCode: "admin_only"},
			{Name: "unknown ks_ API token", Method: "GET", URL: me, Token: "ks_0000000000000000000000000000000000000000000000", WantStatus: 401, WantCode: "invalid_token"},
			{Name: "bare ks_ prefix", Method: "GET", URL: me, Token: "ks_", WantStatus: 401, WantCode: "invalid_token"},
		}
		apptest.RunScenarios(t, e.api(), rows)

		// Schemes other than Bearer are refused, whatever the credential.
		for _, h := range []string{"Basic " + base64.StdEncoding.EncodeToString([]byte("bob:"+userPassword)), "Token " + bobTok, bobTok, "Bearer", "Bearer  "} {
			req, _ := http.NewRequest(http.MethodGet, e.URL+me, nil)
			req.Header.Set("Authorization", h)
			r := e.send(req)
			if r.Status != http.StatusUnauthorized {
				t.Errorf("Authorization %q: want 401, got %s", trunc(h), r)
			}
			if _, _, ok := r.APIError(); !ok {
				t.Errorf("Authorization %q: no error shape: %s", trunc(h), r)
			}
		}
		req, _ := http.NewRequest(http.MethodGet, e.URL+me, nil)
		req.Header.Set("Authorization", "bearer "+bobTok)
		if r := e.send(req); r.Status != http.StatusOK {
			t.Errorf("lower-case bearer scheme: want 200, got %s", r)
		}

		// Every protected route refuses a missing token with the same shape.
		for _, rt := range [][2]string{
			{"GET", "/api/v1/auth/tokens"}, {"POST", "/api/v1/auth/tokens"}, {"DELETE", "/api/v1/auth/tokens/1"},
			{"GET", "/api/v1/admin/users"}, {"POST", "/api/v1/admin/users"}, {"PATCH", "/api/v1/admin/users/1"},
			{"GET", "/api/v1/resources"}, {"POST", "/api/v1/resources/folders"}, {"POST", "/api/v1/resources/upload"},
			{"PATCH", "/api/v1/resources"}, {"DELETE", "/api/v1/resources"}, {"GET", "/api/v1/resources/content"},
			{"GET", "/api/v1/resources/raw"}, {"GET", "/api/v1/no-such-thing"},
		} {
			wantErr(t, e.invalid().do(rt[0], rt[1], "", nil), http.StatusUnauthorized, "missing_token")
		}
	})
}

// TestSessionsEndWithPasswordResetAndDisable shows that a password reset or
// disabling an account ends sessions issued before, and API tokens stop too.
func TestSessionsEndWithPasswordResetAndDisable(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		bob, oldSession := e.newUser("bob")
		var tok struct {
			Token string `json:"token"`
		}
		e.mustOK(e.do("POST", "/api/v1/auth/tokens", oldSession, map[string]string{"name": "script"}), 201, &tok)
		userPath := fmt.Sprintf("/api/v1/admin/users/%d", bob.ID)
		const me = "/api/v1/auth/me"

		// Password reset: the old session ends, the old password stops, the new one works.
		e.mustOK(e.do("PATCH", userPath, e.Admin, map[string]string{"password": "brand-new-password"}), 200, nil)
		wantErr(t, e.do("GET", me, oldSession, nil), 401, "invalid_token")
		wantErr(t, e.do("POST", "/api/v1/auth/login", "", map[string]string{"username": "bob", "password": userPassword}), 401, "invalid_credentials")
		newSession := e.login("bob", "brand-new-password")
		e.mustOK(e.do("GET", me, newSession, nil), 200, nil)
		// The reset revoked the API token too: it was made under the old password.
		wantErr(t, e.do("GET", me, tok.Token, nil), 401, "invalid_token")
		var second struct {
			Token string `json:"token"`
		}
		e.mustOK(e.do("POST", "/api/v1/auth/tokens", newSession, map[string]string{"name": "script"}), 201, &second)
		e.mustOK(e.do("GET", me, second.Token, nil), 200, nil)

		// Disable: session, API token and login all refused.
		var u userJSON
		e.mustOK(e.do("PATCH", userPath, e.Admin, map[string]bool{"disabled": true}), 200, &u)
		if !u.Disabled {
			t.Fatalf("PATCH disabled answered %+v", u)
		}
		wantErr(t, e.do("GET", me, newSession, nil), 401, "invalid_token")
		wantErr(t, e.do("GET", "/api/v1/resources", newSession, nil), 401, "invalid_token")
		wantErr(t, e.do("GET", me, second.Token, nil), 401, "invalid_token")
		wantErr(t, e.do("POST", "/api/v1/auth/login", "", map[string]string{"username": "bob", "password": "brand-new-password"}), 401, "invalid_credentials")

		// Enable again: neither the session nor the API token comes back.
		e.mustOK(e.do("PATCH", userPath, e.Admin, map[string]bool{"disabled": false}), 200, nil)
		wantErr(t, e.do("GET", me, newSession, nil), 401, "invalid_token")
		wantErr(t, e.do("GET", me, second.Token, nil), 401, "invalid_token")
		e.login("bob", "brand-new-password")
	})
}

type tokenJSON struct {
	ID         int64      `json:"id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	Token      string     `json:"token"`
}

// TestAPITokens covers create (secret shown once), list, use and revoke.
func TestAPITokens(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		bob, bobSession := e.newUser("bob")
		_, carol := e.newUser("carol")
		const tokens = "/api/v1/auth/tokens"

		var created tokenJSON
		e.mustOK(e.do("POST", tokens, bobSession, map[string]string{"name": "backup script"}), 201, &created)
		if !strings.HasPrefix(created.Token, "ks_") || created.ID == 0 || created.Name != "backup script" || !strings.HasPrefix(created.Token, created.Prefix) {
			t.Fatalf("created token %+v", created)
		}

		r := e.do("GET", tokens, bobSession, nil)
		var list struct {
			Items []tokenJSON `json:"items"`
		}
		e.mustOK(r, 200, &list)
		if len(list.Items) != 1 || list.Items[0].ID != created.ID || list.Items[0].Token != "" {
			t.Fatalf("token list %s", r.Body)
		}
		if strings.Contains(string(r.Body), created.Token) || strings.Contains(string(r.Body), `"token"`) {
			t.Fatalf("token list shows the secret: %s", r.Body)
		}

		// The token is a bearer credential for every route, including resources.
		var u userJSON
		e.mustOK(e.do("GET", "/api/v1/auth/me", created.Token, nil), 200, &u)
		if u.ID != bob.ID {
			t.Fatalf("token authenticates as %+v", u)
		}
		e.mustOK(e.do("GET", q("/api/v1/resources", "kb://me/"), created.Token, nil), 200, nil)
		e.mustOK(e.do("GET", tokens, created.Token, nil), 200, &list)
		if list.Items[0].LastUsedAt == nil {
			t.Errorf("last_used_at not set after use: %+v", list.Items[0])
		}

		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "empty name", Method: "POST", URL: tokens, Token: bobSession, Body: map[string]string{"name": "  "}, WantStatus: 400, WantCode: "invalid_name"},
			{Invalid: true, Name: "no name", Method: "POST", URL: tokens, Token: bobSession, Body: `{}`, WantStatus: 400, WantCode: "invalid_name"},
			{Invalid: true, Name: "long name", Method: "POST", URL: tokens, Token: bobSession, Body: map[string]string{"name": strings.Repeat("n", 101)}, WantStatus: 400, WantCode: "invalid_name"},
			{Invalid: true, Name: "unknown field", Method: "POST", URL: tokens, Token: bobSession, Body: `{"name":"x","scope":"all"}`, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "another user cannot see my tokens", Method: "GET", URL: tokens, Token: carol, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					if strings.Contains(string(r.Body), "backup script") {
						t.Errorf("carol sees bob's Token: %s", r.Body)
					}
				}},
			{Name: "another user cannot revoke my token", Method: "DELETE", URL: fmt.Sprintf("%s/%d", tokens, created.ID), Token: carol, WantStatus: 404, WantCode: "token_not_found"},
			{Name: "admin cannot revoke my token either", Method: "DELETE", URL: fmt.Sprintf("%s/%d", tokens, created.ID), Token: e.Admin, WantStatus: 404, WantCode: "token_not_found"},
			{Invalid: true, Name: "bad id", Method: "DELETE", URL: tokens + "/abc", Token: bobSession, WantStatus: 400, WantCode: "invalid_id"},
			{Invalid: true, Name: "zero id", Method: "DELETE", URL: tokens + "/0", Token: bobSession, WantStatus: 400, WantCode: "invalid_id"},
			{Name: "unknown id", Method: "DELETE", URL: tokens + "/999999", Token: bobSession, WantStatus: 404, WantCode: "token_not_found"},
			{Name: "token still works", Method: "GET", URL: "/api/v1/auth/me", Token: created.Token, WantStatus: 200},
			{Name: "a token can revoke itself", Method: "DELETE", URL: fmt.Sprintf("%s/%d", tokens, created.ID), Token: created.Token, WantStatus: 204},
			{Name: "revoked token refused", Method: "GET", URL: "/api/v1/auth/me", Token: created.Token, WantStatus: 401, WantCode: "invalid_token"},
			{Name: "revoke twice", Method: "DELETE", URL: fmt.Sprintf("%s/%d", tokens, created.ID), Token: bobSession, WantStatus: 404, WantCode: "token_not_found"},
			{Name: "session unaffected", Method: "GET", URL: "/api/v1/auth/me", Token: bobSession, WantStatus: 200},
		})

		// A second token is a different secret; revoking one leaves the other.
		var a, b tokenJSON
		e.mustOK(e.do("POST", tokens, bobSession, map[string]string{"name": "a"}), 201, &a)
		e.mustOK(e.do("POST", tokens, bobSession, map[string]string{"name": "b"}), 201, &b)
		if a.Token == b.Token {
			t.Fatal("two tokens share a secret")
		}
		e.mustOK(e.do("DELETE", fmt.Sprintf("%s/%d", tokens, a.ID), bobSession, nil), 204, nil)
		wantErr(t, e.do("GET", "/api/v1/auth/me", a.Token, nil), 401, "invalid_token")
		e.mustOK(e.do("GET", "/api/v1/auth/me", b.Token, nil), 200, nil)
		// A token's secret with one character changed is refused.
		tampered := b.Token[:len(b.Token)-1] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", b.Token[len(b.Token)-1])+1)%16])
		wantErr(t, e.do("GET", "/api/v1/auth/me", tampered, nil), 401, "invalid_token")
	})
}

// TestLoginThrottle: after the free failures an account is locked with 429
// and Retry-After, even for the right password, and unlocks after the wait.
func TestLoginThrottle(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		e.newUser("bob")
		_, carol := e.newUser("carol")
		const login = "/api/v1/auth/login"
		wrong := map[string]string{"username": "bob", "password": "wrong-password"}
		right := map[string]string{"username": "bob", "password": userPassword}

		// Five failures are each a plain 401; the fifth starts a lock-out of
		// one second, so the checks below follow at once.
		for i := 1; i <= 5; i++ {
			wantErr(t, e.do("POST", login, "", wrong), 401, "invalid_credentials")
		}
		for _, body := range []map[string]string{wrong, right, {"username": "BOB", "password": userPassword}} {
			r := e.do("POST", login, "", body)
			wantErr(t, r, 429, "too_many_attempts")
			ra, err := strconv.Atoi(r.Header.Get("Retry-After"))
			if err != nil || ra < 1 || ra > 300 {
				t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
			}
		}
		// Another account from the same address is not locked.
		e.login("carol", userPassword)
		e.mustOK(e.do("GET", "/api/v1/auth/me", carol, nil), 200, nil)

		// After the wait the right password works and clears the count.
		time.Sleep(1100 * time.Millisecond)
		e.login("bob", userPassword)
		wantErr(t, e.do("POST", login, "", wrong), 401, "invalid_credentials")
	})
}

// TestLoginThrottlePerAddress: failures for many accounts from one address
// (a NAT) do not lock another account signing in from it, and client
// headers cannot pick the address the throttle counts.
func TestLoginThrottlePerAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		e.newUser("bob")
		refused := 0
		for i := 0; i < 30; i++ {
			req, _ := http.NewRequest("POST", e.URL+"/api/v1/auth/login", strings.NewReader(`{"username":"carol","password":"wrong-password"}`))
			req.Header.Set("Content-Type", "application/json")
			// X-Forwarded-For is client-controlled and must not reset the count.
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.0.%d.%d", i/250, i%250+1))
			req.Header.Set("X-Real-IP", fmt.Sprintf("10.1.0.%d", i+1))
			r := e.send(req)
			switch {
			case i < 5 && r.Status != 401, i == 5 && r.Status != 429, r.Status != 401 && r.Status != 429:
				t.Fatalf("guess %d: %s", i, r)
			case r.Status == 429:
				refused++
			}
		}
		// The locks after the free failures last 1 s, then 2, 4, 8: a slow
		// machine may see one or two end within the loop, each letting one
		// more guess through; headers that reset the count would let all.
		if refused < 22 {
			t.Fatalf("%d of 25 guesses past the free ones were refused", refused)
		}
		e.login("bob", userPassword)
	})
}

// TestAdminUsers covers the admin account API.
func TestAdminUsers(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		bob, bobTok := e.newUser("bob")
		const users = "/api/v1/admin/users"
		bobPath := fmt.Sprintf("%s/%d", users, bob.ID)
		var adminID int64
		{
			var u userJSON
			e.mustOK(e.do("GET", "/api/v1/auth/me", e.Admin, nil), 200, &u)
			adminID = u.ID
		}
		adminPath := fmt.Sprintf("%s/%d", users, adminID)
		newUser := func(name, pw, role string) map[string]string {
			return map[string]string{"username": name, "password": pw, "role": role}
		}

		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "non-admin cannot list", Method: "GET", URL: users, Token: bobTok, WantStatus: 403, WantCode: "admin_only"},
			{Name: "non-admin cannot create", Method: "POST", URL: users, Token: bobTok, Body: newUser("mallory", userPassword, "admin"), WantStatus: 403, WantCode: "admin_only"},
			{Name: "non-admin cannot patch self", Method: "PATCH", URL: bobPath, Token: bobTok, Body: map[string]string{"role": "admin"}, WantStatus: 403, WantCode: "admin_only"},
			{Name: "non-admin cannot patch admin", Method: "PATCH", URL: adminPath, Token: bobTok, Body: map[string]string{"password": "pwned-password"}, WantStatus: 403, WantCode: "admin_only"},

			{Name: "create user", Method: "POST", URL: users, Token: e.Admin, Body: newUser("carol", userPassword, "user"), WantStatus: 201,
				Check: func(t *testing.T, r resp) {
					var u userJSON
					r.Decode(t, &u)
					if u.ID == 0 || u.Username != "carol" || u.Role != "user" || u.Disabled {
						t.Errorf("created %s", r.Body)
					}
					if strings.Contains(string(r.Body), "$2a$") || strings.Contains(strings.ToLower(string(r.Body)), "hash") {
						t.Errorf("answer leaks the hash: %s", r.Body)
					}
				}},
			{Name: "create admin", Method: "POST", URL: users, Token: e.Admin, Body: newUser("dave", userPassword, "admin"), WantStatus: 201},
			{Name: "role defaults to user", Method: "POST", URL: users, Token: e.Admin, Body: `{"username":"erin","password":"user-password-1"}`, WantStatus: 201,
				Check: func(t *testing.T, r resp) {
					var u userJSON
					r.Decode(t, &u)
					if u.Role != "user" {
						t.Errorf("default role %q", u.Role)
					}
				}},
			{Name: "duplicate", Method: "POST", URL: users, Token: e.Admin, Body: newUser("carol", userPassword, "user"), WantStatus: 409, WantCode: "username_taken"},
			{Name: "duplicate of admin", Method: "POST", URL: users, Token: e.Admin, Body: newUser("admin", userPassword, "user"), WantStatus: 409, WantCode: "username_taken"},
			{Name: "upper-case name", Method: "POST", URL: users, Token: e.Admin, Body: newUser("Frank", userPassword, "user"), WantStatus: 400, WantCode: "invalid_username"},
			{Name: "name with slash", Method: "POST", URL: users, Token: e.Admin, Body: newUser("a/b", userPassword, "user"), WantStatus: 400, WantCode: "invalid_username"},
			{Name: "name with dots only", Method: "POST", URL: users, Token: e.Admin, Body: newUser("..", userPassword, "user"), WantStatus: 400, WantCode: "invalid_username"},
			{Name: "name with space", Method: "POST", URL: users, Token: e.Admin, Body: newUser("a b", userPassword, "user"), WantStatus: 400, WantCode: "invalid_username"},
			{Name: "name too long", Method: "POST", URL: users, Token: e.Admin, Body: newUser(strings.Repeat("a", 65), userPassword, "user"), WantStatus: 400, WantCode: "invalid_username"},
			{Name: "non-ASCII name", Method: "POST", URL: users, Token: e.Admin, Body: newUser("\u0430lice", userPassword, "user"), WantStatus: 400, WantCode: "invalid_username"},
			{Invalid: true, Name: "missing name", Method: "POST", URL: users, Token: e.Admin, Body: `{"password":"user-password-1"}`, WantStatus: 400, WantCode: "invalid_request"},
			{Invalid: true, Name: "missing password", Method: "POST", URL: users, Token: e.Admin, Body: `{"username":"gina"}`, WantStatus: 400, WantCode: "invalid_request"},
			{Name: "weak password", Method: "POST", URL: users, Token: e.Admin, Body: newUser("gina", "short", "user"), WantStatus: 400, WantCode: "weak_password"},
			{Name: "password over 72 bytes", Method: "POST", URL: users, Token: e.Admin, Body: newUser("gina", strings.Repeat("p", 73), "user"), WantStatus: 400, WantCode: "invalid_password"},
			{Invalid: true, Name: "bad role", Method: "POST", URL: users, Token: e.Admin, Body: newUser("gina", userPassword, "root"), WantStatus: 400, WantCode: "invalid_role"},
			{Invalid: true, Name: "unknown field", Method: "POST", URL: users, Token: e.Admin, Body: `{"username":"gina","password":"user-password-1","is_admin":true}`, WantStatus: 400, WantCode: "invalid_json"},

			{Name: "list", Method: "GET", URL: users, Token: e.Admin, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var l struct {
						Items []userJSON `json:"items"`
					}
					r.Decode(t, &l)
					var got []string
					for _, u := range l.Items {
						got = append(got, u.Username+":"+u.Role)
					}
					want := "admin:admin bob:user carol:user dave:admin erin:user"
					if strings.Join(got, " ") != want {
						t.Errorf("users %v, want %s", got, want)
					}
					if strings.Contains(string(r.Body), "$2a$") {
						t.Errorf("list leaks hashes")
					}
				}},

			{Invalid: true, Name: "patch nothing", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: `{}`, WantStatus: 400, WantCode: "invalid_request"},
			{Name: "patch weak password", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: map[string]string{"password": "short"}, WantStatus: 400, WantCode: "weak_password"},
			{Invalid: true, Name: "patch bad role", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: map[string]string{"role": "owner"}, WantStatus: 400, WantCode: "invalid_role"},
			{Invalid: true, Name: "patch unknown field", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: `{"username":"robert"}`, WantStatus: 400, WantCode: "invalid_json"},
			{Name: "patch unknown user", Method: "PATCH", URL: users + "/999999", Token: e.Admin, Body: map[string]bool{"disabled": true}, WantStatus: 404, WantCode: "user_not_found"},
			{Invalid: true, Name: "patch bad id", Method: "PATCH", URL: users + "/bob", Token: e.Admin, Body: map[string]bool{"disabled": true}, WantStatus: 400, WantCode: "invalid_id"},
			{Name: "admin cannot disable self", Method: "PATCH", URL: adminPath, Token: e.Admin, Body: map[string]bool{"disabled": true}, WantStatus: 400, WantCode: "cannot_modify_self"},
			{Name: "admin cannot demote self", Method: "PATCH", URL: adminPath, Token: e.Admin, Body: map[string]string{"role": "user"}, WantStatus: 400, WantCode: "cannot_modify_self"},
			{Name: "admin still works", Method: "GET", URL: users, Token: e.Admin, WantStatus: 200},

			{Name: "promote bob", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: map[string]string{"role": "admin"}, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var u userJSON
					r.Decode(t, &u)
					if u.Role != "admin" || u.ID != bob.ID {
						t.Errorf("promoted %s", r.Body)
					}
				}},
			{Name: "promoted bob's session now has admin rights", Method: "GET", URL: users, Token: bobTok, WantStatus: 200},
			{Name: "demote bob", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: map[string]string{"role": "user"}, WantStatus: 200},
			{Name: "demoted bob loses admin rights at once", Method: "GET", URL: users, Token: bobTok, WantStatus: 403, WantCode: "admin_only"},
			{Name: "reset bob's password", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: map[string]string{"password": "reset-password-2"}, WantStatus: 200},
			{Name: "old password refused", Method: "POST", URL: "/api/v1/auth/login", Body: map[string]string{"username": "bob", "password": userPassword}, WantStatus: 401, WantCode: "invalid_credentials"},
			{Name: "new password works", Method: "POST", URL: "/api/v1/auth/login", Body: map[string]string{"username": "bob", "password": "reset-password-2"}, WantStatus: 200},
			{Name: "disable bob", Method: "PATCH", URL: bobPath, Token: e.Admin, Body: map[string]bool{"disabled": true}, WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var u userJSON
					r.Decode(t, &u)
					if !u.Disabled {
						t.Errorf("disable answered %s", r.Body)
					}
				}},
			{Name: "disabled bob cannot log in", Method: "POST", URL: "/api/v1/auth/login", Body: map[string]string{"username": "bob", "password": "reset-password-2"}, WantStatus: 401, WantCode: "invalid_credentials"},
		})

		// A new user gets the sample workspace.
		tok := e.login("carol", userPassword)
		names := e.names(tok, "kb://me/")
		if strings.Join(names, ",") != "data,notes,Welcome.md" {
			t.Errorf("carol's sample root = %v", names)
		}
	})
}

// TestHealthAndUnknownRoutes covers /healthz and the JSON 404 for unknown API paths.
func TestHealthAndUnknownRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		apptest.RunScenarios(t, e.api(), []apptest.Scenario{
			{Name: "healthz", Method: "GET", URL: "/healthz", WantStatus: 200,
				Check: func(t *testing.T, r resp) {
					var h map[string]string
					r.Decode(t, &h)
					if h["status"] != "ok" || h["database"] != dialect {
						t.Errorf("healthz %s", r.Body)
					}
				}},
			{Name: "unknown API route", Method: "GET", URL: "/api/v1/nope", Token: e.Admin, WantStatus: 404, WantCode: "no_route"},
			{Name: "unknown nested API route", Method: "POST", URL: "/api/v1/resources/nope/deeper", Token: e.Admin, Body: `{}`, WantStatus: 404, WantCode: "no_route"},
			{Name: "unknown API version", Method: "GET", URL: "/api/v2/resources", Token: e.Admin, WantStatus: 404},
			{Name: "wrong method on a known path", Method: "PUT", URL: "/api/v1/resources", Token: e.Admin, Body: `{}`, WantStatus: 404, WantCode: "no_route"},
			{Name: "login with GET", Method: "GET", URL: "/api/v1/auth/login", Token: e.Admin, WantStatus: 404, WantCode: "no_route"},
			// MCP clients probe for OAuth metadata; none is published, and
			// the answer must be JSON, never the web app's page.
			{Name: "OAuth metadata probe", Method: "GET", URL: "/.well-known/oauth-protected-resource/mcp", WantStatus: 404, WantCode: "no_route"},
			{Name: "OAuth server probe", Method: "GET", URL: "/.well-known/oauth-authorization-server", WantStatus: 404, WantCode: "no_route"},
		})
	})
}
