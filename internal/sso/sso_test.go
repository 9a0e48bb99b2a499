package sso

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/ldap/ldaptest"
	"github.com/knowspace/knowspace/internal/testsupport/oidcop"
)

const public = "http://127.0.0.1:9" // the callback is caught before it is fetched

type fixture struct {
	svc   *Service
	op    *oidcop.Provider
	addr  string
	users string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{users: filepath.Join(t.TempDir(), "users.json")}
	if err := oidcop.WriteUsers(f.users, map[string]oidcop.User{
		"u1": {Username: "dora", Password: "pw", Email: "dora@example.com", EmailVerified: true,
			Groups: []string{"eng"}},
	}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.addr = ln.Addr().String()
	f.start(t, ln)
	cfg := config.Config{PublicURL: public}
	cfg.Auth.OIDC = []config.OIDCProvider{{ID: "corp", Name: "Corp", Issuer: f.op.Issuer, ClientID: "web", ClientSecret: "web-secret",
		GroupsClaim: "groups", Groups: map[string]string{"eng": "engineering"}}}
	if f.svc, err = New(cfg, []byte("a test secret of at least thirty-two bytes")); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) start(t *testing.T, ln net.Listener) {
	t.Helper()
	op, err := oidcop.Start(ln, f.users, []oidcop.Client{
		{ID: "web", Secret: "web-secret", RedirectURIs: []string{public + "/api/v1/auth/sso/corp/callback"}},
		{ID: "other", Secret: "other-secret", RedirectURIs: []string{public + "/other"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = op.Close() })
	f.op = op
}

var formID = regexp.MustCompile(`name="id" value="([^"]+)"`)

// login follows authURL through the provider's login page as dora and
// returns the query the provider sent back to the relying party.
func login(t *testing.T, authURL string) url.Values {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	var back url.Values
	b := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), public) {
			back = req.URL.Query()
			return http.ErrUseLastResponse
		}
		return nil
	}}
	res, err := b.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := formID.FindSubmatch(body)
	if m == nil {
		t.Fatalf("no login form: %.300s", body)
	}
	res, err = b.PostForm(res.Request.URL.String(), url.Values{"username": {"dora"}, "password": {"pw"}, "id": {string(m[1])}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if back == nil {
		t.Fatalf("the provider never sent the browser back (%d)", res.StatusCode)
	}
	return back
}

func (f *fixture) signIn(t *testing.T) (Result, error) {
	t.Helper()
	to, cookie, err := f.svc.Start(context.Background(), "corp", "/x")
	if err != nil {
		t.Fatal(err)
	}
	return f.svc.Finish(context.Background(), "corp", login(t, to), cookie.Value)
}

func codeOf(err error) string {
	if e, ok := apierr.As(err); ok {
		return e.Code.String()
	}
	return ""
}

// TestFinishSurvivesKeyRotation: the provider restarts with a new signing
// key; the next sign-in verifies with the new key without a restart here.
func TestFinishSurvivesKeyRotation(t *testing.T) {
	f := newFixture(t)
	res, err := f.signIn(t)
	if err != nil || res.Identity.Subject != "u1" || res.Identity.Username != "dora" || strings.Join(res.Identity.Groups, ",") != "eng" || res.Return != "/x" {
		t.Fatalf("first sign-in: %+v %v", res, err)
	}
	_ = f.op.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		t.Fatal(err)
	}
	f.start(t, ln)
	if res, err = f.signIn(t); err != nil || res.Identity.Subject != "u1" {
		t.Fatalf("after the provider rotated its key: %+v %v", res, err)
	}
}

// TestVerifyRefusesOtherAudienceAndNonce: an ID token the same provider
// issued to another client, or for another sign-in, is refused.
func TestVerifyRefusesOtherAudienceAndNonce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	p, _ := f.svc.provider("corp")
	d, err := p.discover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other := &oauth2.Config{ClientID: "other", ClientSecret: "other-secret", Endpoint: d.Endpoint(), RedirectURL: public + "/other", Scopes: []string{"openid"}}
	verifier := oauth2.GenerateVerifier()
	back := login(t, other.AuthCodeURL("st", oauth2.SetAuthURLParam("nonce", "n-1"), oauth2.S256ChallengeOption(verifier)))
	tok, err := other.Exchange(ctx, back.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if _, err := f.svc.verify(ctx, p, d, raw, "n-1"); codeOf(err) != "sso_invalid_token" {
		t.Fatalf("a token for client other: %v", err)
	}

	web := p.oauth(d)
	back = login(t, web.AuthCodeURL("st", oauth2.SetAuthURLParam("nonce", "n-2"), oauth2.S256ChallengeOption(verifier)))
	tok, err = web.Exchange(p.ctx(ctx), back.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = tok.Extra("id_token").(string)
	if _, err := f.svc.verify(ctx, p, d, raw, "n-2"); err != nil {
		t.Fatalf("the right token: %v", err)
	}
	if _, err := f.svc.verify(ctx, p, d, raw, "n-other"); codeOf(err) != "sso_invalid_token" {
		t.Fatalf("another sign-in's nonce: %v", err)
	}
}

// TestStartRefusesUnreachableProviderAndForeignReturn: a provider that is
// down answers 502 (and the server keeps running); a return address on
// another site becomes "/".
func TestStartRefusesUnreachableProviderAndForeignReturn(t *testing.T) {
	cfg := config.Config{PublicURL: public}
	cfg.Auth.OIDC = []config.OIDCProvider{{ID: "down", Issuer: "http://127.0.0.1:9/", ClientID: "x", ClientSecret: "y"}}
	svc, err := New(cfg, []byte("a test secret of at least thirty-two bytes"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Start(context.Background(), "down", "/"); codeOf(err) != "sso_provider_unavailable" {
		t.Fatalf("down provider: %v", err)
	}
	for in, want := range map[string]string{"//evil.example/x": "/", "https://evil.example": "/", "/\\evil": "/", "/notes/a b": "/notes/a b", "": "/"} {
		if got := safeReturn(in); got != want {
			t.Errorf("safeReturn(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestProviderBehindAPrivateCA: a provider whose certificate chains to no
// public root is reached with its ca_file, and refused without it.
func TestProviderBehindAPrivateCA(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ldaptest.WriteSelfSigned(t, certFile, keyFile)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	users := filepath.Join(dir, "users.json")
	if err := oidcop.WriteUsers(users, map[string]oidcop.User{}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	op, err := oidcop.StartTLS(ln, &tls.Config{Certificates: []tls.Certificate{cert}}, users, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer op.Close()
	if !strings.HasPrefix(op.Issuer, "https://") {
		t.Fatalf("issuer %s", op.Issuer)
	}
	for _, ca := range []string{"", certFile} {
		cfg := config.Config{PublicURL: public}
		cfg.Auth.OIDC = []config.OIDCProvider{{ID: "corp", Issuer: op.Issuer, ClientID: "web", ClientSecret: "s", CAFile: ca}}
		svc, err := New(cfg, []byte("a test secret of at least thirty-two bytes"))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = svc.Start(context.Background(), "corp", "/")
		if ca == "" && codeOf(err) != "sso_provider_unavailable" || ca != "" && err != nil {
			t.Fatalf("ca_file %q: %v", ca, err)
		}
	}
}
