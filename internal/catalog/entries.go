package catalog

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Limits on what an admin may enter.
const (
	maxNameLength   = 200
	maxAPIKeyLength = 4096
	maxAllowed      = 1000
	// shortKey is the length under which a key's last four characters
	// would give away too much of it: none are shown then.
	shortKey = 12
)

// Input is a model as the admin's form sends it. On an update, absent
// fields keep their values; APIKey nil keeps the stored key and "" removes
// it.
type Input struct {
	ID string `json:"id"`
	// Kind is chat (the default) or embedding; it cannot change.
	Kind          string  `json:"kind"`
	Name          string  `json:"name"`
	Profile       string  `json:"profile"`
	BaseURL       string  `json:"base_url"`
	Model         string  `json:"model"`
	ContextWindow int     `json:"context_window"`
	OutputReserve int     `json:"output_reserve"`
	MaxOutput     int     `json:"max_output"`
	NativeTools   bool    `json:"native_tools"`
	Reasoning     bool    `json:"reasoning"`
	PriceInput    float64 `json:"price_input"`
	PriceOutput   float64 `json:"price_output"`
	Disabled      bool    `json:"disabled"`
	APIKey        *string `json:"api_key"`
	Users         []int64 `json:"users"`
	Groups        []int64 `json:"groups"`
	// Dimensions and BatchSize are an embedding model's (0: defaults).
	Dimensions int `json:"dimensions"`
	BatchSize  int `json:"batch_size"`
}

// KeyView is all that is ever said of a stored key.
type KeyView struct {
	Set   bool   `json:"set"`
	Last4 string `json:"last4,omitempty"`
}

// View is a model as the admin screens list it. A model of the config file
// or the environment is read-only and shows only its safe metadata.
type View struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Kind          string  `json:"kind"`
	Profile       string  `json:"profile"`
	BaseURL       string  `json:"base_url,omitempty"`
	Model         string  `json:"model,omitempty"`
	ContextWindow int     `json:"context_window"`
	OutputReserve int     `json:"output_reserve"`
	MaxOutput     int     `json:"max_output"`
	NativeTools   bool    `json:"native_tools"`
	Reasoning     bool    `json:"reasoning"`
	PriceInput    float64 `json:"price_input"`
	PriceOutput   float64 `json:"price_output"`
	Disabled      bool    `json:"disabled"`
	APIKey        KeyView `json:"api_key"`
	Users         []int64 `json:"users"`
	Groups        []int64 `json:"groups"`
	Dimensions    int     `json:"dimensions"`
	BatchSize     int     `json:"batch_size"`
	// InUse marks the embedding model meaning search uses.
	InUse bool `json:"in_use"`
	// Source is "config" (the file or the environment) or "admin".
	Source   string `json:"source"`
	ReadOnly bool   `json:"read_only"`
	// Shadowed marks an admin's model the config file's model of the same
	// id wins: it is stored but not used.
	Shadowed  bool       `json:"shadowed"`
	UpdatedAt *time.Time `json:"updated_at,omitempty"`
}

// Listing is every model and whether keys can be stored.
type Listing struct {
	Models     []View `json:"models"`
	SecretsKey bool   `json:"secrets_key"`
}

// List is the config's models (read-only, first: they win) then the
// admin's.
func (s *Service) List(ctx context.Context) (Listing, error) {
	rows, err := s.store.AdminModels(ctx)
	if err != nil {
		return Listing{}, err
	}
	out := Listing{Models: []View{}, SecretsKey: s.CanStoreKeys()}
	for _, m := range s.base.Models() {
		meta := m.Meta()
		out.Models = append(out.Models, View{ID: meta.ID, Name: meta.Name, Kind: KindChat, Profile: meta.Profile,
			ContextWindow: meta.ContextWindow, OutputReserve: meta.OutputReserve, MaxOutput: meta.MaxOutput,
			NativeTools: meta.NativeTools, Reasoning: meta.Reasoning, Users: []int64{}, Groups: []int64{},
			Source: "config", ReadOnly: true})
	}
	out.Models = append(out.Models, s.embeddingViews()...)
	for _, row := range rows {
		out.Models = append(out.Models, s.view(row))
	}
	return out, nil
}

func (s *Service) view(row store.AdminModel) View {
	_, notInBase := s.base.Lookup(row.ID)
	shadowed := notInBase == nil
	if row.Kind == KindEmbedding {
		_, shadowed = s.embedFromFile(row.ID)
	}
	at := row.UpdatedAt
	return View{ID: row.ID, Name: row.Name, Kind: row.Kind, Profile: row.Profile, BaseURL: row.BaseURL, Model: row.Upstream,
		ContextWindow: row.ContextWindow, OutputReserve: row.OutputReserve, MaxOutput: row.MaxOutput,
		NativeTools: row.NativeTools, Reasoning: row.Reasoning, PriceInput: row.PriceInput, PriceOutput: row.PriceOutput,
		Disabled: row.Disabled, APIKey: KeyView{Set: row.APIKeySealed != "", Last4: row.APIKeyLast4},
		Users: nonNil(row.AllowedUsers), Groups: nonNil(row.AllowedGroups), Source: "admin", Shadowed: shadowed, UpdatedAt: &at,
		Dimensions: row.Dimensions, BatchSize: row.BatchSize, InUse: row.Kind == KindEmbedding && !shadowed && row.ID == s.EmbeddingInUse()}
}

