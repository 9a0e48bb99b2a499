// Package searchcorpus generates, once per configuration, a deterministic
// corpus of text files for the search benchmarks and tests: mixed English
// and Chinese prose with Zipf word frequencies, nested folders, a few
// large files, rare terms planted in 1–3 known files and common terms.
// It writes files only; nothing outside tests and benchmarks uses it.
package searchcorpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// generatorVersion changes whenever the same Config would give other
// bytes; a cached corpus of another version is generated again.
const generatorVersion = 1

// Defaults of the benchmark corpus (issue #15): 10,000 files, 500 MB.
const (
	DefaultFiles = 10_000
	DefaultMB    = 500
	DefaultSeed  = 1
)

// Config chooses a corpus; equal configs give equal corpora.
type Config struct {
	Seed  uint64 `json:"seed"`
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"` // the target total; Corpus.Bytes is what was written
}

// FromEnv is the default config with KB_BENCH_CORPUS_MB,
// KB_BENCH_CORPUS_FILES and KB_BENCH_CORPUS_SEED applied, so a test run
// can ask for a tiny corpus.
func FromEnv() (Config, error) {
	cfg := Config{Seed: DefaultSeed, Files: DefaultFiles, Bytes: DefaultMB << 20}
	for _, e := range []struct {
		name string
		set  func(n uint64)
	}{
		{"KB_BENCH_CORPUS_MB", func(n uint64) { cfg.Bytes = int64(n) << 20 }},
		{"KB_BENCH_CORPUS_FILES", func(n uint64) { cfg.Files = int(n) }},
		{"KB_BENCH_CORPUS_SEED", func(n uint64) { cfg.Seed = n }},
	} {
		if s := os.Getenv(e.name); s != "" {
			n, err := strconv.ParseUint(s, 10, 32)
			if err != nil || n == 0 && e.name != "KB_BENCH_CORPUS_SEED" {
				return Config{}, fmt.Errorf("%s=%q: want a positive whole number", e.name, s)
			}
			e.set(n)
		}
	}
	return cfg, nil
}

// File is one file of the corpus, by its path below FilesDir.
type File struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// Term is a query. For a rare term Files lists, sorted, every file that
// holds it (compared ignoring case); for a common one it is empty.
type Term struct {
	Text  string   `json:"text"`
	Files []string `json:"files,omitempty"`
}

// Corpus describes a generated corpus.
type Corpus struct {
	Version int `json:"version"`
	Config
	Root   string `json:"-"`
	Files  []File `json:"files_list"`
	Rare   []Term `json:"rare"`
	Common []Term `json:"common"`
	Bytes  int64  `json:"total_bytes"`
}

// FilesDir is the folder holding the files (and nothing else).
func (c *Corpus) FilesDir() string { return filepath.Join(c.Root, "files") }

func manifestPath(root string) string { return filepath.Join(root, "manifest.json") }

func writeManifest(c *Corpus) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return os.WriteFile(manifestPath(c.Root), b, 0o644)
}

// Load reads the corpus generated under root.
func Load(root string) (*Corpus, error) {
	b, err := os.ReadFile(manifestPath(root))
	if err != nil {
		return nil, err
	}
	var c Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("searchcorpus: %s: %w", manifestPath(root), err)
	}
	c.Root = root
	return &c, nil
}

// CacheDir is where Ensure keeps the corpus of cfg.
func CacheDir(cfg Config) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("knowspace-search-corpus-%d-%df-%db", cfg.Seed, cfg.Files, cfg.Bytes))
}

// Ensure returns the corpus of cfg from its cache folder, generating it
// there first when it is missing or of an older generator; fresh tells
// whether it did.
func Ensure(cfg Config) (c *Corpus, fresh bool, err error) {
	dir := CacheDir(cfg)
	if c, err := Load(dir); err == nil && c.Version == generatorVersion && c.Config == cfg {
		return c, false, nil
	}
	// Generate beside it and rename, so an interrupted run leaves no
	// half-written corpus that a later run would take for complete.
	tmp := fmt.Sprintf("%s.tmp-%d", dir, os.Getpid())
	if err := os.RemoveAll(tmp); err != nil {
		return nil, false, err
	}
	if _, err := Generate(tmp, cfg); err != nil {
		os.RemoveAll(tmp)
		return nil, false, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, false, err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if c, lerr := Load(dir); lerr == nil && c.Version == generatorVersion {
			return c, false, nil // another process generated it meanwhile
		}
		return nil, false, errors.Join(fmt.Errorf("searchcorpus: rename to %s", dir), err)
	}
	c, err = Load(dir)
	return c, true, err
}
