// Package config loads the server configuration: a YAML file named by
// --config or KB_CONFIG, then environment variables on top (SPEC §9).
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/observe"
)

// Config is everything the server needs at start.
type Config struct {
	Listen         string        `yaml:"listen"`
	DataDir        string        `yaml:"data_dir"`
	DatabaseDSN    string        `yaml:"database_dsn"`
	AdminPassword  string        `yaml:"admin_password"`
	JWTSecret      string        `yaml:"jwt_secret"`
	SessionTTL     time.Duration `yaml:"session_ttl"`     // idle: each use extends a session this far
	SessionMaxTTL  time.Duration `yaml:"session_max_ttl"` // but never past this long after login
	Workers        int           `yaml:"workers"`
	MaxUploadBytes int64         `yaml:"max_upload_bytes"`
	// MaxUploadRequestBytes caps one upload request, all files together
	// (default: 1 GiB, or max_upload_bytes if that is larger).
	MaxUploadRequestBytes int64 `yaml:"max_upload_request_bytes"`
	// ParseTimeout and ParseMemoryMB bound one document extraction, which
	// runs in a child process killed when it passes either.
	ParseTimeout  time.Duration `yaml:"parse_timeout"`
	ParseMemoryMB int64         `yaml:"parse_memory_mb"`
	// OCR reads scanned pages and images.
	OCR OCR `yaml:"ocr"`
	// Extract runs automatic extraction of uploaded documents.
	Extract Extract `yaml:"extract"`
	// BlobStore is where file bytes live: "disk" (default, under data_dir)
	// or "s3" (an S3-compatible object store; credentials from the AWS
	// environment variables).
	BlobStore string  `yaml:"blob_store"`
	S3        S3Store `yaml:"s3"`
	// BlobSweepInterval spaces the collections of orphaned blobs.
	BlobSweepInterval time.Duration `yaml:"blob_sweep_interval"`
	// TrashDays is how long deleted files stay restorable.
	TrashDays int `yaml:"trash_days"`
	// MinFreeBytes is the free space under which the data or the temp
	// directory makes /readyz answer not ready.
	MinFreeBytes int64 `yaml:"min_free_bytes"`
	// Models are the configured LLMs (SPEC §9); well-known keys in the
	// environment and a local Ollama add more at start.
	Models []llm.ModelConfig `yaml:"models"`
	// EmbeddingModels are OpenAI-compatible embedding models for meaning
	// search; the first is the one in use until an admin puts another in
	// use in the admin screens (where these are listed read-only and win
	// an id). Changing the one in use embeds every file again in the
	// background.
	EmbeddingModels []embed.Config `yaml:"embedding_models"`
	// CLIProfiles are the command-line compile executors (SPEC §9).
	CLIProfiles []CLIProfile `yaml:"cli_profiles"`
	// CLIUser is the account CLI profiles run as; empty is the server's
	// own, or "nobody" when the server runs as root.
	CLIUser string `yaml:"cli_user"`
	Limits  Limits `yaml:"limits"`
	// Import bounds a folder import from an archive.
	Import Import `yaml:"import"`
	// Conversations says whether chat history is kept on the server.
	Conversations Conversations `yaml:"conversations"`
	// LogFormat is text (key=value lines) or json (one object a line);
	// LogLevel is debug, info, warn or error.
	LogFormat string `yaml:"log_format"`
	LogLevel  string `yaml:"log_level"`
	// MetricsListen is the host:port of GET /metrics; empty serves none.
	// It is its own listener so metrics are never public by accident.
	MetricsListen string `yaml:"metrics_listen"`
	// TrustedProxies are the reverse proxies (CIDR ranges or addresses)
	// whose X-Forwarded-For names the client; empty trusts no one.
	TrustedProxies []string `yaml:"trusted_proxies"`
	// PublicURL is the address users reach the server at, for addresses
	// the server hands out (the single sign-on redirect).
	PublicURL string `yaml:"public_url"`
	// Auth is how people sign in: passwords, identity providers.
	Auth Auth `yaml:"auth"`
	// Turns bounds answers that outlive their connection.
	Turns Turns `yaml:"turns"`
	// Audit configures the audit log.
	Audit Audit `yaml:"audit"`
	// SecretsKey seals the API keys of the models added in the admin
	// screens (AES-GCM); never the JWT secret. Without it the admin
	// screens refuse to store a key. `knowspace secrets rotate` changes it.
	SecretsKey string `yaml:"secrets_key"`
}

