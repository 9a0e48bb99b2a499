package httpapi_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/sso"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/testsupport/oidcop"
)

// ssoEnv is the API beside real OpenID providers (the zitadel example
// server, each on its own port) that know it as client "web".
type ssoEnv struct {
	*env
	ops   map[string]*oidcop.Provider
	users map[string]string // provider id → its users file
}

func newSSOEnv(t *testing.T, dialect string, mutate func(*config.OIDCProvider)) *ssoEnv {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public := "http://" + ln.Addr().String()
	se := &ssoEnv{ops: map[string]*oidcop.Provider{}, users: map[string]string{}}
	var cfg config.Config
	cfg.PublicURL = public
	for _, id := range []string{"corp", "partner"} {
		se.users[id] = filepath.Join(t.TempDir(), "users.json")
		writeOPUsers(t, se.users[id], map[string]oidcop.User{
			"u1": {Username: "alice@corp.example", Password: "alice-pw", Name: "Alice Liddell", Email: "alice@corp.example", EmailVerified: true, Groups: []string{"eng", "staff"}},
		})
		opLn, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		op, err := oidcop.Start(opLn, se.users[id], []oidcop.Client{
			{ID: "web", Secret: "web-secret", RedirectURIs: []string{public + "/api/v1/auth/sso/" + id + "/callback"}, PostLogoutRedirectURIs: []string{public + "/"}},
			{ID: "other", Secret: "other-secret", RedirectURIs: []string{"http://127.0.0.1:1/cb"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = op.Close() })
		se.ops[id] = op
		p := config.OIDCProvider{ID: id, Name: strings.ToUpper(id[:1]) + id[1:], Issuer: op.Issuer, ClientID: "web", ClientSecret: "web-secret",
			Scopes: []string{"openid", "profile", "email"}, GroupsClaim: "groups", Groups: map[string]string{"eng": "engineering", "ops": "operations"}}
		if mutate != nil {
			mutate(&p)
		}
		cfg.Auth.OIDC = append(cfg.Auth.OIDC, p)
	}
	svc, err := sso.New(cfg, []byte(apptest.Secret))
	if err != nil {
		t.Fatal(err)
	}
	se.env = newEnvListening(t, apptest.NewStack(t, dialect), httpapi.Deps{SSO: svc}, ln)
	return se
}

func writeOPUsers(t *testing.T, path string, users map[string]oidcop.User) {
	t.Helper()
	if err := oidcop.WriteUsers(path, users); err != nil {
		t.Fatal(err)
	}
}

// browser is a cookie-keeping client that stops where the server sends the
// web app (its "/" with the outcome in the fragment).
func (se *ssoEnv) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if req.URL.Host == strings.TrimPrefix(se.URL, "http://") && req.URL.Path == "/" {
			return http.ErrUseLastResponse
		}
		return nil
	}}
}

var formID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// signIn starts at provider id, types the credentials into its login page
// and returns the fragment the server sent the browser back with.
func (se *ssoEnv) signIn(t *testing.T, b *http.Client, id, username, password string) url.Values {
	t.Helper()
	page := se.get(t, b, se.URL+"/api/v1/auth/sso/"+id+"/start?return=/notes/")
	m := formID.FindStringSubmatch(page.body)
	if m == nil {
		t.Fatalf("no login form at the provider: %d %.300s", page.status, page.body)
	}
	res, err := b.PostForm(page.url, url.Values{"username": {username}, "password": {password}, "id": {m[1]}})
	if err != nil {
		t.Fatal(err)
	}
	return outcome(t, res)
}

type page struct {
	status int
	url    string
	body   string
}

func (se *ssoEnv) get(t *testing.T, b *http.Client, u string) page {
	t.Helper()
	res, err := b.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return page{res.StatusCode, res.Request.URL.String(), string(body)}
}

