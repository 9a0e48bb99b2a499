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

	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// scenario is one row of an API table: a request and what must come back.
type scenario struct {
	// invalid: the request breaks the OpenAPI document on purpose; only
	// the answer is checked against it.
	invalid bool
	name    string
	method  string
	path    string
	body    any // nil, raw string/[]byte, or a value to JSON-encode
	token   string
	status  int
	code    string                     // expected error code; "" for a success
	check   func(t *testing.T, r resp) // optional extra checks
}

func runScenarios(t *testing.T, e *env, rows []scenario) {
	t.Helper()
	for _, sc := range rows {
		ex := e
		if sc.invalid {
			ex = e.invalid()
		}
		r := ex.do(sc.method, sc.path, sc.token, sc.body)
		if sc.code != "" {
			code, msg, ok := r.apiErr()
			if !ok || r.Status != sc.status || code != sc.code || msg == "" {
				t.Errorf("%s: want %d %s, got %s", sc.name, sc.status, sc.code, r)
				continue
			}
		} else if r.Status != sc.status {
			t.Errorf("%s: want %d, got %s", sc.name, sc.status, r)
			continue
		}
		if ct := r.Header.Get("Content-Type"); len(r.Body) > 0 && !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: Content-Type %q, want JSON", sc.name, ct)
		}
		if sc.check != nil {
			sc.check(t, r)
		}
	}
}

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

		rows := []scenario{
			{name: "login success", method: "POST", path: login, body: map[string]string{"username": "bob", "password": userPassword}, status: 200,
				check: func(t *testing.T, r resp) {
					var raw map[string]json.RawMessage
					r.decode(t, &raw)
					for _, k := range []string{"token", "expires_at", "user"} {
						if _, ok := raw[k]; !ok {
							t.Errorf("login answer lacks %q: %s", k, r.Body)
						}
					}
					var out loginJSON
					r.decode(t, &out)
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
			{name: "login name is case-insensitive and trimmed", method: "POST", path: login, body: map[string]string{"username": " BOB ", "password": userPassword}, status: 200},
			{name: "wrong password", method: "POST", path: login, body: map[string]string{"username": "bob", "password": "wrong-password"}, status: 401, code: "invalid_credentials",
				check: func(t *testing.T, r resp) { _, wrongPwMsg, _ = r.apiErr() }},
			{name: "unknown user answers like a wrong password", method: "POST", path: login, body: map[string]string{"username": "nobody", "password": "wrong-password"}, status: 401, code: "invalid_credentials",
				check: func(t *testing.T, r resp) {
					if _, msg, _ := r.apiErr(); msg != wrongPwMsg {
						t.Errorf("unknown user message %q differs from wrong password message %q", msg, wrongPwMsg)
					}
				}},
			{invalid: true, name: "missing password", method: "POST", path: login, body: `{"username":"bob"}`, status: 400, code: "invalid_request"},
			{invalid: true, name: "malformed JSON", method: "POST", path: login, body: `{"username":"bob",`, status: 400, code: "invalid_json"},
			{invalid: true, name: "not JSON at all", method: "POST", path: login, body: `username=bob&password=x`, status: 400, code: "invalid_json"},
			{invalid: true, name: "unknown field", method: "POST", path: login, body: `{"username":"bob","password":"x","admin":true}`, status: 400, code: "invalid_json"},
			{invalid: true, name: "wrong field type", method: "POST", path: login, body: `{"username":42,"password":"x"}`, status: 400, code: "invalid_json"},
			{invalid: true, name: "JSON array", method: "POST", path: login, body: `[]`, status: 400, code: "invalid_json"},
			{name: "trailing object", method: "POST", path: login, body: `{"username":"bob","password":"x"}{}`, status: 400, code: "invalid_json"},
			{name: "trailing garbage", method: "POST", path: login, body: `{"username":"bob","password":"x"} junk`, status: 400, code: "invalid_json"},
			{invalid: true, name: "empty body", method: "POST", path: login, body: ``, status: 400, code: "invalid_json"},
			{invalid: true, name: "no body", method: "POST", path: login, status: 400, code: "invalid_json"},
			{name: "oversized body", method: "POST", path: login, body: huge, status: 413, code: "body_too_large"},

			{name: "self-signed control token on bob's session works", method: "GET", path: me, token: valid, status: 200},
			{name: "signed token without a session", method: "GET", path: me, token: noSession, status: 401, code: "invalid_token"},
			{name: "signed token naming no session", method: "GET", path: me, token: madeUp, status: 401, code: "invalid_token"},
			{name: "bob's claims on the admin's session", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS256, secret, withSession(sessionClaims(bob.ID, "bob", "admin", future), adminSID)), status: 401, code: "invalid_token"},
			{name: "session works", method: "GET", path: me, token: bobTok, status: 200,
				check: func(t *testing.T, r resp) {
					var u userJSON
					r.decode(t, &u)
					if u.ID != bob.ID || u.Username != "bob" || u.Role != "user" {
						t.Errorf("me = %+v", u)
					}
				}},
			{name: "missing token", method: "GET", path: me, status: 401, code: "missing_token"},
			{name: "garbage token", method: "GET", path: me, token: "not-a-token", status: 401, code: "invalid_token"},
			{name: "garbage three-part token", method: "GET", path: me, token: "a.b.c", status: 401, code: "invalid_token"},
			{name: "expired token", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS256, secret, sessionClaims(bob.ID, "bob", "user", time.Now().Add(-time.Minute))), status: 401, code: "token_expired"},
			{name: "token without exp", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS256, secret, noExp), status: 401, code: "invalid_token"},
			{name: "token from another issuer", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS256, secret, otherIss), status: 401, code: "invalid_token"},
			{name: "forged signature", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS256, []byte("another-secret-0123456789abcdefghijkl"), sessionClaims(bob.ID, "bob", "user", future)), status: 401, code: "invalid_token"},
			{name: "claims edited after signing", method: "GET", path: me, token: parts[0] + "." + b64(fmt.Sprintf(`{"iss":"knowspace","sub":"1","exp":%d,"name":"admin","role":"admin","tv":0}`, future.Unix())) + "." + parts[2], status: 401, code: "invalid_token"},
			{name: "alg none", method: "GET", path: me, token: noneTok, status: 401, code: "invalid_token"},
			{name: "alg none with signature kept", method: "GET", path: me, token: b64(`{"alg":"none","typ":"JWT"}`) + "." + parts[1] + "." + parts[2], status: 401, code: "invalid_token"},
			{name: "alg HS256 with empty signature", method: "GET", path: me, token: parts[0] + "." + parts[1] + ".", status: 401, code: "invalid_token"},
			{name: "HS512 with the right secret", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS512, secret, sessionClaims(bob.ID, "bob", "user", future)), status: 401, code: "invalid_token"},
			{name: "HS384 with the right secret", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS384, secret, sessionClaims(bob.ID, "bob", "user", future)), status: 401, code: "invalid_token"},
			{name: "token of a user that does not exist (deleted)", method: "GET", path: me, token: signJWT(t, jwt.SigningMethodHS256, secret, sessionClaims(987654, "ghost", "admin", future)), status: 401, code: "invalid_token"},
			{name: "role claim is not trusted", method: "GET", path: "/api/v1/admin/users", token: signJWT(t, jwt.SigningMethodHS256, secret, asAdmin), status: 403, code: "admin_only"},
			{name: "unknown ks_ API token", method: "GET", path: me, token: "ks_0000000000000000000000000000000000000000000000", status: 401, code: "invalid_token"},
			{name: "bare ks_ prefix", method: "GET", path: me, token: "ks_", status: 401, code: "invalid_token"},
		}
		runScenarios(t, e, rows)

		// Schemes other than Bearer are refused, whatever the credential.
		for _, h := range []string{"Basic " + base64.StdEncoding.EncodeToString([]byte("bob:"+userPassword)), "Token " + bobTok, bobTok, "Bearer", "Bearer  "} {
			req, _ := http.NewRequest(http.MethodGet, e.URL+me, nil)
			req.Header.Set("Authorization", h)
			r := e.send(req)
			if r.Status != http.StatusUnauthorized {
				t.Errorf("Authorization %q: want 401, got %s", trunc(h), r)
			}
			if _, _, ok := r.apiErr(); !ok {
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

		runScenarios(t, e, []scenario{
			{name: "empty name", method: "POST", path: tokens, token: bobSession, body: map[string]string{"name": "  "}, status: 400, code: "invalid_name"},
			{invalid: true, name: "no name", method: "POST", path: tokens, token: bobSession, body: `{}`, status: 400, code: "invalid_name"},
			{invalid: true, name: "long name", method: "POST", path: tokens, token: bobSession, body: map[string]string{"name": strings.Repeat("n", 101)}, status: 400, code: "invalid_name"},
			{invalid: true, name: "unknown field", method: "POST", path: tokens, token: bobSession, body: `{"name":"x","scope":"all"}`, status: 400, code: "invalid_json"},
			{name: "another user cannot see my tokens", method: "GET", path: tokens, token: carol, status: 200,
				check: func(t *testing.T, r resp) {
					if strings.Contains(string(r.Body), "backup script") {
						t.Errorf("carol sees bob's token: %s", r.Body)
					}
				}},
			{name: "another user cannot revoke my token", method: "DELETE", path: fmt.Sprintf("%s/%d", tokens, created.ID), token: carol, status: 404, code: "token_not_found"},
			{name: "admin cannot revoke my token either", method: "DELETE", path: fmt.Sprintf("%s/%d", tokens, created.ID), token: e.Admin, status: 404, code: "token_not_found"},
			{invalid: true, name: "bad id", method: "DELETE", path: tokens + "/abc", token: bobSession, status: 400, code: "invalid_id"},
			{invalid: true, name: "zero id", method: "DELETE", path: tokens + "/0", token: bobSession, status: 400, code: "invalid_id"},
			{name: "unknown id", method: "DELETE", path: tokens + "/999999", token: bobSession, status: 404, code: "token_not_found"},
			{name: "token still works", method: "GET", path: "/api/v1/auth/me", token: created.Token, status: 200},
			{name: "a token can revoke itself", method: "DELETE", path: fmt.Sprintf("%s/%d", tokens, created.ID), token: created.Token, status: 204},
			{name: "revoked token refused", method: "GET", path: "/api/v1/auth/me", token: created.Token, status: 401, code: "invalid_token"},
			{name: "revoke twice", method: "DELETE", path: fmt.Sprintf("%s/%d", tokens, created.ID), token: bobSession, status: 404, code: "token_not_found"},
			{name: "session unaffected", method: "GET", path: "/api/v1/auth/me", token: bobSession, status: 200},
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

		runScenarios(t, e, []scenario{
			{name: "non-admin cannot list", method: "GET", path: users, token: bobTok, status: 403, code: "admin_only"},
			{name: "non-admin cannot create", method: "POST", path: users, token: bobTok, body: newUser("mallory", userPassword, "admin"), status: 403, code: "admin_only"},
			{name: "non-admin cannot patch self", method: "PATCH", path: bobPath, token: bobTok, body: map[string]string{"role": "admin"}, status: 403, code: "admin_only"},
			{name: "non-admin cannot patch admin", method: "PATCH", path: adminPath, token: bobTok, body: map[string]string{"password": "pwned-password"}, status: 403, code: "admin_only"},

			{name: "create user", method: "POST", path: users, token: e.Admin, body: newUser("carol", userPassword, "user"), status: 201,
				check: func(t *testing.T, r resp) {
					var u userJSON
					r.decode(t, &u)
					if u.ID == 0 || u.Username != "carol" || u.Role != "user" || u.Disabled {
						t.Errorf("created %s", r.Body)
					}
					if strings.Contains(string(r.Body), "$2a$") || strings.Contains(strings.ToLower(string(r.Body)), "hash") {
						t.Errorf("answer leaks the hash: %s", r.Body)
					}
				}},
			{name: "create admin", method: "POST", path: users, token: e.Admin, body: newUser("dave", userPassword, "admin"), status: 201},
			{name: "role defaults to user", method: "POST", path: users, token: e.Admin, body: `{"username":"erin","password":"user-password-1"}`, status: 201,
				check: func(t *testing.T, r resp) {
					var u userJSON
					r.decode(t, &u)
					if u.Role != "user" {
						t.Errorf("default role %q", u.Role)
					}
				}},
			{name: "duplicate", method: "POST", path: users, token: e.Admin, body: newUser("carol", userPassword, "user"), status: 409, code: "username_taken"},
			{name: "duplicate of admin", method: "POST", path: users, token: e.Admin, body: newUser("admin", userPassword, "user"), status: 409, code: "username_taken"},
			{name: "upper-case name", method: "POST", path: users, token: e.Admin, body: newUser("Frank", userPassword, "user"), status: 400, code: "invalid_username"},
			{name: "name with slash", method: "POST", path: users, token: e.Admin, body: newUser("a/b", userPassword, "user"), status: 400, code: "invalid_username"},
			{name: "name with dots only", method: "POST", path: users, token: e.Admin, body: newUser("..", userPassword, "user"), status: 400, code: "invalid_username"},
			{name: "name with space", method: "POST", path: users, token: e.Admin, body: newUser("a b", userPassword, "user"), status: 400, code: "invalid_username"},
			{name: "name too long", method: "POST", path: users, token: e.Admin, body: newUser(strings.Repeat("a", 65), userPassword, "user"), status: 400, code: "invalid_username"},
			{name: "non-ASCII name", method: "POST", path: users, token: e.Admin, body: newUser("\u0430lice", userPassword, "user"), status: 400, code: "invalid_username"},
			{invalid: true, name: "missing name", method: "POST", path: users, token: e.Admin, body: `{"password":"user-password-1"}`, status: 400, code: "invalid_request"},
			{invalid: true, name: "missing password", method: "POST", path: users, token: e.Admin, body: `{"username":"gina"}`, status: 400, code: "invalid_request"},
			{name: "weak password", method: "POST", path: users, token: e.Admin, body: newUser("gina", "short", "user"), status: 400, code: "weak_password"},
			{name: "password over 72 bytes", method: "POST", path: users, token: e.Admin, body: newUser("gina", strings.Repeat("p", 73), "user"), status: 400, code: "invalid_password"},
			{invalid: true, name: "bad role", method: "POST", path: users, token: e.Admin, body: newUser("gina", userPassword, "root"), status: 400, code: "invalid_role"},
			{invalid: true, name: "unknown field", method: "POST", path: users, token: e.Admin, body: `{"username":"gina","password":"user-password-1","is_admin":true}`, status: 400, code: "invalid_json"},

			{name: "list", method: "GET", path: users, token: e.Admin, status: 200,
				check: func(t *testing.T, r resp) {
					var l struct {
						Items []userJSON `json:"items"`
					}
					r.decode(t, &l)
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

			{invalid: true, name: "patch nothing", method: "PATCH", path: bobPath, token: e.Admin, body: `{}`, status: 400, code: "invalid_request"},
			{name: "patch weak password", method: "PATCH", path: bobPath, token: e.Admin, body: map[string]string{"password": "short"}, status: 400, code: "weak_password"},
			{invalid: true, name: "patch bad role", method: "PATCH", path: bobPath, token: e.Admin, body: map[string]string{"role": "owner"}, status: 400, code: "invalid_role"},
			{invalid: true, name: "patch unknown field", method: "PATCH", path: bobPath, token: e.Admin, body: `{"username":"robert"}`, status: 400, code: "invalid_json"},
			{name: "patch unknown user", method: "PATCH", path: users + "/999999", token: e.Admin, body: map[string]bool{"disabled": true}, status: 404, code: "user_not_found"},
			{invalid: true, name: "patch bad id", method: "PATCH", path: users + "/bob", token: e.Admin, body: map[string]bool{"disabled": true}, status: 400, code: "invalid_id"},
			{name: "admin cannot disable self", method: "PATCH", path: adminPath, token: e.Admin, body: map[string]bool{"disabled": true}, status: 400, code: "cannot_modify_self"},
			{name: "admin cannot demote self", method: "PATCH", path: adminPath, token: e.Admin, body: map[string]string{"role": "user"}, status: 400, code: "cannot_modify_self"},
			{name: "admin still works", method: "GET", path: users, token: e.Admin, status: 200},

			{name: "promote bob", method: "PATCH", path: bobPath, token: e.Admin, body: map[string]string{"role": "admin"}, status: 200,
				check: func(t *testing.T, r resp) {
					var u userJSON
					r.decode(t, &u)
					if u.Role != "admin" || u.ID != bob.ID {
						t.Errorf("promoted %s", r.Body)
					}
				}},
			{name: "promoted bob's session now has admin rights", method: "GET", path: users, token: bobTok, status: 200},
			{name: "demote bob", method: "PATCH", path: bobPath, token: e.Admin, body: map[string]string{"role": "user"}, status: 200},
			{name: "demoted bob loses admin rights at once", method: "GET", path: users, token: bobTok, status: 403, code: "admin_only"},
			{name: "reset bob's password", method: "PATCH", path: bobPath, token: e.Admin, body: map[string]string{"password": "reset-password-2"}, status: 200},
			{name: "old password refused", method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "bob", "password": userPassword}, status: 401, code: "invalid_credentials"},
			{name: "new password works", method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "bob", "password": "reset-password-2"}, status: 200},
			{name: "disable bob", method: "PATCH", path: bobPath, token: e.Admin, body: map[string]bool{"disabled": true}, status: 200,
				check: func(t *testing.T, r resp) {
					var u userJSON
					r.decode(t, &u)
					if !u.Disabled {
						t.Errorf("disable answered %s", r.Body)
					}
				}},
			{name: "disabled bob cannot log in", method: "POST", path: "/api/v1/auth/login", body: map[string]string{"username": "bob", "password": "reset-password-2"}, status: 401, code: "invalid_credentials"},
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
		runScenarios(t, e, []scenario{
			{name: "healthz", method: "GET", path: "/healthz", status: 200,
				check: func(t *testing.T, r resp) {
					var h map[string]string
					r.decode(t, &h)
					if h["status"] != "ok" || h["database"] != dialect {
						t.Errorf("healthz %s", r.Body)
					}
				}},
			{name: "unknown API route", method: "GET", path: "/api/v1/nope", token: e.Admin, status: 404, code: "no_route"},
			{name: "unknown nested API route", method: "POST", path: "/api/v1/resources/nope/deeper", token: e.Admin, body: `{}`, status: 404, code: "no_route"},
			{name: "unknown API version", method: "GET", path: "/api/v2/resources", token: e.Admin, status: 404},
			{name: "wrong method on a known path", method: "PUT", path: "/api/v1/resources", token: e.Admin, body: `{}`, status: 404, code: "no_route"},
			{name: "login with GET", method: "GET", path: "/api/v1/auth/login", token: e.Admin, status: 404, code: "no_route"},
			// MCP clients probe for OAuth metadata; none is published, and
			// the answer must be JSON, never the web app's page.
			{name: "OAuth metadata probe", method: "GET", path: "/.well-known/oauth-protected-resource/mcp", status: 404, code: "no_route"},
			{name: "OAuth server probe", method: "GET", path: "/.well-known/oauth-authorization-server", status: 404, code: "no_route"},
		})
	})
}
