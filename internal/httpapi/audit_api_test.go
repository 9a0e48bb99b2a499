package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const auditPath = "/api/v1/admin/audit"

// auditJSON is an event as GET /admin/audit answers it.
type auditJSON struct {
	ID         int64           `json:"id"`
	At         time.Time       `json:"at"`
	UserID     int64           `json:"user_id"`
	Username   string          `json:"username"`
	TokenID    int64           `json:"token_id"`
	Provider   string          `json:"provider"`
	Action     string          `json:"action"`
	Target     string          `json:"target"`
	Source     string          `json:"source"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	ClientAddr string          `json:"client_addr"`
	Result     string          `json:"result"`
	Code       string          `json:"code"`
}

type auditPage struct {
	Items      []auditJSON `json:"items"`
	NextCursor *string     `json:"next_cursor"`
}

// auditLog reads the whole log as the admin, newest first.
func (e *env) auditLog(query string) []auditJSON {
	e.t.Helper()
	var p auditPage
	e.mustOK(e.do(http.MethodGet, auditPath+"?limit=1000"+query, e.Admin, nil), http.StatusOK, &p)
	return p.Items
}

// auditEnv is a server that keeps conversations and believes the local
// proxy about who connected to it.
func auditEnv(t *testing.T, dialect string) *env {
	stack := apptest.NewStack(t, dialect)
	_, loopback, _ := net.ParseCIDR("127.0.0.1/32")
	return newEnvOn(t, stack, httpapi.Deps{Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree},
		TrustedProxies: []*net.IPNet{loopback}})
}

// auditSecrets is what the test hands the server that no event may hold.
type auditSecrets []string

// TestEveryAuditedActionLeavesOneEvent runs each audited action once and
// finds exactly one new event, with who, what, target, settings, address
// and result; reads leave none. Then no event holds a secret of the test.
func TestEveryAuditedActionLeavesOneEvent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := auditEnv(t, dialect)
		secrets := auditSecrets{adminPassword, userPassword, e.Admin}
		last := int64(0)
		if evs := e.auditLog(""); len(evs) > 0 {
			last = evs[0].ID
		}
		// expect checks that the actions since the last call left exactly
		// want, in order, each compared on the fields it sets.
		expect := func(step string, want ...auditJSON) {
			t.Helper()
			var got []auditJSON
			for _, ev := range e.auditLog("") {
				if ev.ID > last {
					got = append([]auditJSON{ev}, got...)
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d events, want %d: %+v", step, len(got), len(want), got)
			}
			for i, w := range want {
				g := got[i]
				if w.ClientAddr == "" {
					w.ClientAddr = "127.0.0.1"
				}
				if w.Result == "" {
					w.Result = "ok"
				}
				if g.Action != w.Action || g.Username != w.Username || g.UserID != w.UserID || g.Target != w.Target ||
					g.Source != w.Source || g.Result != w.Result || g.Code != w.Code || g.ClientAddr != w.ClientAddr ||
					(w.TokenID != 0 && g.TokenID != w.TokenID) || !sameJSON(g.Before, w.Before) || !sameJSON(g.After, w.After) ||
					time.Since(g.At) > time.Minute || g.At.After(time.Now().Add(time.Second)) {
					t.Errorf("%s: event %d\n got %+v\nwant %+v", step, i, g, w)
				}
				last = g.ID
			}
		}
		admin := e.auditLog("")[0] // the env's own sign-in
		adminID := admin.UserID
		if admin.Action != "signin" || admin.Username != "admin" || adminID == 0 {
			t.Fatalf("the admin's sign-in: %+v", admin)
		}
		as := func(ev auditJSON) auditJSON { ev.UserID, ev.Username = adminID, "admin"; return ev }

		alice := e.createUser("alice", userPassword, "user")
		expect("user create", as(auditJSON{Action: "user_create", Target: fmt.Sprintf("user:%d", alice.ID), After: raw(`{"username":"alice","role":"user"}`)}))
		bob := e.createUser("bob", userPassword, "user")
		expect("user create", as(auditJSON{Action: "user_create", Target: fmt.Sprintf("user:%d", bob.ID), After: raw(`{"username":"bob","role":"user"}`)}))
		by := func(u userJSON, ev auditJSON) auditJSON { ev.UserID, ev.Username = u.ID, u.Username; return ev }

		// A sign-in through the trusted proxy is recorded from the client's address.
		req := e.api().Request(t, t.Context(), http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": "alice", "password": userPassword})
		req.Header.Set("X-Forwarded-For", "203.0.113.7")
		var login struct{ Token string }
		e.mustOK(e.send(req), http.StatusOK, &login)
		aliceTok := login.Token
		secrets = append(secrets, aliceTok)
		expect("sign-in", by(alice, auditJSON{Action: "signin", ClientAddr: "203.0.113.7"}))
		wantErr(t, e.do(http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": "alice", "password": "wrong-password-XYZ"}), 401, "invalid_credentials")
		secrets = append(secrets, "wrong-password-XYZ")
		expect("failed sign-in", by(alice, auditJSON{Action: "signin_failed", Result: "refused", Code: "invalid_credentials"}))
		wantErr(t, e.do(http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": "nobody", "password": "guess-password-1"}), 401, "invalid_credentials")
		expect("failed sign-in of an unknown name", auditJSON{Action: "signin_failed", Username: "nobody", Result: "refused", Code: "invalid_credentials"})
		bobTok := e.login("bob", userPassword)
		expect("bob's sign-in", by(bob, auditJSON{Action: "signin"}))

		var tok struct {
			ID    int64  `json:"id"`
			Token string `json:"token"`
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/auth/tokens", aliceTok, map[string]any{"name": "laptop"}), http.StatusCreated, &tok)
		secrets = append(secrets, tok.Token)
		tokTarget := fmt.Sprintf("token:%d", tok.ID)
		expect("token create", by(alice, auditJSON{Action: "token_create", Target: tokTarget, After: raw(`{"name":"laptop","scoped":false,"read_only":false}`)}))
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/me", tok.Token, nil), http.StatusOK, nil)
		expect("token use", by(alice, auditJSON{Action: "token_use", Target: tokTarget, TokenID: tok.ID}))
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/me", tok.Token, nil), http.StatusOK, nil)
		e.mustOK(e.do(http.MethodGet, "/api/v1/resources?uri=kb://me/", aliceTok, nil), http.StatusOK, nil)
		expect("a token's second use and reads")
		wantErr(t, e.do(http.MethodDelete, fmt.Sprintf("/api/v1/auth/tokens/%d", tok.ID), bobTok, nil), 404, "token_not_found")
		expect("revoking another's token", by(bob, auditJSON{Action: "token_revoke", Target: tokTarget, Result: "refused", Code: "token_not_found"}))
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/auth/tokens/%d", tok.ID), aliceTok, nil), http.StatusNoContent, nil)
		expect("token revoke", by(alice, auditJSON{Action: "token_revoke", Target: tokTarget}))
		e.mustOK(e.do(http.MethodPost, "/api/v1/auth/tokens", bobTok, map[string]any{"name": "ci"}), http.StatusCreated, &tok)
		secrets = append(secrets, tok.Token)
		expect("bob's token", by(bob, auditJSON{Action: "token_create", Target: fmt.Sprintf("token:%d", tok.ID), After: raw(`{"name":"ci","scoped":false,"read_only":false}`)}))
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/admin/tokens/%d", tok.ID), e.Admin, nil), http.StatusNoContent, nil)
		expect("admin token revoke", as(auditJSON{Action: "token_revoke", Target: fmt.Sprintf("token:%d", tok.ID)}))

		const fileText = "the-file-body-QUOKKA-7731"
		secrets = append(secrets, fileText)
		e.mustOK(e.upload(aliceTok, "kb://me/", upFile{"plan.md", []byte(fileText)}), http.StatusCreated, nil)
		expect("an upload is not audited")
		fileURI := "kb://users/alice/plan.md"
		var sh struct {
			ID int64 `json:"id"`
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/resources/shares", aliceTok, map[string]string{"uri": "kb://me/plan.md", "user": "bob", "role": "read"}), http.StatusCreated, &sh)
		expect("share grant", by(alice, auditJSON{Action: "share_grant", Target: fileURI, After: raw(`{"grantee":"user:bob","role":"read"}`)}))
		e.mustOK(e.do(http.MethodPatch, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), aliceTok, map[string]string{"role": "write"}), http.StatusOK, nil)
		expect("share change", by(alice, auditJSON{Action: "share_change", Target: fileURI, Before: raw(`{"grantee":"user:bob","role":"read"}`), After: raw(`{"grantee":"user:bob","role":"write"}`)}))
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/resources/shares/%d", sh.ID), aliceTok, nil), http.StatusNoContent, nil)
		expect("share revoke", by(alice, auditJSON{Action: "share_revoke", Target: fileURI, Before: raw(`{"grantee":"user:bob","role":"write"}`)}))

		var g struct {
			ID int64 `json:"id"`
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/groups", e.Admin, map[string]string{"name": "eng"}), http.StatusCreated, &g)
		gTarget := fmt.Sprintf("group:%d", g.ID)
		expect("group create", as(auditJSON{Action: "group_create", Target: gTarget, After: raw(`{"name":"eng"}`)}))
		e.mustOK(e.do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", g.ID, alice.ID), e.Admin, nil), http.StatusOK, nil)
		expect("member add", as(auditJSON{Action: "group_member_add", Target: gTarget, Source: "admin", After: raw(`{"group":"eng","user":"alice"}`)}))
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", g.ID, alice.ID), e.Admin, nil), http.StatusNoContent, nil)
		expect("member remove", as(auditJSON{Action: "group_member_remove", Target: gTarget, Source: "admin", Before: raw(`{"group":"eng","user":"alice"}`)}))
		e.mustOK(e.do(http.MethodPatch, fmt.Sprintf("/api/v1/admin/groups/%d", g.ID), e.Admin, map[string]string{"name": "platform"}), http.StatusOK, nil)
		expect("group rename", as(auditJSON{Action: "group_rename", Target: gTarget, Before: raw(`{"name":"eng"}`), After: raw(`{"name":"platform"}`)}))
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/admin/groups/%d", g.ID), e.Admin, nil), http.StatusNoContent, nil)
		expect("group delete", as(auditJSON{Action: "group_delete", Target: gTarget, Before: raw(`{"name":"platform"}`)}))

		const resetPassword = "reset-password-PELICAN-2"
		secrets = append(secrets, resetPassword)
		e.mustOK(e.do(http.MethodPatch, fmt.Sprintf("/api/v1/admin/users/%d", bob.ID), e.Admin, map[string]any{"role": "admin", "password": resetPassword}), http.StatusOK, nil)
		expect("user update", as(auditJSON{Action: "user_update", Target: fmt.Sprintf("user:%d", bob.ID),
			Before: raw(`{"role":"user","disabled":false}`), After: raw(`{"role":"admin","disabled":false,"password_reset":true}`)}))
		e.mustOK(e.do(http.MethodPatch, fmt.Sprintf("/api/v1/admin/users/%d", bob.ID), e.Admin, map[string]any{"disabled": true}), http.StatusOK, nil)
		expect("user disable", as(auditJSON{Action: "user_update", Target: fmt.Sprintf("user:%d", bob.ID),
			Before: raw(`{"role":"admin","disabled":false}`), After: raw(`{"role":"admin","disabled":true}`)}))

		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/plan.md"), aliceTok, nil), http.StatusNoContent, nil)
		expect("delete", by(alice, auditJSON{Action: "delete", Target: fileURI}))
		var trash struct {
			Items []struct {
				ID int64 `json:"id"`
			} `json:"items"`
		}
		e.mustOK(e.do(http.MethodGet, "/api/v1/trash", aliceTok, nil), http.StatusOK, &trash)
		e.mustOK(e.do(http.MethodPost, "/api/v1/trash/restore", aliceTok, map[string]int64{"id": trash.Items[0].ID}), http.StatusOK, nil)
		expect("trash restore", by(alice, auditJSON{Action: "trash_restore", Target: fileURI}))
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/plan.md"), aliceTok, nil), http.StatusNoContent, nil)
		e.mustOK(e.do(http.MethodGet, "/api/v1/trash", aliceTok, nil), http.StatusOK, &trash)
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/trash/%d", trash.Items[0].ID), aliceTok, nil), http.StatusNoContent, nil)
		expect("delete then purge", by(alice, auditJSON{Action: "delete", Target: fileURI}),
			by(alice, auditJSON{Action: "purge", Target: fmt.Sprintf("trash:%d", trash.Items[0].ID), After: raw(`{"purged":1}`)}))
		e.mustOK(e.do(http.MethodDelete, q("/api/v1/resources", "kb://me/Welcome.md"), aliceTok, nil), http.StatusNoContent, nil)
		e.mustOK(e.do(http.MethodDelete, "/api/v1/trash", aliceTok, nil), http.StatusOK, nil)
		expect("delete then empty the trash", by(alice, auditJSON{Action: "delete", Target: "kb://users/alice/Welcome.md"}),
			by(alice, auditJSON{Action: "purge", Target: "trash", After: raw(`{"purged":1}`)}))

		const prompt = "the-skill-prompt-WOMBAT-5"
		secrets = append(secrets, prompt)
		var sk struct {
			ID string `json:"id"`
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/knowledge-agent/skills", aliceTok, map[string]string{"name": "brief", "prompt": prompt}), http.StatusCreated, &sk)
		skTarget := "skill:" + sk.ID
		expect("skill create", by(alice, auditJSON{Action: "skill_change", Target: skTarget, After: raw(`{"name":"brief"}`)}))
		e.mustOK(e.do(http.MethodPatch, "/api/v1/knowledge-agent/skills/"+url.PathEscape(sk.ID), aliceTok, map[string]string{"name": "briefer"}), http.StatusOK, nil)
		expect("skill update", by(alice, auditJSON{Action: "skill_change", Target: skTarget, Before: raw(`{"name":"brief"}`), After: raw(`{"name":"briefer"}`)}))
		e.mustOK(e.do(http.MethodDelete, "/api/v1/knowledge-agent/skills/"+url.PathEscape(sk.ID), aliceTok, nil), http.StatusNoContent, nil)
		expect("skill delete", by(alice, auditJSON{Action: "skill_change", Target: skTarget, Before: raw(`{"name":"briefer"}`)}))

		var conv struct {
			ID int64 `json:"id"`
		}
		e.mustOK(e.do(http.MethodPost, "/api/v1/knowledge-agent/conversations", aliceTok, map[string]string{"uri": "kb://me/", "title": "Plans"}), http.StatusCreated, &conv)
		convTarget := fmt.Sprintf("conversation:%d", conv.ID)
		e.mustOK(e.do(http.MethodGet, fmt.Sprintf("/api/v1/knowledge-agent/conversations/%d/export", conv.ID), aliceTok, nil), http.StatusOK, nil)
		expect("conversation export", by(alice, auditJSON{Action: "conversation_export", Target: convTarget}))
		e.mustOK(e.do(http.MethodDelete, fmt.Sprintf("/api/v1/knowledge-agent/conversations/%d", conv.ID), aliceTok, nil), http.StatusNoContent, nil)
		expect("conversation delete", by(alice, auditJSON{Action: "delete", Target: convTarget}))

		const newPassword = "changed-password-KOALA-9"
		secrets = append(secrets, newPassword)
		e.mustOK(e.do(http.MethodPost, "/api/v1/auth/password", aliceTok, map[string]string{"current_password": userPassword, "new_password": newPassword}), http.StatusNoContent, nil)
		expect("password change", by(alice, auditJSON{Action: "password_change"}))
		e.mustOK(e.do(http.MethodPost, "/api/v1/auth/logout", aliceTok, nil), http.StatusNoContent, nil)
		expect("logout", by(alice, auditJSON{Action: "logout"}))
		e.mustOK(e.do(http.MethodPost, "/api/v1/auth/logout-all", e.Admin, nil), http.StatusOK, nil)
		e.Admin = e.login("admin", adminPassword)
		secrets = append(secrets, e.Admin)
		expect("logout everywhere, and in again", as(auditJSON{Action: "logout_all", After: raw(`{"sessions_ended":1}`)}), as(auditJSON{Action: "signin"}))
		secrets.scan(t, e)
	})
}

// scan fails on any event, as listed or exported, that holds a secret.
func (s auditSecrets) scan(t *testing.T, e *env) {
	t.Helper()
	listed := e.do(http.MethodGet, auditPath+"?limit=1000", e.Admin, nil).Body
	exported := e.do(http.MethodGet, auditPath+"/export", e.Admin, nil).Body
	if len(exported) < 1000 {
		t.Fatalf("the export is nearly empty: %s", exported)
	}
	for _, secret := range s {
		for name, body := range map[string][]byte{"listed": listed, "exported": exported} {
			if bytes.Contains(body, []byte(secret)) {
				t.Errorf("the %s log holds the secret %q", name, secret)
			}
		}
	}
}

// TestAuditReadersAndFilters: only an admin reads the whole log, filtered
// by user, action, time and page; a user reads only their own sign-ins
// and token uses; the export's lines parse back to the listed events.
func TestAuditReadersAndFilters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := auditEnv(t, dialect)
		alice, aliceTok := e.newUser("alice")
		_, bobTok := e.newUser("bob")
		wantErr(t, e.do(http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": "alice", "password": "not-it-123"}), 401, "invalid_credentials")
		e.mustOK(e.do(http.MethodPost, "/api/v1/auth/tokens", aliceTok, map[string]any{"name": "laptop"}), http.StatusCreated, nil)
		e.mustOK(e.do(http.MethodPost, "/api/v1/resources/shares", aliceTok, map[string]string{"uri": "kb://me/Welcome.md", "user": "bob", "role": "read"}), http.StatusCreated, nil)

		for _, path := range []string{auditPath, auditPath + "/export", auditPath + "?user_id=" + fmt.Sprint(alice.ID)} {
			r := e.do(http.MethodGet, path, bobTok, nil)
			wantErr(t, r, http.StatusForbidden, "admin_only")
			if bytes.Contains(r.Body, []byte("signin")) {
				t.Errorf("%s refused with events in the body: %s", path, r.Body)
			}
		}
		var own auditPage
		e.mustOK(e.invalid().do(http.MethodGet, "/api/v1/auth/audit?user_id=1", aliceTok, nil), http.StatusOK, &own)
		var actions []string
		for _, ev := range own.Items {
			if ev.UserID != alice.ID || ev.Username != "alice" {
				t.Errorf("alice reads an event not hers: %+v", ev)
			}
			actions = append(actions, ev.Action)
		}
		if got := strings.Join(actions, ","); got != "token_create,signin_failed,signin" {
			t.Errorf("alice's own events: %s", got)
		}

		all := e.auditLog("")
		var p auditPage
		e.mustOK(e.do(http.MethodGet, auditPath+"?user_id="+fmt.Sprint(alice.ID), e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != 4 || p.Items[0].Action != "share_grant" {
			t.Errorf("alice's events: %+v", p.Items)
		}
		e.mustOK(e.do(http.MethodGet, auditPath+"?action=signin&action=signin_failed", e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != 4 || p.Items[0].Action != "signin_failed" || p.Items[3].Username != "admin" {
			t.Errorf("sign-ins: %+v", p.Items)
		}
		e.mustOK(e.do(http.MethodGet, auditPath+"?action=signin,token_create&user_id="+fmt.Sprint(alice.ID), e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != 2 {
			t.Errorf("alice's sign-ins and tokens: %+v", p.Items)
		}
		future := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		e.mustOK(e.do(http.MethodGet, auditPath+"?since="+future, e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != 0 {
			t.Errorf("events from the future: %+v", p.Items)
		}
		e.mustOK(e.do(http.MethodGet, auditPath+"?until="+future+"&since="+url.QueryEscape(all[len(all)-1].At.Format(time.RFC3339Nano)), e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != len(all) {
			t.Errorf("the range of every event holds %d of %d", len(p.Items), len(all))
		}
		e.mustOK(e.do(http.MethodGet, auditPath+"?limit=2", e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != 2 || p.NextCursor == nil || p.Items[0].ID != all[0].ID {
			t.Fatalf("first page: %+v", p)
		}
		e.mustOK(e.do(http.MethodGet, auditPath+"?limit=2&cursor="+*p.NextCursor, e.Admin, nil), http.StatusOK, &p)
		if len(p.Items) != 2 || p.Items[0].ID != all[2].ID {
			t.Errorf("second page: %+v", p)
		}
		wantErr(t, e.do(http.MethodGet, auditPath+"?action=sudo", e.Admin, nil), 400, "invalid_action")
		wantErr(t, e.invalid().do(http.MethodGet, auditPath+"?since=yesterday", e.Admin, nil), 400, "invalid_time")
		wantErr(t, e.invalid().do(http.MethodGet, auditPath+"?user_id=x", e.Admin, nil), 400, "invalid_user_id")
		wantErr(t, e.do(http.MethodGet, auditPath+"?cursor=xyz", e.Admin, nil), 400, "invalid_cursor")

		r := e.do(http.MethodGet, auditPath+"/export", e.Admin, nil)
		if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-ndjson") ||
			!strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %s %v", r, r.Header)
		}
		var lines []auditJSON
		sc := bufio.NewScanner(bytes.NewReader(r.Body))
		for sc.Scan() {
			var ev auditJSON
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Fatalf("export line %q: %v", sc.Text(), err)
			}
			lines = append(lines, ev)
		}
		if len(lines) != len(all) {
			t.Fatalf("export has %d lines, the log %d events", len(lines), len(all))
		}
		for i := range all {
			a, _ := json.Marshal(all[i])
			b, _ := json.Marshal(lines[i])
			if !bytes.Equal(a, b) {
				t.Errorf("line %d:\n%s\nlisted:\n%s", i, b, a)
			}
		}
		r = e.do(http.MethodGet, auditPath+"/export?action=signin_failed", e.Admin, nil)
		if n := bytes.Count(r.Body, []byte("\n")); n != 1 || !bytes.Contains(r.Body, []byte(`"username":"alice"`)) {
			t.Errorf("filtered export: %s", r.Body)
		}
	})
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// sameJSON compares two JSON values by meaning; nil matches only nil.
func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xs, _ := json.Marshal(x)
	ys, _ := json.Marshal(y)
	return bytes.Equal(xs, ys)
}

// A sign-in the throttle refuses costs no password check, so it may cost
// no write either: a flood of guesses past the throttle leaves no events,
// only the refusals whose password was checked do.
func TestThrottledSignInsLeaveNoEvent(t *testing.T) {
	e := auditEnv(t, "sqlite")
	checked, throttled := 0, 0
	for range 9 {
		r := e.do(http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": "ghost", "password": "guess-password-1"})
		switch r.Status {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
			throttled++
		default:
			t.Fatalf("a guess: %s", r)
		}
	}
	if throttled == 0 {
		t.Fatalf("nine guesses were never throttled")
	}
	evs := e.auditLog("&action=signin_failed")
	if len(evs) != checked {
		t.Errorf("%d checked guesses (%d throttled) left %d events: %+v", checked, throttled, len(evs), evs)
	}
}

// An export longer than a page of the store streams every event once, in
// order.
func TestAuditExportPastOnePage(t *testing.T) {
	e := auditEnv(t, "sqlite")
	ctx := t.Context()
	for i := range 1100 {
		ev := store.AuditEvent{At: time.Now(), Username: fmt.Sprintf("u%d", i), Action: "signin_failed", Result: "refused", Code: "invalid_credentials"}
		if err := e.Store.AppendAuditEvent(ctx, &ev); err != nil {
			t.Fatal(err)
		}
	}
	r := e.do(http.MethodGet, auditPath+"/export?action=signin_failed", e.Admin, nil)
	lines := bytes.Split(bytes.TrimSpace(r.Body), []byte("\n"))
	if r.Status != 200 || len(lines) != 1100 {
		t.Fatalf("export: %d, %d lines", r.Status, len(lines))
	}
	for i, line := range lines {
		var ev auditJSON
		if err := json.Unmarshal(line, &ev); err != nil || ev.Username != fmt.Sprintf("u%d", 1099-i) {
			t.Fatalf("line %d: %v %s", i, err, line)
		}
	}
}