// Create stores a new model and makes it live on this replica at once
// (the others within PollInterval).
func (s *Service) Create(ctx context.Context, in Input) (View, error) {
	_, fromFile := s.embedFromFile(in.ID)
	if _, err := s.base.Lookup(in.ID); err == nil || fromFile {
		return View{}, apierr.Conflict(apierr.CodeModelReadOnly, "model %q comes from the config file or the environment, which wins its id; choose another id", in.ID)
	}
	row := store.AdminModel{Kind: KindChat}
	if isEmbedding(in) {
		row.Kind = KindEmbedding
	} else if in.Kind != "" && in.Kind != KindChat {
		return View{}, apierr.BadRequest(apierr.CodeInvalidModelConfig, "kind: must be chat or embedding")
	}
	if err := s.apply(&row, in, true); err != nil {
		return View{}, err
	}
	if err := s.store.CreateAdminModel(ctx, &row); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return View{}, apierr.Conflict(apierr.CodeAlreadyExists, "a model with id %q exists", in.ID)
		}
		return View{}, err
	}
	return s.view(row), s.reloadAfterWrite(ctx)
}

// Update changes a stored model: edit fills in the admin's changes over
// its current fields (the id stays).
func (s *Service) Update(ctx context.Context, id string, edit func(*Input) error) (View, error) {
	row, err := s.store.AdminModel(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return View{}, s.notStored(id)
	}
	if err != nil {
		return View{}, err
	}
	in := inputOf(row)
	if err := edit(&in); err != nil {
		return View{}, err
	}
	in.ID, in.Kind = row.ID, row.Kind
	if err := s.apply(&row, in, false); err != nil {
		return View{}, err
	}
	if err := s.store.SaveAdminModel(ctx, &row); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return View{}, unknown(id)
		}
		return View{}, err
	}
	return s.view(row), s.reloadAfterWrite(ctx)
}

// Delete removes a stored model.
func (s *Service) Delete(ctx context.Context, id string) error {
	err := s.store.DeleteAdminModel(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return s.notStored(id)
	}
	if err != nil {
		return err
	}
	return s.reloadAfterWrite(ctx)
}

// Draft is a one-model registry built from the form, for the check before
// (or after) saving: without a new key it uses the stored model's key.
func (s *Service) Draft(ctx context.Context, in Input) (*llm.Registry, error) {
	mc := configOf(in)
	if in.APIKey == nil && in.ID != "" {
		row, err := s.store.AdminModel(ctx, in.ID)
		switch {
		case err == nil:
			stored, err := s.config(row)
			if err != nil {
				return nil, apierr.Conflict(apierr.CodeNoSecretsKey, "the stored API key of %q cannot be opened with this server's secrets_key", in.ID)
			}
			mc.APIKey = stored.APIKey
		case !errors.Is(err, store.ErrNotFound):
			return nil, err
		}
	}
	if err := validate(mc, in); err != nil {
		return nil, err
	}
	reg, err := llm.NewRegistry([]llm.ModelConfig{mc}, s.opts)
	if err != nil {
		return nil, invalid(err)
	}
	return reg, nil
}

// apply validates in and writes it over row, sealing a new key.
func (s *Service) apply(row *store.AdminModel, in Input, creating bool) error {
	mc, ec := configOf(in), embedConfigOf(in)
	if in.APIKey == nil && row.APIKeySealed != "" {
		// The stored key stands in for validation (a profile may need one).
		mc.APIKey, ec.APIKey = "stored", "stored"
	}
	if row.Kind == KindEmbedding {
		if err := validateEmbedding(ec, in); err != nil {
			return err
		}
	} else if err := validate(mc, in); err != nil {
		return err
	}
	if creating {
		row.ID = in.ID
	}
	row.Name, row.Profile, row.BaseURL, row.Upstream = strings.TrimSpace(in.Name), in.Profile, in.BaseURL, in.Model
	row.ContextWindow, row.OutputReserve, row.MaxOutput = in.ContextWindow, in.OutputReserve, in.MaxOutput
	row.NativeTools, row.Reasoning, row.Disabled = in.NativeTools, in.Reasoning, in.Disabled
	row.PriceInput, row.PriceOutput = in.PriceInput, in.PriceOutput
	row.AllowedUsers, row.AllowedGroups = nonNil(in.Users), nonNil(in.Groups)
	row.Dimensions, row.BatchSize = in.Dimensions, in.BatchSize
	if in.APIKey != nil {
		row.APIKeySealed, row.APIKeyLast4 = "", ""
		if *in.APIKey != "" {
			if s.sealer == nil {
				return apierr.Conflict(apierr.CodeNoSecretsKey, "an API key cannot be stored: set secrets_key in the config file or KB_SECRETS_KEY (at least 32 characters, not the JWT secret) and restart")
			}
			sealed, err := s.sealer.Seal(*in.APIKey, row.ID)
			if err != nil {
				return apierr.Internal("seal api key", err)
			}
			row.APIKeySealed, row.APIKeyLast4 = sealed, last4(*in.APIKey)
		}
	}
	return nil
}

