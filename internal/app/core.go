// Package app builds the running Knowspace from one config: the store and
// the blobs, the services over them, the four doors and the HTTP server.
// cmd/server only reads the config and runs what this package builds; the
// operator commands open the Core alone.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/knowspace/knowspace/internal/audit"
	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/blob/s3"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/sample"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/sso"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/usage"
)

// Core is what the server and every operator command need: the database,
// the blobs, the tree with its search index writer, and the accounts.
type Core struct {
	Config config.Config
	Store  *store.Store
	Blobs  *blob.Store
	Tree   *knowledge.Tree
	Index  *search.Index
	// Embedder writes meaning search's vectors; nil without an embedding
	// model.
	Embedder *search.Embedder
	Auth     *auth.Service
	// SSO is the identity providers; nil when none is configured.
	SSO *sso.Service
	// Usage keeps every model call's tokens and cost; the app runs it.
	Usage *usage.Meter
	// Audit records security-relevant actions; the auth service and every
	// door record through it.
	Audit *audit.Recorder
}

// Open makes the data directory the server's alone and opens the core on
// it. A caller that must repair the data directory first (an interrupted
// restore) does so before Open.
func Open(ctx context.Context, cfg config.Config) (*Core, error) {
	// Everything under the data dir is the server's alone (0700/0600).
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	if err := os.Chmod(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	st, err := store.Open(ctx, cfg.DatabaseDSN, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	blobs, err := OpenBlobs(ctx, cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	LogLeftovers(blobs.CleanStaging(blob.StagingMaxAge))
	tree := knowledge.NewTree(st, blobs, cfg.MaxUploadBytes)
	tree.SetTrashTTL(time.Duration(cfg.TrashDays) * 24 * time.Hour)
	index := search.NewIndex(st, blobs, tree)
	meter := usage.New(st)
	var embedder *search.Embedder
	if m, ok := cfg.EmbeddingModel(); ok {
		client := embed.New(m, nil)
		client.OnUsage = meter.Embedded
		embedder = search.NewEmbedder(index, client)
	}
	secret, err := auth.LoadOrCreateSecret(cfg.JWTSecret, cfg.DataDir)
	if err != nil {
		st.Close()
		return nil, err
	}
	rec := audit.New(st, audit.Options{Log: auditLog(cfg)})
	svc, err := auth.New(st, sample.Seeder{Tree: tree}, auth.Options{Secret: secret, TTL: cfg.SessionTTL, MaxTTL: cfg.SessionMaxTTL, BcryptCost: bcrypt.DefaultCost,
		LoginsPerSecond: cfg.Limits.LoginsPerSecond, Directory: directory(cfg.Auth.LDAP), LocalPasswordsOff: !cfg.Auth.PasswordsAllowed(), Audit: rec})
	if err != nil {
		st.Close()
		return nil, err
	}
	var providers *sso.Service
	if len(cfg.Auth.OIDC) > 0 {
		if providers, err = sso.New(cfg, secret); err != nil {
			st.Close()
			return nil, err
		}
	}
	return &Core{Config: cfg, Store: st, Blobs: blobs, Tree: tree, Index: index, Embedder: embedder, Auth: svc, SSO: providers, Usage: meter, Audit: rec}, nil
}

// auditLog is where audit events are also logged: the server's log when it
// writes JSON, which a collector can take as it is; nowhere otherwise.
func auditLog(cfg config.Config) *slog.Logger {
	if cfg.LogFormat != observe.LogJSON {
		return nil
	}
	return slog.Default()
}

// Close releases the blobs' staging and closes the database.
func (c *Core) Close() {
	c.Blobs.Close()
	c.Store.Close()
}

// OpenBlobs opens the configured blob store; staging is always under the
// data dir, so an upload is checked on local disk before it is published.
func OpenBlobs(ctx context.Context, cfg config.Config) (*blob.Store, error) {
	if cfg.BlobStore != "s3" {
		return blob.Open(cfg.DataDir)
	}
	b, err := s3.New(ctx, s3.Config{Endpoint: cfg.S3.Endpoint, Bucket: cfg.S3.Bucket, Prefix: cfg.S3.Prefix, Region: cfg.S3.Region})
	if err != nil {
		return nil, err
	}
	return blob.OpenWith(cfg.DataDir, b)
}

// directory is the LDAP sign-in the config asks for, or nil.
func directory(c *config.LDAP) *auth.LDAPDirectory {
	if c == nil {
		return nil
	}
	return &auth.LDAPDirectory{Config: c.Config, Policy: auth.ExternalPolicy{CreateAccounts: c.JIT == nil || *c.JIT,
		LinkByEmail: c.LinkByEmail, Groups: c.Groups, AdminValues: c.AdminValues}}
}
