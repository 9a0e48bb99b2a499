package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/httpapi"
	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// newLDAPEnv is the API whose sign-in form also asks a real slapd.
func newLDAPEnv(t *testing.T, dialect string) *env {
	t.Helper()
	dir := ldaptest.Start(t)
	t.Setenv("KB_TEST_LDAP_PASSWORD", ldaptest.ReaderPassword)
	stack := apptest.NewStack(t, dialect)
	svc, err := auth.New(stack.Store, nil, auth.Options{Secret: []byte(apptest.Secret), BcryptCost: bcrypt.MinCost,
		Directory: &auth.LDAPDirectory{Config: dir.Config("KB_TEST_LDAP_PASSWORD"), Policy: auth.ExternalPolicy{CreateAccounts: true,
			Groups: map[string]string{"editors": "editors", "readers": "readers"}, AdminValues: []string{"research, dev"}}}})
	if err != nil {
		t.Fatal(err)
	}
	stack.Auth = svc
	return newEnvOn(t, stack, httpapi.Deps{})
}

// TestLDAPSignInThroughTheForm: the form's password is checked by the
// directory for names without a local password; the account is made with
// its mapped groups and role; a wrong password, an unknown name and a
// locked account are refused the way a local login is; the local admin
// keeps their password.
func TestLDAPSignInThroughTheForm(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newLDAPEnv(t, dialect)
		var g struct{ ID int64 }
		e.mustOK(e.do(http.MethodPost, "/api/v1/admin/groups", e.Admin, map[string]string{"name": "readers"}), http.StatusCreated, &g)
		e.mkdir(e.Admin, "kb://me/reading-list/")
		e.share(e.Admin, "kb://me/reading-list/", "group", "readers", "read")

		alice := e.login("alice", "wonderland")
		var me userJSON
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/me", alice, nil), http.StatusOK, &me)
		if me.Username != "alice" || me.Role != "admin" {
			t.Fatalf("alice from the directory: %+v", me)
		}
		var gs struct {
			Items []struct{ Name string } `json:"items"`
		}
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/groups", alice, nil), http.StatusOK, &gs)
		if fmt.Sprint(gs.Items) != "[{editors} {readers}]" {
			t.Fatalf("alice's groups: %+v", gs.Items)
		}
		if got := e.sharedWithMe(alice); len(got) != 1 || got[0].Name != "reading-list" {
			t.Fatalf("the readers' share: %+v", got)
		}
		bob := e.login("bob", "can-we-fix-it")
		e.mustOK(e.do(http.MethodGet, "/api/v1/auth/me", bob, nil), http.StatusOK, &me)
		if me.Role != "user" {
			t.Fatalf("bob: %+v", me)
		}
		for _, c := range []struct{ user, pw, code string }{
			{"alice", "wrong", "invalid_credentials"},
			{"nobody", "wonderland", "invalid_credentials"},
			{"carol", "still-right", "account_disabled"},
			{"carol", "wrong", "invalid_credentials"},
		} {
			wantErr(t, e.do(http.MethodPost, "/api/v1/auth/login", "", map[string]string{"username": c.user, "password": c.pw}),
				map[string]int{"invalid_credentials": 401, "account_disabled": 403}[c.code], c.code)
		}
		e.login("admin", adminPassword)
	})
}