// MinSecretsKey is the shortest secrets_key accepted.
const MinSecretsKey = 32

// Conversations configures stored chat history. Store false keeps nothing:
// history lives in the page only, as a temporary chat does.
type Conversations struct {
	Store bool `yaml:"store"`
}

// Import bounds what one archive import may unpack.
type Import struct {
	MaxEntries int   `yaml:"max_entries"` // entries of one archive, folders included
	MaxBytes   int64 `yaml:"max_bytes"`   // uncompressed bytes of one archive
}

// Limits share the server fairly between users.
type Limits struct {
	StreamsPerUser    int `yaml:"streams_per_user"`     // open chat streams
	QueuedJobsPerUser int `yaml:"queued_jobs_per_user"` // compile jobs waiting
	// LoginsPerSecond is the login budget: password checks a second across
	// every account, past which logins wait (429 too_many_logins); 0 is
	// the auth service's default (auth.DefaultLoginsPerSecond).
	LoginsPerSecond int `yaml:"logins_per_second"`
	// Slow clients: headers must arrive within ReadHeaderTimeout; each read
	// of a body may wait BodyIdleTimeout for bytes (so a slow but moving
	// upload goes on); a non-upload body must be read within BodyTimeout.
	ReadHeaderTimeout time.Duration `yaml:"read_header_timeout"`
	IdleTimeout       time.Duration `yaml:"idle_timeout"` // keep-alive between requests
	BodyIdleTimeout   time.Duration `yaml:"body_idle_timeout"`
	BodyTimeout       time.Duration `yaml:"body_timeout"`
	// WriteTimeout bounds one write of a response body: a client that
	// stopped reading a download loses its connection.
	WriteTimeout time.Duration `yaml:"write_timeout"`
}

// CLIProfile is a compile executor run as a program: Argv is the command
// and its arguments, where "{model}" and "{effort}" are replaced by one of
// the allowed Models and Efforts the request picked. There is no shell.
// Env names the server's environment variables the program may see; it
// sees no others, so the server's secrets stay in unless listed here.
type CLIProfile struct {
	Name    string   `yaml:"name"`
	Argv    []string `yaml:"argv"`
	Models  []string `yaml:"models"`
	Efforts []string `yaml:"efforts"`
	Env     []string `yaml:"env"`
}

// serverSecrets may never be handed to a CLI, whatever a profile lists:
// with them a program could sign sessions or read every user's data.
var serverSecrets = map[string]bool{"KB_JWT_SECRET": true, "KB_SECRETS_KEY": true, "KB_ADMIN_PASSWORD": true, "KB_DATABASE_DSN": true}

func validEnvName(n string) bool {
	for i, r := range n {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return n != ""
}

// validate names the first wrong field of profile i.
func (p CLIProfile) validate(i int, seen map[string]bool) error {
	field := fmt.Sprintf("cli_profiles[%d]", i)
	switch {
	case p.Name == "" || strings.ContainsAny(p.Name, " /\\{}"):
		return fmt.Errorf("%s.name: must be a non-empty word", field)
	case seen[p.Name]:
		return fmt.Errorf("%s.name: %q is declared twice", field, p.Name)
	case len(p.Argv) == 0 || p.Argv[0] == "":
		return fmt.Errorf("%s.argv: must name a program", field)
	}
	seen[p.Name] = true
	for _, a := range p.Argv {
		rest := strings.NewReplacer("{model}", "", "{effort}", "").Replace(a)
		if strings.ContainsAny(rest, "{}") {
			return fmt.Errorf("%s.argv: %q has a placeholder other than {model} or {effort}", field, a)
		}
	}
	for _, n := range p.Env {
		switch {
		case !validEnvName(n):
			return fmt.Errorf("%s.env: %q is not a variable name (letters, digits and _)", field, n)
		case serverSecrets[n]:
			return fmt.Errorf("%s.env: %s is the server's own secret and is never passed to a program", field, n)
		}
	}
	for _, v := range append(append([]string(nil), p.Models...), p.Efforts...) {
		if v == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, " \t\n{}") {
			return fmt.Errorf("%s: model and effort values must be plain words, not %q", field, v)
		}
	}
	return nil
}