func validate(mc llm.ModelConfig, in Input) error {
	if err := validateForm(in); err != nil {
		return err
	}
	if err := mc.Validate(); err != nil {
		return invalid(err)
	}
	return nil
}

// validateForm checks what every kind of model's form shares.
func validateForm(in Input) error {
	if utf8.RuneCountInString(in.Name) > maxNameLength {
		return apierr.BadRequest(apierr.CodeInvalidModelConfig, "name: is longer than %d characters", maxNameLength)
	}
	if in.APIKey != nil && (len(*in.APIKey) > maxAPIKeyLength || strings.ContainsAny(*in.APIKey, "\r\n")) {
		return apierr.BadRequest(apierr.CodeInvalidModelConfig, "api_key: must be one line of at most %d bytes", maxAPIKeyLength)
	}
	if len(in.Users) > maxAllowed || len(in.Groups) > maxAllowed {
		return apierr.BadRequest(apierr.CodeInvalidModelConfig, "users, groups: at most %d each", maxAllowed)
	}
	return nil
}

// invalid turns the config's field errors into one answer naming the
// first field as the form knows it.
func invalid(err error) error {
	var fe *llm.FieldError
	if errors.As(err, &fe) {
		field := fe.Field
		if field == "api_key_env" {
			field = "api_key"
		}
		msg := strings.Replace(fe.Message, "api_key_env is required", "api_key is required", 1)
		msg = strings.Replace(msg, " (or api_key)", "", 1)
		return apierr.BadRequest(apierr.CodeInvalidModelConfig, "%s: %s", field, msg)
	}
	return apierr.BadRequest(apierr.CodeInvalidModelConfig, "%s", err.Error())
}

func configOf(in Input) llm.ModelConfig {
	mc := llm.ModelConfig{ID: in.ID, Name: strings.TrimSpace(in.Name), Profile: in.Profile, BaseURL: in.BaseURL, Model: in.Model,
		ContextWindow: in.ContextWindow, OutputReserve: in.OutputReserve, MaxOutput: in.MaxOutput,
		NativeTools: in.NativeTools, Reasoning: in.Reasoning, PriceInput: in.PriceInput, PriceOutput: in.PriceOutput}
	if in.APIKey != nil {
		mc.APIKey = *in.APIKey
	}
	return mc
}

func inputOf(row store.AdminModel) Input {
	return Input{ID: row.ID, Kind: row.Kind, Dimensions: row.Dimensions, BatchSize: row.BatchSize, Name: row.Name, Profile: row.Profile, BaseURL: row.BaseURL, Model: row.Upstream,
		ContextWindow: row.ContextWindow, OutputReserve: row.OutputReserve, MaxOutput: row.MaxOutput,
		NativeTools: row.NativeTools, Reasoning: row.Reasoning, PriceInput: row.PriceInput, PriceOutput: row.PriceOutput,
		Disabled: row.Disabled, Users: row.AllowedUsers, Groups: row.AllowedGroups}
}

// notStored answers a change to an id the admin's models lack: read-only
// when the config has it, unknown otherwise.
func (s *Service) notStored(id string) error {
	if _, err := s.base.Lookup(id); err == nil {
		return readOnly(id)
	}
	if _, ok := s.embedFromFile(id); ok {
		return readOnly(id)
	}
	return unknown(id)
}

func last4(key string) string {
	r := []rune(key)
	if len(r) < shortKey {
		return ""
	}
	return string(r[len(r)-4:])
}

func nonNil(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

func unknown(id string) error {
	return apierr.NotFound(apierr.CodeUnknownModel, "no model with id %q among the admin's models", id)
}

func readOnly(id string) error {
	return apierr.Conflict(apierr.CodeModelReadOnly, "model %q comes from the config file or the environment; change it there", id)
}

// reloadAfterWrite makes a stored change live here at once; a client gone
// meanwhile does not stop it (the write is in, and the poll would take it
// up only later).
func (s *Service) reloadAfterWrite(ctx context.Context) error {
	return s.Reload(context.WithoutCancel(ctx))
}
