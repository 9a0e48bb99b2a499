// Package sso signs people in through OpenID Connect providers: the
// authorization code flow with PKCE, state and nonce, the ID token verified
// (signature with the provider's rotating keys, issuer, audience, expiry),
// and the claims turned into an identity the account service provisions.
package sso

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/kb"
)

// CookieName holds the pending sign-in; CookiePath keeps it to the sign-in
// routes.
const (
	CookieName = "ks_sso"
	CookiePath = "/api/v1/auth/sso/"
)

// Service is the configured providers.
type Service struct {
	providers []*provider
	publicURL string
	secure    bool // the cookie needs https
	key       []byte
	now       func() time.Time
}

// Info is a provider as the login page shows it.
type Info struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// New checks the providers' settings that the account service relies on
// and prepares each; none is contacted yet.
func New(cfg config.Config, secret []byte) (*Service, error) {
	s := &Service{publicURL: strings.TrimRight(cfg.PublicURL, "/"), secure: strings.HasPrefix(cfg.PublicURL, "https://"), now: time.Now}
	k := sha256.Sum256(append([]byte("knowspace sso state\x00"), secret...))
	s.key = k[:]
	for _, pc := range cfg.Auth.OIDC {
		for value, group := range pc.Groups {
			if !kb.ValidUsername(group) {
				return nil, fmt.Errorf("auth.oidc %s: groups[%q]: %q is not a group name (lower-case letters, digits, '.', '_' or '-')", pc.ID, value, group)
			}
		}
		if pc.Name == "" {
			pc.Name = pc.ID
		}
		p, err := newProvider(pc, s.publicURL)
		if err != nil {
			return nil, err
		}
		s.providers = append(s.providers, p)
	}
	return s, nil
}

// List is the providers in the config's order.
func (s *Service) List() []Info {
	out := make([]Info, 0, len(s.providers))
	for _, p := range s.providers {
		out = append(out, Info{ID: p.cfg.ID, Name: p.cfg.Name})
	}
	return out
}

func (s *Service) provider(id string) (*provider, error) {
	for _, p := range s.providers {
		if p.cfg.ID == id {
			return p, nil
		}
	}
	return nil, apierr.New(http.StatusNotFound, apierr.CodeSSOUnknownProvider, "no identity provider has the id %q", kb.Clip(id, 120))
}

// Start begins a sign-in: the address to send the browser to, and the
// cookie that remembers the sign-in until the provider answers.
func (s *Service) Start(ctx context.Context, id, returnTo string) (string, *http.Cookie, error) {
	p, err := s.provider(id)
	if err != nil {
		return "", nil, err
	}
	d, err := p.discover(ctx)
	if err != nil {
		return "", nil, err
	}
	pend := pending{Provider: id, State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier(),
		Return: safeReturn(returnTo), Expires: s.now().Add(pendingTTL)}
	u := p.oauth(d).AuthCodeURL(pend.State, oidc.Nonce(pend.Nonce), oauth2.S256ChallengeOption(pend.Verifier))
	return u, s.cookie(s.seal(pend), int(pendingTTL/time.Second)), nil
}

// ClearCookie ends the pending sign-in in the browser.
func (s *Service) ClearCookie() *http.Cookie { return s.cookie("", -1) }

func (s *Service) cookie(value string, maxAge int) *http.Cookie {
	// Lax: the provider's answer is a top-level navigation from its site,
	// which Lax lets the cookie ride; Strict would drop it.
	return &http.Cookie{Name: CookieName, Value: value, Path: CookiePath, MaxAge: maxAge,
		HttpOnly: true, Secure: s.secure, SameSite: http.SameSiteLaxMode}
}

// Result is a finished sign-in.
type Result struct {
	Identity auth.ExternalIdentity
	Policy   auth.ExternalPolicy
	IDToken  string // for the provider's logout
	Return   string // where the web app goes now
}

