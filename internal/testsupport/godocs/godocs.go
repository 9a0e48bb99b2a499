// Package godocs is the known-answer set of the ranked-search benchmark:
// questions in a user's own words (some as keywords, a few in Chinese)
// over the documentation of Go's standard library, each with the package
// pages that answer it. The pages are generated from this machine's GOROOT
// by corpus.sh and cached in $TMPDIR; nothing large is committed. Only
// tests and benchmarks use it.
package godocs

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

//go:embed questions.jsonl
var questionsJSONL []byte

//go:embed corpus.sh
var corpusScript []byte

// Question is one line of questions.jsonl.
type Question struct {
	ID       string   `json:"id"`
	Style    string   `json:"style"` // question, keywords or zh
	Question string   `json:"question"`
	Answers  []string `json:"answers"` // page paths below the corpus root, e.g. net/http.md
}

// Questions returns the known-answer set, in file order.
func Questions() ([]Question, error) {
	var out []Question
	sc := bufio.NewScanner(bytes.NewReader(questionsJSONL))
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var q Question
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			return nil, fmt.Errorf("questions.jsonl: %w", err)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// Page is one generated page.
type Page struct {
	Path string // below the corpus root, slash-separated
	Text []byte
}

// Ensure returns the pages of the corpus, generating them with corpus.sh
// into $TMPDIR/knowspace-godocs-<go version> the first time.
func Ensure() ([]Page, error) {
	dir := filepath.Join(os.TempDir(), "knowspace-godocs-"+runtime.Version())
	done := filepath.Join(dir, ".complete")
	if _, err := os.Stat(done); err != nil {
		if err := generate(dir); err != nil {
			return nil, err
		}
		if err := os.WriteFile(done, nil, 0o644); err != nil {
			return nil, err
		}
	}
	var pages []Page
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		pages = append(pages, Page{Path: filepath.ToSlash(rel), Text: b})
		return nil
	})
	slices.SortFunc(pages, func(a, b Page) int { return strings.Compare(a.Path, b.Path) })
	return pages, err
}

func generate(dir string) error {
	script := filepath.Join(os.TempDir(), "knowspace-godocs-corpus.sh")
	if err := os.WriteFile(script, corpusScript, 0o755); err != nil {
		return err
	}
	// The script runs the go on PATH, as the tests themselves were run.
	cmd := exec.Command("sh", script, dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("corpus.sh: %w: %s", err, out)
	}
	return nil
}
