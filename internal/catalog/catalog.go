// Package catalog keeps the models an admin adds in the admin screens:
// stored in the database with their API keys sealed by the secrets key,
// merged with the models of the config file and the environment (which win
// an id) into the one live llm.Registry every service holds, rebuilt on
// every replica within seconds of a change, and who may use each.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/store"
)

// PollInterval is how often a replica reads the change counter; a change
// made on another replica is live here within about this long.
const PollInterval = 2 * time.Second

// KindChat is a chat model (the default kind).
const KindChat = "chat"

// Service is the admin's models and the live registry built from them.
type Service struct {
	store  *store.Store
	base   *llm.Registry // the config file's and the environment's models
	live   *llm.Registry
	sealer *Sealer // nil without a secrets key: no key can be stored
	opts   llm.RegistryOptions

	mu      sync.Mutex // one rebuild at a time
	version int64
	// shadowed are the admin's model ids the base wins, from the last
	// rebuild (guarded by mu).
	shadowed map[string]bool

	// Meaning search's models (embedding.go), guarded by mu.
	embedBase     []embed.Config
	onEmbedUsage  func(string, int, bool, float64)
	onEmbedChange func()
	embedInUse    string
	meaning       *Meaning
}

// New builds the live registry from base and the stored models. secret is
// secrets_key; empty means keys can be neither stored nor opened. A stored
// model that cannot be built (its key sealed with another secrets key) is
// left out with a warning, so one bad row never stops the server.
func New(ctx context.Context, st *store.Store, base *llm.Registry, secret string, opts llm.RegistryOptions) (*Service, error) {
	s := &Service{store: st, base: base, live: llm.NewLive(base), opts: opts, meaning: &Meaning{}}
	if s.opts.HTTPClient == nil {
		s.opts.HTTPClient = llm.NewHTTPClient()
	}
	if secret != "" {
		sealer, err := NewSealer(secret)
		if err != nil {
			return nil, err
		}
		s.sealer = sealer
	}
	if err := s.Reload(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// Models is the live registry: hand it to every service once; it follows
// every change.
func (s *Service) Models() *llm.Registry { return s.live }

// CanStoreKeys tells whether a secrets key is configured.
func (s *Service) CanStoreKeys() bool { return s.sealer != nil }

// Reload rebuilds the live registry from the base and the stored models.
func (s *Service) Reload(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// The counter is read first: a change landing during the rebuild bumps
	// it past what is recorded, and the next poll rebuilds again.
	version, err := s.store.AdminModelsVersion(ctx)
	if err != nil {
		return fmt.Errorf("read models version: %w", err)
	}
	rows, err := s.store.AdminModels(ctx)
	if err != nil {
		return fmt.Errorf("read models: %w", err)
	}
	var configs []llm.ModelConfig
	audiences := map[string]audience{}
	for _, row := range rows {
		if row.Disabled || row.Kind != KindChat {
			continue
		}
		mc, err := s.config(row)
		if err == nil {
			// Each is checked alone so one bad row leaves out only itself.
			err = mc.Validate()
		}
		if err != nil {
			slog.Warn("admin model left out", "model", row.ID, "err", err)
			continue
		}
		configs = append(configs, mc)
		audiences[row.ID] = newAudience(row)
	}
	extra, err := llm.NewRegistry(configs, s.opts)
	if err != nil {
		return fmt.Errorf("build admin models: %w", err)
	}
	combined, shadowed := llm.Combine(s.base, extra)
	s.shadowed = map[string]bool{}
	for _, id := range shadowed {
		s.shadowed[id] = true
		// The config file's model of that id is everyone's.
		delete(audiences, id)
	}
	if err := s.live.Swap(combined, s.accessRule(audiences)); err != nil {
		return err
	}
	if err := s.reloadEmbedding(ctx, rows); err != nil {
		return err
	}
	s.version = version
	return nil
}

// Watch rebuilds the registry whenever another replica changed the models,
// polling the change counter every interval until ctx ends.
func (s *Service) Watch(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, err := s.store.AdminModelsVersion(ctx)
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, store.ErrClosed) {
				slog.Warn("poll models version", "err", err)
			}
			continue
		}
		s.mu.Lock()
		changed := v != s.version
		s.mu.Unlock()
		if changed {
			if err := s.Reload(ctx); err != nil && ctx.Err() == nil {
				slog.Warn("reload models", "err", err)
			}
		}
	}
}

// config is the llm configuration of a stored model, its key opened.
func (s *Service) config(row store.AdminModel) (llm.ModelConfig, error) {
	mc := llm.ModelConfig{ID: row.ID, Name: row.Name, Profile: row.Profile, BaseURL: row.BaseURL, Model: row.Upstream,
		ContextWindow: row.ContextWindow, OutputReserve: row.OutputReserve, MaxOutput: row.MaxOutput,
		NativeTools: row.NativeTools, Reasoning: row.Reasoning, PriceInput: row.PriceInput, PriceOutput: row.PriceOutput}
	if row.APIKeySealed != "" {
		if s.sealer == nil {
			return mc, errors.New("its API key is sealed and no secrets_key is configured")
		}
		key, err := s.sealer.Open(row.APIKeySealed, row.ID)
		if err != nil {
			return mc, fmt.Errorf("its API key: %w", err)
		}
		mc.APIKey = key
	}
	return mc, nil
}

// audience is who may use a model: both sets empty is everyone.
type audience struct {
	users, groups map[int64]bool
}

func newAudience(row store.AdminModel) audience {
	a := audience{users: map[int64]bool{}, groups: map[int64]bool{}}
	for _, id := range row.AllowedUsers {
		a.users[id] = true
	}
	for _, id := range row.AllowedGroups {
		a.groups[id] = true
	}
	return a
}

func (a audience) everyone() bool { return len(a.users) == 0 && len(a.groups) == 0 }

// accessRule answers from the audiences of this rebuild; the user's groups
// are read only for a model restricted to groups, so membership changes
// count at once.
func (s *Service) accessRule(audiences map[string]audience) llm.Access {
	return func(ctx context.Context, userID int64, modelID string) (bool, error) {
		a, ok := audiences[modelID]
		if !ok || a.everyone() || a.users[userID] {
			return true, nil
		}
		if len(a.groups) == 0 {
			return false, nil
		}
		groups, err := s.store.GroupsOf(ctx, userID)
		if err != nil {
			return false, fmt.Errorf("groups of user %d: %w", userID, err)
		}
		for _, g := range groups {
			if a.groups[g.ID] {
				return true, nil
			}
		}
		return false, nil
	}
}
