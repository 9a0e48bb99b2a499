package llm

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// Limits checked by Validate.
const (
	// ProtocolReserve is subtracted from the window with the output reserve
	// to get the input limit (SPEC §6).
	ProtocolReserve  = 1024
	maxContextWindow = 10_000_000
	maxIDLength      = 128
)

// ModelConfig is one entry of the models list of the configuration file
// (SPEC §9). APIKey, BaseURL and Headers are secrets: they never leave the
// server, and String/LogValue leave them out.
type ModelConfig struct {
	ID      string `yaml:"id" json:"id"`
	Name    string `yaml:"name" json:"name"`
	Profile string `yaml:"profile" json:"profile"`
	BaseURL string `yaml:"base_url" json:"-"`
	// APIKey is discouraged; prefer APIKeyEnv.
	APIKey    string `yaml:"api_key" json:"-"`
	APIKeyEnv string `yaml:"api_key_env" json:"-"`
	// Model is the upstream model name; defaults to ID.
	Model         string `yaml:"model" json:"-"`
	ContextWindow int    `yaml:"context_window" json:"context_window"`
	OutputReserve int    `yaml:"output_reserve" json:"output_reserve"`
	// MaxOutput caps generated tokens; defaults to OutputReserve.
	MaxOutput   int  `yaml:"max_output" json:"max_output"`
	NativeTools bool `yaml:"native_tools" json:"native_tools"`
	Reasoning   bool `yaml:"reasoning" json:"reasoning"`
	// StreamUsage overrides the profile's choice to send
	// stream_options.include_usage.
	StreamUsage *bool `yaml:"stream_usage" json:"-"`
	// ExtraBody adds top-level request fields, e.g. enable_thinking for Qwen.
	ExtraBody map[string]any `yaml:"extra_body" json:"-"`
	// Headers adds request headers, e.g. a relay's routing header.
	Headers map[string]string `yaml:"headers" json:"-"`
	// PriceInput and PriceOutput are the provider's price per million
	// input and output tokens, in the operator's currency; usage is costed
	// with them (0: not costed).
	PriceInput  float64 `yaml:"price_input" json:"price_input"`
	PriceOutput float64 `yaml:"price_output" json:"price_output"`
}

// FieldError is a configuration error naming the offending field, e.g.
// "models[2].base_url: scheme must be http or https". It never quotes a
// secret value.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

