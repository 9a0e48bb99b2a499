package store_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestLexemesMatchPostgres: the word index's lexemes, cut in Go, are
// those PostgreSQL's english configuration makes of every plain word of
// real documents (the Go specification and memory model): stop words
// dropped, the rest stemmed alike. A query and a body are cut by the
// same code; this keeps what they meet as it was when the server cut
// them.
func TestLexemesMatchPostgres(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		if dialect != store.DialectPostgres {
			t.Skip("SQLite's FTS5 cuts its own words")
		}
		t.Parallel()
		st, _ := storetest.Open(t, dialect)
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			t.Skipf("go env GOROOT: %v", err)
		}
		seen := map[string]bool{}
		var words []string
		for _, name := range []string{"go_spec.html", "go_mem.html"} {
			raw, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "doc", name))
			if err != nil {
				t.Skip(err)
			}
			for _, w := range strings.FieldsFunc(string(raw), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
				if !seen[w] {
					seen[w] = true
					words = append(words, w)
				}
			}
		}
		slices.Sort(words)
		server, err := st.ServerLexemes(context.Background(), strings.Join(words, "\n"))
		if err != nil {
			t.Fatal(err)
		}
		if len(server) < 2000 {
			t.Fatalf("the server took %d of %d words for plain words", len(server), len(words))
		}
		var differ []string
		for token, want := range server {
			got, ok := store.EnglishLexeme(token)
			switch {
			case len(want) == 0 && ok:
				differ = append(differ, token+": server drops it, we keep "+got)
			case len(want) == 1 && (!ok || got != want[0]):
				differ = append(differ, token+": server "+want[0]+", we "+got)
			case len(want) > 1:
				differ = append(differ, token+": server makes several")
			}
		}
		if len(differ) > 0 {
			slices.Sort(differ)
			t.Errorf("%d of %d words cut otherwise than by the server:\n%s", len(differ), len(server), strings.Join(differ[:min(len(differ), 40)], "\n"))
		}
	})
}
