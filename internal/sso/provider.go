package sso

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/config"
)

// provider is one configured identity provider; its discovery document is
// read at first use and kept, so a provider down at start delays nothing
// but its own sign-ins.
type provider struct {
	cfg         config.OIDCProvider
	redirectURL string
	client      *http.Client

	mu          sync.Mutex
	discovered  *oidc.Provider
	endSession  string
	lastFailure time.Time
}

func newProvider(cfg config.OIDCProvider, publicURL string) (*provider, error) {
	client, err := httpClient(cfg.CAFile)
	if err != nil {
		return nil, fmt.Errorf("auth.oidc %s: %w", cfg.ID, err)
	}
	return &provider{cfg: cfg, client: client, redirectURL: publicURL + "/api/v1/auth/sso/" + cfg.ID + "/callback"}, nil
}

// httpClient trusts the system's roots plus the provider's own CA bundle,
// for providers behind a private certificate authority.
func httpClient(caFile string) (*http.Client, error) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file %s: no PEM certificate in it", caFile)
		}
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	return &http.Client{Transport: tr, Timeout: 15 * time.Second}, nil
}

// rediscoverAfter spaces the retries of a provider that failed discovery.
const rediscoverAfter = 10 * time.Second

func (p *provider) ctx(ctx context.Context) context.Context {
	return oidc.ClientContext(context.WithValue(ctx, oauth2.HTTPClient, p.client), p.client)
}

// discover returns the provider's endpoints, reading them once.
func (p *provider) discover(ctx context.Context) (*oidc.Provider, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.discovered != nil {
		return p.discovered, nil
	}
	if time.Since(p.lastFailure) < rediscoverAfter {
		return nil, unavailable(p.cfg.Name, errors.New("discovery failed moments ago"))
	}
	d, err := oidc.NewProvider(p.ctx(ctx), p.cfg.Issuer)
	if err != nil {
		p.lastFailure = time.Now()
		return nil, unavailable(p.cfg.Name, err)
	}
	var extra struct {
		EndSession string `json:"end_session_endpoint"`
	}
	_ = d.Claims(&extra)
	p.discovered, p.endSession = d, extra.EndSession
	return d, nil
}

func (p *provider) oauth(d *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{ClientID: p.cfg.ClientID, ClientSecret: p.cfg.ClientSecret, Endpoint: d.Endpoint(),
		RedirectURL: p.redirectURL, Scopes: p.cfg.ScopesOrDefault()}
}

func unavailable(name string, err error) error {
	return apierr.New(http.StatusBadGateway, apierr.CodeSSOProvider, "the identity provider %s cannot be used now; try again later", name).WithCause(err)
}
