package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/store"
)

// KindEmbedding is an embedding model, for meaning search.
const KindEmbedding = "embedding"

// Meaning is the embedding model in use, swapped in place when an admin
// chooses another: the index and the search tools hold it once and always
// reach the current model.
type Meaning struct {
	mu  sync.RWMutex
	cur *embed.Client
	cfg embed.Config
}

func (m *Meaning) client() (*embed.Client, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.cur == nil {
		return nil, errors.New("no embedding model is in use")
	}
	return m.cur, nil
}

// ID is the model in use; "" when none is.
func (m *Meaning) ID() string {
	c, err := m.client()
	if err != nil {
		return ""
	}
	return c.ID()
}

// Key is the vector space of the model in use.
func (m *Meaning) Key(ctx context.Context) (string, error) {
	c, err := m.client()
	if err != nil {
		return "", err
	}
	return c.Key(ctx)
}

// Embed asks the model in use for the texts' vectors.
func (m *Meaning) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	c, err := m.client()
	if err != nil {
		return nil, err
	}
	return c.Embed(ctx, texts)
}

// BatchSize is how many texts one request of the model in use carries.
func (m *Meaning) BatchSize() int {
	c, err := m.client()
	if err != nil {
		return 1
	}
	return c.BatchSize()
}

// InUse tells whether any embedding model is in use.
func (m *Meaning) InUse() bool { return m.ID() != "" }

// swap puts cfg in use (none when cfg.ID is ""); it tells whether that
// changed anything.
func (m *Meaning) swap(cfg embed.Config, onUsage func(string, int, bool, float64)) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cfg == cfg && (m.cur != nil) == (cfg.ID != "") {
		return false
	}
	m.cfg, m.cur = cfg, nil
	if cfg.ID != "" {
		m.cur = embed.New(cfg, nil)
		m.cur.OnUsage = onUsage
	}
	return true
}

// WithEmbedding adds meaning search's models: fromFile are the config
// file's embedding_models (read-only, winning an id; the first is in use
// until an admin chooses another), onUsage is told every request's usage
// and changed is called whenever the model in use changes (the embedder
// then embeds every file under the new one).
func (s *Service) WithEmbedding(ctx context.Context, fromFile []embed.Config, onUsage func(string, int, bool, float64), changed func()) error {
	s.mu.Lock()
	s.embedBase, s.onEmbedUsage, s.onEmbedChange = fromFile, onUsage, changed
	s.mu.Unlock()
	return s.Reload(ctx)
}

// Meaning is the embedding model in use, live.
func (s *Service) Meaning() *Meaning { return s.meaning }

// fromFile is the config file's embedding model of id.
func (s *Service) embedFromFile(id string) (embed.Config, bool) {
	for _, c := range s.embedBase {
		if c.ID == id {
			return c, true
		}
	}
	return embed.Config{}, false
}

// reloadEmbedding puts in use the admin's choice when it can be used, else
// the config file's first; s.mu is held.
func (s *Service) reloadEmbedding(ctx context.Context, rows []store.AdminModel) error {
	chosen, err := s.store.EmbeddingInUse(ctx)
	if err != nil {
		return fmt.Errorf("read the embedding model in use: %w", err)
	}
	usable := map[string]embed.Config{}
	for _, row := range rows {
		if row.Kind != KindEmbedding || row.Disabled {
			continue
		}
		if _, wins := s.embedFromFile(row.ID); wins {
			continue
		}
		cfg, err := s.embedConfig(row)
		if err == nil {
			err = cfg.Validate()
		}
		if err != nil {
			slog.Warn("admin embedding model left out", "model", row.ID, "err", err)
			continue
		}
		usable[row.ID] = cfg
	}
	for _, c := range s.embedBase {
		usable[c.ID] = c
	}
	use, ok := usable[chosen]
	if !ok && len(s.embedBase) > 0 {
		use = s.embedBase[0]
	}
	s.embedInUse = use.ID
	if s.meaning.swap(use, s.onEmbedUsage) && s.onEmbedChange != nil {
		s.onEmbedChange()
	}
	return nil
}

// embedConfig is the embedding configuration of a stored model, its key
// opened.
func (s *Service) embedConfig(row store.AdminModel) (embed.Config, error) {
	cfg := embedConfigOf(inputOf(row))
	cfg.APIKey = ""
	if row.APIKeySealed != "" {
		if s.sealer == nil {
			return cfg, errors.New("its API key is sealed and no secrets_key is configured")
		}
		key, err := s.sealer.Open(row.APIKeySealed, row.ID)
		if err != nil {
			return cfg, fmt.Errorf("its API key: %w", err)
		}
		cfg.APIKey = key
	}
	return cfg, nil
}