// Defaults.
const (
	DefaultListen         = ":8080"
	DefaultDataDir        = "./data"
	DefaultMaxUploadBytes = 100 << 20
	// DefaultMaxUploadRequest is 1 GiB: ten files at the default per-file limit.
	DefaultMaxUploadRequest = 1 << 30
	DefaultWorkers          = 2
	DefaultParseTimeout     = 120 * time.Second
	DefaultParseMemoryMB    = 1024
	DefaultBlobSweep        = 6 * time.Hour
	DefaultTrashDays        = 30
	DefaultMinFreeBytes     = 256 << 20
	DefaultImportMaxEntries = 20000
	DefaultImportMaxBytes   = 2 << 30
)

// S3Store names the bucket of blob_store: s3.
type S3Store struct {
	Endpoint string `yaml:"endpoint"` // http(s)://host:port
	Bucket   string `yaml:"bucket"`
	Prefix   string `yaml:"prefix"`
	Region   string `yaml:"region"`
}

// Load reads path (may be empty) and applies the environment from getenv.
func Load(path string, getenv func(string) string) (Config, error) {
	c := Config{
		Listen: DefaultListen, DataDir: DefaultDataDir, SessionTTL: 8 * time.Hour, SessionMaxTTL: 7 * 24 * time.Hour,
		Limits: Limits{StreamsPerUser: 4, QueuedJobsPerUser: 200,
			ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
			BodyIdleTimeout: 30 * time.Second, BodyTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second},
		Workers: DefaultWorkers, MaxUploadBytes: DefaultMaxUploadBytes,
		ParseTimeout: DefaultParseTimeout, ParseMemoryMB: DefaultParseMemoryMB, OCR: defaultOCR(),
		BlobSweepInterval: DefaultBlobSweep, TrashDays: DefaultTrashDays, MinFreeBytes: DefaultMinFreeBytes,
		Conversations: Conversations{Store: true}, BlobStore: "disk",
		Import:    Import{MaxEntries: DefaultImportMaxEntries, MaxBytes: DefaultImportMaxBytes},
		LogFormat: observe.LogText, LogLevel: "info",
		Audit: Audit{RetentionDays: DefaultAuditRetentionDays},
	}
	if path == "" {
		path = getenv("KB_CONFIG")
	}
	if path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return Config{}, fmt.Errorf("config file: %w", err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return Config{}, fmt.Errorf("config file %s: %w", path, err)
		}
	}
	for name, dst := range map[string]*string{
		"KB_LISTEN": &c.Listen, "KB_DATA_DIR": &c.DataDir, "KB_DATABASE_DSN": &c.DatabaseDSN,
		"KB_ADMIN_PASSWORD": &c.AdminPassword, "KB_JWT_SECRET": &c.JWTSecret,
		"KB_BLOB_STORE": &c.BlobStore, "KB_S3_ENDPOINT": &c.S3.Endpoint, "KB_S3_BUCKET": &c.S3.Bucket,
		"KB_S3_PREFIX": &c.S3.Prefix, "KB_S3_REGION": &c.S3.Region,
		"KB_LOG_FORMAT": &c.LogFormat, "KB_LOG_LEVEL": &c.LogLevel, "KB_METRICS_LISTEN": &c.MetricsListen,
		"KB_CLI_USER": &c.CLIUser, "KB_PUBLIC_URL": &c.PublicURL, "KB_SECRETS_KEY": &c.SecretsKey,
	} {
		if v := getenv(name); v != "" {
			*dst = v
		}
	}
	c.Auth.readSecrets(getenv)
	if err := c.Audit.fromEnv(getenv); err != nil {
		return Config{}, err
	}
	if v := getenv("KB_TRUSTED_PROXIES"); v != "" {
		c.TrustedProxies = splitList(v)
	}
	if v := getenv("KB_EXTRACT_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return Config{}, fmt.Errorf("KB_EXTRACT_WORKERS: %q is not an integer", v)
		}
		c.Extract.Workers = &n
	}
	if v := getenv("KB_WORKERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return Config{}, fmt.Errorf("KB_WORKERS: %q is not an integer", v)
		}
		c.Workers = n
	}
	if v := getenv("KB_MAX_UPLOAD_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Config{}, fmt.Errorf("KB_MAX_UPLOAD_BYTES: %q is not an integer", v)
		}
		c.MaxUploadBytes = n
	}
	if v := getenv("KB_MIN_FREE_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return Config{}, fmt.Errorf("KB_MIN_FREE_BYTES: %q is not an integer", v)
		}
		c.MinFreeBytes = n
	}
	if c.MaxUploadRequestBytes == 0 {
		c.MaxUploadRequestBytes = max(DefaultMaxUploadRequest, c.MaxUploadBytes)
	}
	return c, c.Validate()
}