var (
	idPattern     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$`)
	envVarPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// reservedBodyKeys are request fields the client owns; extra_body may not
// replace them.
var reservedBodyKeys = map[string]bool{"model": true, "messages": true, "stream": true,
	"stream_options": true, "tools": true}

// Validate checks one model; field names in errors have no list prefix.
func (c *ModelConfig) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, &FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	switch {
	case c.ID == "":
		bad("id", "is required")
	case len(c.ID) > maxIDLength:
		bad("id", "is longer than %d characters", maxIDLength)
	case !idPattern.MatchString(c.ID):
		bad("id", "may hold only letters, digits and . _ : / @ + -")
	}
	p, ok := profiles[c.Profile]
	switch {
	case c.Profile == "":
		bad("profile", "is required (one of %s)", strings.Join(ProfileNames(), ", "))
	case !ok:
		bad("profile", "unknown profile %q (one of %s)", c.Profile, strings.Join(ProfileNames(), ", "))
	}
	if c.BaseURL == "" {
		if ok && p.DefaultBaseURL == "" {
			bad("base_url", "is required for profile %s", c.Profile)
		}
	} else if msg := checkBaseURL(c.BaseURL); msg != "" {
		bad("base_url", "%s", msg)
	}
	if c.APIKey != "" && c.APIKeyEnv != "" {
		bad("api_key", "set either api_key or api_key_env, not both")
	}
	if c.APIKeyEnv != "" && !envVarPattern.MatchString(c.APIKeyEnv) {
		bad("api_key_env", "is not a valid environment variable name")
	}
	if ok && p.KeyRequired && c.APIKey == "" && c.APIKeyEnv == "" {
		bad("api_key_env", "is required for profile %s (or api_key)", c.Profile)
	}
	switch {
	case c.ContextWindow <= 0:
		bad("context_window", "must be a positive number of tokens")
	case c.ContextWindow > maxContextWindow:
		bad("context_window", "must be at most %d", maxContextWindow)
	}
	switch {
	case c.OutputReserve <= 0:
		bad("output_reserve", "must be a positive number of tokens")
	case c.ContextWindow > 0 && c.OutputReserve+ProtocolReserve >= c.ContextWindow:
		bad("output_reserve", "leaves no input room: output_reserve + %d must be below context_window",
			ProtocolReserve)
	}
	if c.MaxOutput < 0 || (c.OutputReserve > 0 && c.MaxOutput > c.OutputReserve) {
		bad("max_output", "must be between 0 and output_reserve")
	}
	if c.PriceInput < 0 || c.PriceOutput < 0 {
		bad("price_input", "prices per million tokens cannot be negative")
	}
	for k := range c.ExtraBody {
		if k == "" || reservedBodyKeys[k] {
			bad("extra_body", "may not set %q", k)
		}
	}
	for k := range c.Headers {
		if !httpguts.ValidHeaderFieldName(k) {
			bad("headers", "invalid header name %q", k)
		} else if strings.EqualFold(k, "Content-Type") || strings.EqualFold(k, "Accept") {
			bad("headers", "may not set %s", http.CanonicalHeaderKey(k))
		}
	}
	for k, v := range c.Headers {
		if !httpguts.ValidHeaderFieldValue(v) {
			bad("headers", "value of %s is not a valid header value", k)
		}
	}
	return errors.Join(errs...)
}

func checkBaseURL(raw string) string {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "is not a valid URL"
	case u.Scheme != "http" && u.Scheme != "https":
		return "scheme must be http or https"
	case u.Host == "":
		return "has no host"
	case u.RawQuery != "" || u.Fragment != "":
		return "may not have a query or fragment"
	}
	return ""
}

// ValidateModels validates every model and the uniqueness of ids; errors
// name the field as models[i].field.
func ValidateModels(models []ModelConfig) error {
	var errs []error
	seen := map[string]int{}
	for i := range models {
		if err := models[i].Validate(); err != nil {
			errs = append(errs, prefixFields(fmt.Sprintf("models[%d].", i), err))
		}
		if id := models[i].ID; id != "" {
			if j, dup := seen[id]; dup {
				errs = append(errs, &FieldError{Field: fmt.Sprintf("models[%d].id", i),
					Message: fmt.Sprintf("duplicates models[%d].id %q", j, id)})
			} else {
				seen[id] = i
			}
		}
	}
	return errors.Join(errs...)
}

func prefixFields(prefix string, err error) error {
	var out []error
	var walk func(error)
	walk = func(e error) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range j.Unwrap() {
				walk(x)
			}
			return
		}
		var fe *FieldError
		if errors.As(e, &fe) {
			out = append(out, &FieldError{Field: prefix + fe.Field, Message: fe.Message})
			return
		}
		out = append(out, fmt.Errorf("%s%w", prefix, e))
	}
	walk(err)
	return errors.Join(out...)
}

// withDefaults fills Name, Model, MaxOutput and BaseURL from the profile.
func (c ModelConfig) withDefaults() ModelConfig {
	if c.Name == "" {
		c.Name = c.ID
	}
	if c.Model == "" {
		c.Model = c.ID
	}
	if c.MaxOutput == 0 {
		c.MaxOutput = c.OutputReserve
	}
	if c.BaseURL == "" {
		c.BaseURL = profiles[c.Profile].DefaultBaseURL
	}
	return c
}

// String leaves out every secret so a config can be printed.
func (c ModelConfig) String() string {
	return fmt.Sprintf("model{id=%s profile=%s window=%d reserve=%d tools=%t reasoning=%t}",
		c.ID, c.Profile, c.ContextWindow, c.OutputReserve, c.NativeTools, c.Reasoning)
}

// GoString is String, so %#v does not dump the key either.
func (c ModelConfig) GoString() string { return c.String() }

// LogValue lets slog print a config without its secrets.
func (c ModelConfig) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", c.ID), slog.String("profile", c.Profile),
		slog.Int("context_window", c.ContextWindow), slog.Bool("native_tools", c.NativeTools))
}