// Finish checks the provider's answer against the pending sign-in in the
// cookie, trades the code for tokens and verifies the ID token.
func (s *Service) Finish(ctx context.Context, id string, q url.Values, cookie string) (Result, error) {
	p, err := s.provider(id)
	if err != nil {
		return Result{}, err
	}
	pend, ok := s.open(cookie)
	if !ok || pend.Provider != id || q.Get("state") == "" || q.Get("state") != pend.State {
		return Result{}, apierr.BadRequest(apierr.CodeSSOStateMismatch, "this answer from the identity provider belongs to no sign-in started in this browser, or it is stale; start again")
	}
	if e := q.Get("error"); e != "" {
		return Result{}, apierr.Unauthorized(apierr.CodeSSODenied, "%s did not sign you in: %s", p.cfg.Name, kb.Clip(e+" "+q.Get("error_description"), 200)).
			WithDetail("provider_error", kb.Clip(e, 120))
	}
	d, err := p.discover(ctx)
	if err != nil {
		return Result{}, err
	}
	pctx := p.ctx(ctx)
	tok, err := p.oauth(d).Exchange(pctx, q.Get("code"), oauth2.VerifierOption(pend.Verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode != "" {
			return Result{}, apierr.Unauthorized(apierr.CodeSSODenied, "%s refused the sign-in code: %s", p.cfg.Name, kb.Clip(re.ErrorCode, 120)).
				WithDetail("provider_error", kb.Clip(re.ErrorCode, 120)).WithCause(err)
		}
		return Result{}, unavailable(p.cfg.Name, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Result{}, apierr.New(http.StatusBadGateway, apierr.CodeSSOProvider, "%s sent no ID token; is the openid scope granted?", p.cfg.Name)
	}
	claims, err := s.verify(pctx, p, d, raw, pend.Nonce)
	if err != nil {
		return Result{}, err
	}
	if d.UserInfoEndpoint() != "" {
		info, err := d.UserInfo(pctx, oauth2.StaticTokenSource(tok))
		if err != nil {
			return Result{}, unavailable(p.cfg.Name, err)
		}
		var more map[string]any
		if err := info.Claims(&more); err != nil || info.Subject != claims["sub"] {
			return Result{}, apierr.New(http.StatusBadGateway, apierr.CodeSSOProvider, "%s's userinfo names another subject than its ID token", p.cfg.Name)
		}
		for k, v := range more {
			if _, ok := claims[k]; !ok {
				claims[k] = v
			}
		}
	}
	return Result{Identity: identity(p.cfg, claims), Policy: policy(p.cfg), IDToken: raw, Return: pend.Return}, nil
}

// verify checks the ID token and its nonce, returning its claims.
func (s *Service) verify(ctx context.Context, p *provider, d *oidc.Provider, raw, nonce string) (map[string]any, error) {
	idt, err := d.Verifier(&oidc.Config{ClientID: p.cfg.ClientID, Now: s.now}).Verify(ctx, raw)
	if err != nil {
		return nil, apierr.Unauthorized(apierr.CodeSSOInvalidToken, "the ID token from %s failed verification", p.cfg.Name).WithCause(err)
	}
	if idt.Nonce != nonce {
		return nil, apierr.Unauthorized(apierr.CodeSSOInvalidToken, "the ID token from %s was issued for another sign-in (nonce)", p.cfg.Name)
	}
	var claims map[string]any
	if err := idt.Claims(&claims); err != nil {
		return nil, apierr.Unauthorized(apierr.CodeSSOInvalidToken, "the ID token from %s has unreadable claims", p.cfg.Name).WithCause(err)
	}
	return claims, nil
}

// EndSessionURL is where the browser ends its session at the provider, or
// "" when the provider offers no logout endpoint.
func (s *Service) EndSessionURL(ctx context.Context, id, idToken string) string {
	p, err := s.provider(id)
	if err != nil {
		return ""
	}
	if _, err := p.discover(ctx); err != nil || p.endSession == "" {
		return ""
	}
	u, err := url.Parse(p.endSession)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set("id_token_hint", idToken)
	q.Set("client_id", p.cfg.ClientID)
	q.Set("post_logout_redirect_uri", s.publicURL+"/")
	u.RawQuery = q.Encode()
	return u.String()
}

// safeReturn keeps a return address inside this site: a path, never
// another host ("//evil.example" or "https://…").
func safeReturn(r string) string {
	if !strings.HasPrefix(r, "/") || strings.HasPrefix(r, "//") || strings.HasPrefix(r, "/\\") || strings.ContainsAny(r, "\r\n") {
		return "/"
	}
	return r
}

func random() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