// Validate names the first field that is wrong.
func (c Config) Validate() error {
	if _, _, err := net.SplitHostPort(c.Listen); err != nil {
		return fmt.Errorf("listen: %q is not host:port (%v)", c.Listen, err)
	}
	if c.DataDir == "" {
		return errors.New("data_dir: must not be empty")
	}
	if err := c.validateObservability(); err != nil {
		return err
	}
	if err := c.validateTrustedProxies(); err != nil {
		return err
	}
	if err := c.validateAuth(); err != nil {
		return err
	}
	if c.DatabaseDSN != "" && !strings.HasPrefix(c.DatabaseDSN, "postgres://") && !strings.HasPrefix(c.DatabaseDSN, "postgresql://") {
		return errors.New("database_dsn: must be a postgres:// URL, or empty for SQLite in the data dir")
	}
	if c.JWTSecret != "" && len(c.JWTSecret) < 32 {
		return errors.New("jwt_secret: must be at least 32 characters")
	}
	if c.SecretsKey != "" && len(c.SecretsKey) < MinSecretsKey {
		return fmt.Errorf("secrets_key: must be at least %d characters", MinSecretsKey)
	}
	if c.SecretsKey != "" && c.SecretsKey == c.JWTSecret {
		return errors.New("secrets_key: must differ from jwt_secret")
	}
	if c.SessionTTL < time.Minute || c.SessionTTL > 30*24*time.Hour {
		return errors.New("session_ttl: must be between 1m and 720h")
	}
	if c.SessionMaxTTL < c.SessionTTL || c.SessionMaxTTL > 90*24*time.Hour {
		return errors.New("session_max_ttl: must be at least session_ttl and at most 2160h")
	}
	if c.Workers < 0 || c.Workers > 64 {
		return errors.New("workers: must be between 0 and 64")
	}
	if err := c.Extract.validate(); err != nil {
		return err
	}
	if c.Limits.StreamsPerUser < 1 || c.Limits.StreamsPerUser > 1000 {
		return errors.New("limits.streams_per_user: must be between 1 and 1000")
	}
	if c.Limits.QueuedJobsPerUser < 1 || c.Limits.QueuedJobsPerUser > 1_000_000 {
		return errors.New("limits.queued_jobs_per_user: must be between 1 and 1000000")
	}
	if c.Limits.LoginsPerSecond < 0 || c.Limits.LoginsPerSecond > 10_000 {
		return errors.New("limits.logins_per_second: must be between 1 and 10000 (0: the default, 10)")
	}
	if c.MaxUploadBytes < 1 {
		return errors.New("max_upload_bytes: must be positive")
	}
	if c.Import.MaxEntries < 1 || c.Import.MaxEntries > 1_000_000 {
		return errors.New("import.max_entries: must be between 1 and 1000000")
	}
	if c.Import.MaxBytes < 1 {
		return errors.New("import.max_bytes: must be positive")
	}
	if c.MaxUploadRequestBytes < c.MaxUploadBytes {
		return errors.New("max_upload_request_bytes: must be at least max_upload_bytes")
	}
	for _, d := range []struct {
		name     string
		v        time.Duration
		min, max time.Duration
	}{
		{"limits.read_header_timeout", c.Limits.ReadHeaderTimeout, time.Second, 10 * time.Minute},
		{"limits.idle_timeout", c.Limits.IdleTimeout, time.Second, time.Hour},
		{"limits.body_idle_timeout", c.Limits.BodyIdleTimeout, time.Second, 10 * time.Minute},
		{"limits.body_timeout", c.Limits.BodyTimeout, time.Second, time.Hour},
		{"limits.write_timeout", c.Limits.WriteTimeout, time.Second, time.Hour},
	} {
		if d.v < d.min || d.v > d.max {
			return fmt.Errorf("%s: must be between %s and %s", d.name, d.min, d.max)
		}
	}
	if c.ParseTimeout < time.Second || c.ParseTimeout > time.Hour {
		return errors.New("parse_timeout: must be between 1s and 1h")
	}
	if c.ParseMemoryMB < 64 || c.ParseMemoryMB > 64<<10 {
		return errors.New("parse_memory_mb: must be between 64 and 65536")
	}
	if err := c.OCR.validate(); err != nil {
		return err
	}
	if err := c.validateBlobStore(); err != nil {
		return err
	}
	if c.BlobSweepInterval < time.Minute {
		return errors.New("blob_sweep_interval: must be at least 1m")
	}
	if c.TrashDays < 1 || c.TrashDays > 3650 {
		return errors.New("trash_days: must be between 1 and 3650")
	}
	if err := c.Audit.validate(); err != nil {
		return err
	}
	if c.MinFreeBytes < 0 {
		return errors.New("min_free_bytes: must not be negative (0 turns the check off)")
	}
	seen := map[string]bool{}
	for i, p := range c.CLIProfiles {
		if err := p.validate(i, seen); err != nil {
			return err
		}
	}
	ids := map[string]bool{}
	for i, m := range c.EmbeddingModels {
		if err := m.Validate(); err != nil {
			return fmt.Errorf("embedding_models[%d].%w", i, err)
		}
		if ids[m.ID] {
			return fmt.Errorf("embedding_models[%d].id: %q is used twice", i, m.ID)
		}
		ids[m.ID] = true
	}
	return llm.ValidateModels(c.Models)
}