// outcome reads the fragment of the server's last redirect.
func outcome(t *testing.T, res *http.Response) url.Values {
	t.Helper()
	defer res.Body.Close()
	loc, err := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || err != nil || loc.Path != "/" {
		body, _ := io.ReadAll(res.Body)
		t.Fatalf("want the redirect to the web app, got %d %q %.300s", res.StatusCode, res.Header.Get("Location"), body)
	}
	v, err := url.ParseQuery(loc.Fragment)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (se *ssoEnv) redeem(t *testing.T, back url.Values) (string, userJSON) {
	t.Helper()
	ticket := back.Get("sso_ticket")
	if ticket == "" {
		t.Fatalf("the sign-in failed: %v", back)
	}
	var out struct {
		Token string   `json:"token"`
		User  userJSON `json:"user"`
	}
	se.mustOK(se.do(http.MethodPost, "/api/v1/auth/sso/redeem", "", map[string]string{"ticket": ticket}), http.StatusOK, &out)
	return out.Token, out.User
}

func (se *ssoEnv) myGroups(t *testing.T, token string) []string {
	t.Helper()
	var gs struct {
		Items []struct {
			Name string `json:"name"`
		} `json:"items"`
	}
	se.mustOK(se.do(http.MethodGet, "/api/v1/auth/groups", token, nil), http.StatusOK, &gs)
	var names []string
	for _, g := range gs.Items {
		names = append(names, g.Name)
	}
	return names
}

// TestSSOSignInProvisionsAccountAndGroups drives the authorization code flow
// through a real provider: the account is made with its mapped groups, a
// share to one of them is visible at once, the ticket works once, and a
// second sign-in after the provider drops a group removes the membership
// and the share with it — while a group made by hand stays.
func TestSSOSignInProvisionsAccountAndGroups(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		se := newSSOEnv(t, dialect, nil)
		var g struct{ ID int64 }
		se.mustOK(se.do(http.MethodPost, "/api/v1/admin/groups", se.Admin, map[string]string{"name": "engineering"}), http.StatusCreated, &g)
		se.mkdir(se.Admin, "kb://me/eng-handbook/")
		se.share(se.Admin, "kb://me/eng-handbook/", "group", "engineering", "read")

		var opts struct {
			PasswordLogin bool       `json:"password_login"`
			Providers     []sso.Info `json:"providers"`
		}
		se.mustOK(se.do(http.MethodGet, "/api/v1/auth/sign-in-options", "", nil), http.StatusOK, &opts)
		if !opts.PasswordLogin || fmt.Sprint(opts.Providers) != "[{corp Corp} {partner Partner}]" {
			t.Fatalf("sign-in options: %+v", opts)
		}

		out := se.signIn(t, se.browser(), "corp", "alice@corp.example", "alice-pw")
		if out.Get("return") != "/notes/" || out.Get("sso_ticket") == "" {
			t.Fatalf("fragment: %v", out)
		}
		token, user := se.redeem(t, out)
		if user.Username != "alice" || user.Role != "user" {
			t.Fatalf("account: %+v", user)
		}
		wantErr(t, se.do(http.MethodPost, "/api/v1/auth/sso/redeem", "", map[string]string{"ticket": out.Get("sso_ticket")}), http.StatusUnauthorized, "invalid_ticket")
		if got := se.myGroups(t, token); fmt.Sprint(got) != "[engineering]" {
			t.Fatalf("groups after sign-in: %v", got)
		}
		if got := se.sharedWithMe(token); len(got) != 1 || got[0].Name != "eng-handbook" {
			t.Fatalf("shared with alice: %+v", got)
		}
		var hand struct{ ID int64 }
		se.mustOK(se.do(http.MethodPost, "/api/v1/admin/groups", se.Admin, map[string]string{"name": "book-club"}), http.StatusCreated, &hand)
		se.mustOK(se.do(http.MethodPut, fmt.Sprintf("/api/v1/admin/groups/%d/members/%d", hand.ID, user.ID), se.Admin, nil), http.StatusOK, nil)

		writeOPUsers(t, se.users["corp"], map[string]oidcop.User{
			"u1": {Username: "alice@corp.example", Password: "alice-pw", Email: "alice@corp.example", EmailVerified: true, Groups: []string{"staff", "ops"}},
		})
		out = se.signIn(t, se.browser(), "corp", "alice@corp.example", "alice-pw")
		token2, again := se.redeem(t, out)
		if again.ID != user.ID {
			t.Fatalf("second sign-in made another account: %+v vs %+v", again, user)
		}
		if got := se.myGroups(t, token2); fmt.Sprint(got) != "[book-club operations]" {
			t.Fatalf("groups after the provider dropped eng: %v", got)
		}
		if got := se.sharedWithMe(token); len(got) != 0 {
			t.Fatalf("the share outlived the membership: %+v", got)
		}

		// The same subject at another provider is another person, who may
		// not take over corp's alice by her address (linking is off).
		out = se.signIn(t, se.browser(), "partner", "alice@corp.example", "alice-pw")
		if out.Get("sso_error") != "sso_email_taken" {
			t.Fatalf("partner's u1 with alice's address: %v", out)
		}
		writeOPUsers(t, se.users["partner"], map[string]oidcop.User{
			"u1": {Username: "alice@corp.example", Password: "alice-pw", Email: "alice@partner.example", EmailVerified: true},
		})
		out = se.signIn(t, se.browser(), "partner", "alice@corp.example", "alice-pw")
		_, other := se.redeem(t, out)
		if other.ID == user.ID || other.Username != "alice-2" {
			t.Fatalf("partner's u1 became %+v (corp's is %+v)", other, user)
		}

		se.mustOK(se.do(http.MethodPatch, fmt.Sprintf("/api/v1/admin/users/%d", user.ID), se.Admin, map[string]bool{"disabled": true}), http.StatusOK, nil)
		out = se.signIn(t, se.browser(), "corp", "alice@corp.example", "alice-pw")
		if out.Get("sso_error") != "account_disabled" || out.Get("sso_ticket") != "" {
			t.Fatalf("a disabled account signed in: %v", out)
		}

		// Each sign-in and what its claims changed left one event.
		var got []string
		events := se.auditLog("")
		for i := len(events) - 1; i >= 0; i-- {
			if ev := events[i]; ev.Provider != "" || strings.HasPrefix(ev.Source, "claims:") {
				got = append(got, strings.TrimRight(fmt.Sprintf("%s %s %s %s %s", ev.Action, ev.Username, ev.Provider, ev.Source, ev.Code), " "))
			}
		}
		want := []string{
			"user_create alice corp claims:corp", "group_member_add alice corp claims:corp", "signin alice corp",
			"group_member_remove alice corp claims:corp", "group_member_add alice corp claims:corp", "signin alice corp",
			"signin_failed alice@corp.example partner  sso_email_taken",
			"user_create alice-2 partner claims:partner", "signin alice-2 partner",
			"signin_failed alice@corp.example corp  account_disabled",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("audit events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// TestSSORefusesForgedAnswers: a callback whose state is not the one this
// browser started, a replayed code, and a provider id nobody configured.
func TestSSORefusesForgedAnswers(t *testing.T) {
	t.Parallel()
	se := newSSOEnv(t, "sqlite", nil)
	b := se.browser()
	se.get(t, b, se.URL+"/api/v1/auth/sso/corp/start")
	res, err := b.Get(se.URL + "/api/v1/auth/sso/corp/callback?state=forged&code=x")
	if err != nil {
		t.Fatal(err)
	}
	if got := outcome(t, res).Get("sso_error"); got != "sso_state_mismatch" {
		t.Fatalf("forged state: %q", got)
	}

	// Stop at the provider's answer, use it once, then replay it with the
	// pending sign-in's cookie put back.
	var callback *url.URL
	b = se.browser()
	b.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if strings.Contains(req.URL.Path, "/api/v1/auth/sso/corp/callback") {
			callback = req.URL
			return http.ErrUseLastResponse
		}
		return nil
	}
	page := se.get(t, b, se.URL+"/api/v1/auth/sso/corp/start")
	pending := b.Jar.Cookies(callbackURL(se))
	res, err = b.PostForm(page.url, url.Values{"username": {"alice@corp.example"}, "password": {"alice-pw"}, "id": {formID.FindStringSubmatch(page.body)[1]}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if callback == nil {
		t.Fatal("the provider never answered")
	}
	for i, want := range []string{"", "sso_denied"} {
		b.Jar.SetCookies(callbackURL(se), pending)
		b.CheckRedirect = se.browser().CheckRedirect
		res, err := b.Get(callback.String())
		if err != nil {
			t.Fatal(err)
		}
		got := outcome(t, res)
		if got.Get("sso_error") != want || (want == "") != (got.Get("sso_ticket") != "") {
			t.Fatalf("use %d of the code: %v", i+1, got)
		}
	}
	wantErr(t, se.do(http.MethodGet, "/api/v1/auth/sso/nobody/start", "", nil), http.StatusNotFound, "sso_unknown_provider")
}

func callbackURL(se *ssoEnv) *url.URL {
	u, _ := url.Parse(se.URL + sso.CookiePath)
	return u
}

// TestSSOLogoutEndsTheProviderSession: logging out of a session a provider
// opened answers the provider's end-session address with the ID token as
// hint, and the provider accepts it.
func TestSSOLogoutEndsTheProviderSession(t *testing.T) {
	t.Parallel()
	se := newSSOEnv(t, "sqlite", nil)
	token, _ := se.redeem(t, se.signIn(t, se.browser(), "corp", "alice@corp.example", "alice-pw"))
	var out struct {
		EndSessionURL string `json:"end_session_url"`
	}
	se.mustOK(se.do(http.MethodPost, "/api/v1/auth/logout", token, nil), http.StatusOK, &out)
	if !strings.HasPrefix(out.EndSessionURL, se.ops["corp"].Issuer) {
		t.Fatalf("end session URL: %q", out.EndSessionURL)
	}
	b := se.browser()
	res, err := b.Get(out.EndSessionURL)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != se.URL+"/" {
		t.Fatalf("provider logout: %d → %q", res.StatusCode, res.Header.Get("Location"))
	}
	if hints := se.ops["corp"].EndedSessions(); len(hints) != 1 || hints[0] == "" {
		t.Fatalf("the provider saw end-session hints %q", hints)
	}
	wantErr(t, se.do(http.MethodGet, "/api/v1/auth/me", token, nil), http.StatusUnauthorized, "invalid_token")
	// A password session has no provider to leave.
	se.mustOK(se.do(http.MethodPost, "/api/v1/auth/logout", se.login("admin", adminPassword), nil), http.StatusNoContent, nil)
}
