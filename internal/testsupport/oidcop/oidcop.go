// Package oidcop runs a real OpenID provider for tests: the example server of
// github.com/zitadel/oidc, with its users and their groups read from a JSON
// file on every lookup, so a test changes a user's groups between two
// sign-ins by rewriting the file. Its signing key is made at start, so a
// restarted provider has rotated its key.
package oidcop

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"
	"golang.org/x/text/language"
)

// User is one account of the provider as the users file spells it.
type User struct {
	Username      string   `json:"username"`
	Password      string   `json:"password"`
	Name          string   `json:"name"`
	Email         string   `json:"email"`
	EmailVerified bool     `json:"email_verified"`
	Groups        []string `json:"groups"`
}

// Client is a relying party the provider knows.
type Client struct {
	ID                     string
	Secret                 string
	RedirectURIs           []string
	PostLogoutRedirectURIs []string
}

// Provider is a running provider.
type Provider struct {
	Issuer string
	srv    *http.Server
	ln     net.Listener
	mu     sync.Mutex
	ended  []string // id_token_hint values end_session was called with
}

// WriteUsers replaces the provider's users (keyed by subject).
func WriteUsers(path string, users map[string]User) error {
	b, err := json.MarshalIndent(users, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// Start serves a provider on ln whose users come from usersFile.
func Start(ln net.Listener, usersFile string, clients []Client) (*Provider, error) {
	return start(ln, "http://", usersFile, clients)
}

// StartTLS is Start over TLS with cfg's certificate.
func StartTLS(ln net.Listener, cfg *tls.Config, usersFile string, clients []Client) (*Provider, error) {
	return start(tls.NewListener(ln, cfg), "https://", usersFile, clients)
}

func start(ln net.Listener, scheme, usersFile string, clients []Client) (*Provider, error) {
	issuer := scheme + ln.Addr().String() + "/"
	cs := map[string]*storage.Client{}
	posts := map[string][]string{}
	for _, c := range clients {
		cs[c.ID] = storage.WebClient(c.ID, c.Secret, c.RedirectURIs...)
		posts[c.ID] = c.PostLogoutRedirectURIs
	}
	users := fileUsers{path: usersFile}
	st := &groupStorage{Storage: storage.NewStorageWithClients(users, cs), users: users, posts: posts}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	router := exampleop.SetupServer(issuer, st, logger, false)
	p := &Provider{Issuer: issuer, ln: ln}
	p.srv = &http.Server{Handler: p.recordEndSession(router)}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// Close stops the provider.
func (p *Provider) Close() error { return p.srv.Close() }

// EndedSessions lists the id_token_hint of every end_session request seen.
func (p *Provider) EndedSessions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.ended...)
}

func (p *Provider) recordEndSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/end_session" {
			p.mu.Lock()
			p.ended = append(p.ended, r.URL.Query().Get("id_token_hint"))
			p.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

// fileUsers reads the users file on every lookup.
type fileUsers struct{ path string }

func (f fileUsers) all() map[string]User {
	var users map[string]User
	b, err := os.ReadFile(f.path)
	if err == nil {
		err = json.Unmarshal(b, &users)
	}
	if err != nil {
		slog.Error("oidcop: read users", "err", err)
	}
	return users
}

func (f fileUsers) GetUserByID(id string) *storage.User {
	u, ok := f.all()[id]
	if !ok {
		return nil
	}
	return toExample(id, u)
}

func (f fileUsers) GetUserByUsername(name string) *storage.User {
	for id, u := range f.all() {
		if u.Username == name {
			return toExample(id, u)
		}
	}
	return nil
}

func (f fileUsers) ExampleClientID() string { return "service" }

func toExample(id string, u User) *storage.User {
	first, last, _ := strings.Cut(u.Name, " ")
	return &storage.User{ID: id, Username: u.Username, Password: u.Password, FirstName: first, LastName: last,
		Email: u.Email, EmailVerified: u.EmailVerified, PreferredLanguage: language.English}
}

// groupStorage adds a `groups` claim to the ID token and userinfo, and the
// post-logout addresses the example's clients do not register.
type groupStorage struct {
	*storage.Storage
	users fileUsers
	posts map[string][]string
}

func (s *groupStorage) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	if err := s.Storage.SetUserinfoFromRequest(ctx, info, req, scopes); err != nil {
		return err
	}
	s.addGroups(info, req.GetSubject())
	return nil
}

func (s *groupStorage) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, tokenID, subject, origin string) error {
	if err := s.Storage.SetUserinfoFromToken(ctx, info, tokenID, subject, origin); err != nil {
		return err
	}
	s.addGroups(info, subject)
	return nil
}

func (s *groupStorage) addGroups(info *oidc.UserInfo, subject string) {
	if u, ok := s.users.all()[subject]; ok {
		info.AppendClaims("groups", append([]string{}, u.Groups...))
	}
}

func (s *groupStorage) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	return logoutClient{Client: c, posts: s.posts[id]}, nil
}

type logoutClient struct {
	op.Client
	posts []string
}

func (c logoutClient) PostLogoutRedirectURIs() []string { return c.posts }
