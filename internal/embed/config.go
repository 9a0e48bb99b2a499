// Package embed is meaning search's model side: the configuration of an
// OpenAI-compatible embedding model, the client that turns texts into
// vectors, how a text body is cut into the chunks that are embedded, and
// the vectors' encoding. The store keeps the vectors; the content index
// writes them; the tools score with them. It imports nothing of the
// project.
package embed

import (
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
)

// Config is one entry of embedding_models in the configuration file.
// APIKey and BaseURL are secrets: they are never logged or served.
type Config struct {
	ID      string `yaml:"id"`
	BaseURL string `yaml:"base_url"`
	// APIKey is discouraged; prefer APIKeyEnv.
	APIKey    string `yaml:"api_key"`
	APIKeyEnv string `yaml:"api_key_env"`
	// Model is the upstream model name; defaults to ID.
	Model string `yaml:"model"`
	// Dimensions, when set, is sent to the server (OpenAI's text-embedding-3
	// models shorten their vectors to it) and checked against every answer;
	// unset, the first answer's length is taken.
	Dimensions int `yaml:"dimensions"`
	// BatchSize is how many chunks one request carries (default 32).
	BatchSize int `yaml:"batch_size"`
	// PriceInput is the provider's price per million input tokens (0: not
	// costed).
	PriceInput float64 `yaml:"price_input"`
}

const (
	defaultBatch  = 32
	maxBatch      = 2048
	maxDimensions = 16000
)

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$`)
var envPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Validate checks c and reports its first fault, naming the field (the
// caller prefixes the entry).
func (c Config) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...)))
	}
	if !idPattern.MatchString(c.ID) {
		bad("id", "is required: up to 128 letters, digits and . _ : / @ + -")
	}
	if u, err := url.Parse(c.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("base_url", "must be an http or https URL of an OpenAI-compatible API (…/v1)")
	}
	if c.APIKey != "" && c.APIKeyEnv != "" {
		bad("api_key", "set either api_key or api_key_env, not both")
	}
	if c.APIKeyEnv != "" && !envPattern.MatchString(c.APIKeyEnv) {
		bad("api_key_env", "is not a valid environment variable name")
	}
	if c.Dimensions < 0 || c.Dimensions > maxDimensions {
		bad("dimensions", "must be between 1 and %d (or unset: taken from the first answer)", maxDimensions)
	}
	if c.BatchSize < 0 || c.BatchSize > maxBatch {
		bad("batch_size", "must be between 1 and %d (or unset: %d)", maxBatch, defaultBatch)
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

func (c Config) model() string {
	if c.Model != "" {
		return c.Model
	}
	return c.ID
}

func (c Config) batch() int {
	if c.BatchSize > 0 {
		return c.BatchSize
	}
	return defaultBatch
}

func (c Config) apiKey() string {
	if c.APIKeyEnv != "" {
		return os.Getenv(c.APIKeyEnv)
	}
	return c.APIKey
}

// Key names the vector space of c: vectors under one key are comparable,
// and an answer never mixes two keys. Changing the upstream model or its
// dimensions changes the key, and with it every file is embedded again.
func (c Config) Key(dims int) string {
	return c.ID + "|" + c.model() + "|" + strconv.Itoa(dims)
}