// EmbeddingModel is the embedding model in use, if any.
func (c Config) EmbeddingModel() (embed.Config, bool) {
	if len(c.EmbeddingModels) == 0 {
		return embed.Config{}, false
	}
	return c.EmbeddingModels[0], true
}

// validateObservability checks the log and metrics settings.
func (c Config) validateObservability() error {
	if c.LogFormat != observe.LogText && c.LogFormat != observe.LogJSON {
		return fmt.Errorf("log_format: %q is not text or json", c.LogFormat)
	}
	if _, err := observe.ParseLevel(c.LogLevel); err != nil {
		return fmt.Errorf("log_level: %v", err)
	}
	if c.MetricsListen == "" {
		return nil
	}
	_, port, err := net.SplitHostPort(c.MetricsListen)
	if err != nil {
		return fmt.Errorf("metrics_listen: %q is not host:port (%v)", c.MetricsListen, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("metrics_listen: %q has no valid port number", c.MetricsListen)
	}
	if c.MetricsListen == c.Listen {
		return fmt.Errorf("metrics_listen: %q is the API's own listen address; metrics need a separate one (e.g. 127.0.0.1:9090)", c.MetricsListen)
	}
	return nil
}

func (c Config) validateBlobStore() error {
	switch c.BlobStore {
	case "disk":
		return nil
	case "s3":
	default:
		return fmt.Errorf("blob_store: %q is not disk or s3", c.BlobStore)
	}
	if !strings.HasPrefix(c.S3.Endpoint, "http://") && !strings.HasPrefix(c.S3.Endpoint, "https://") {
		return fmt.Errorf("s3.endpoint: %q is not an http(s):// URL", c.S3.Endpoint)
	}
	if c.S3.Bucket == "" {
		return errors.New("s3.bucket: must not be empty with blob_store: s3")
	}
	if c.S3.Prefix != "" && !strings.HasSuffix(c.S3.Prefix, "/") {
		return fmt.Errorf("s3.prefix: %q must end in /", c.S3.Prefix)
	}
	return nil
}