func embedConfigOf(in Input) embed.Config {
	cfg := embed.Config{ID: in.ID, BaseURL: in.BaseURL, Model: in.Model, Dimensions: in.Dimensions, BatchSize: in.BatchSize, PriceInput: in.PriceInput}
	if in.APIKey != nil {
		cfg.APIKey = *in.APIKey
	}
	return cfg
}

// validateEmbedding checks an embedding model's form, naming the field.
func validateEmbedding(cfg embed.Config, in Input) error {
	if err := validateForm(in); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return apierr.BadRequest(apierr.CodeInvalidModelConfig, "%s", err.Error())
	}
	if in.PriceInput < 0 {
		return apierr.BadRequest(apierr.CodeInvalidModelConfig, "price_input: must not be negative")
	}
	return nil
}

// UseEmbedding puts an embedding model in use on every replica; the files
// are embedded again under it in the background.
func (s *Service) UseEmbedding(ctx context.Context, id string) error {
	if _, ok := s.embedFromFile(id); !ok {
		row, err := s.store.AdminModel(ctx, id)
		if errors.Is(err, store.ErrNotFound) || err == nil && row.Kind != KindEmbedding {
			return apierr.NotFound(apierr.CodeUnknownModel, "no embedding model with id %q", id)
		}
		if err != nil {
			return err
		}
		if row.Disabled {
			return apierr.Conflict(apierr.CodeInvalidModelConfig, "embedding model %q is disabled; enable it first", id)
		}
	}
	if err := s.store.SetEmbeddingInUse(ctx, id); err != nil {
		return err
	}
	return s.reloadAfterWrite(ctx)
}

// EmbeddingInUse is the id of the embedding model in use; "" when none is.
func (s *Service) EmbeddingInUse() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedInUse
}

// CheckResult is an embedding model check: how long the one request
// took, or why it failed, named as a model check names it (llm_auth,
// llm_connect_error, …) with the redacted message, free of key and address.
type CheckResult struct {
	OK      bool
	Latency time.Duration
	Code    string
	Message string
}

// CheckEmbedding embeds one short text with the form's model, saved or
// not; without a new key it uses the stored model's. An error is a form
// that cannot be checked.
func (s *Service) CheckEmbedding(ctx context.Context, in Input) (CheckResult, error) {
	cfg := embedConfigOf(in)
	if in.APIKey == nil && in.ID != "" {
		if row, err := s.store.AdminModel(ctx, in.ID); err == nil && row.Kind == KindEmbedding {
			stored, err := s.embedConfig(row)
			if err != nil {
				return CheckResult{}, apierr.Conflict(apierr.CodeNoSecretsKey, "the stored API key of %q cannot be opened with this server's secrets_key", in.ID)
			}
			cfg.APIKey = stored.APIKey
		}
	}
	if err := validateEmbedding(cfg, in); err != nil {
		return CheckResult{}, err
	}
	start := time.Now()
	_, err := embed.New(cfg, nil).Embed(ctx, []string{"check"})
	res := CheckResult{OK: err == nil, Latency: time.Since(start)}
	var ee *embed.Error
	switch {
	case err == nil:
	case errors.As(err, &ee):
		res.Code, res.Message = checkCode(ee.Status), ee.Error()
	case errors.Is(err, context.DeadlineExceeded):
		res.Code, res.Message = "llm_timeout", "the embedding model took too long to answer"
	default:
		res.Code, res.Message = "check_failed", "the embedding request failed"
	}
	return res, nil
}

// checkCode names an embedding request's failure by its HTTP status (0:
// none came) as a chat model's check would.
func checkCode(status int) string {
	switch {
	case status == 0:
		return "llm_connect_error"
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return "llm_auth"
	case status == http.StatusNotFound:
		return "llm_model_not_found"
	case status == http.StatusTooManyRequests:
		return "llm_rate_limited"
	case status >= 400 && status < 500:
		return "llm_bad_request"
	}
	return "check_failed"
}

// embeddingViews are the config file's embedding models as the admin
// screens list them: read-only.
func (s *Service) embeddingViews() []View {
	var out []View
	for _, c := range s.embedBase {
		out = append(out, View{ID: c.ID, Name: c.ID, Kind: KindEmbedding, Dimensions: c.Dimensions, BatchSize: c.BatchSize,
			Users: []int64{}, Groups: []int64{}, Source: "config", ReadOnly: true, InUse: c.ID == s.EmbeddingInUse()})
	}
	return out
}

// isEmbedding tells whether the form is an embedding model's.
func isEmbedding(in Input) bool { return strings.EqualFold(in.Kind, KindEmbedding) }
