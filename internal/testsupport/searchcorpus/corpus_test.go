package searchcorpus

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var small = Config{Seed: 7, Files: 120, Bytes: 2 << 20}

// readAll returns every file's text by path.
func readAll(t *testing.T, c *Corpus) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range c.Files {
		b, err := os.ReadFile(filepath.Join(c.FilesDir(), filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(b)) != f.Size {
			t.Fatalf("%s: %d bytes on disk, manifest says %d", f.Path, len(b), f.Size)
		}
		out[f.Path] = string(b)
	}
	return out
}

func TestGenerateShape(t *testing.T) {
	c, err := Generate(t.TempDir(), small)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != small.Files {
		t.Fatalf("%d files, want %d", len(c.Files), small.Files)
	}
	if c.Bytes < small.Bytes*9/10 || c.Bytes > small.Bytes*11/10 {
		t.Fatalf("%d bytes, want about %d", c.Bytes, small.Bytes)
	}
	var large, deep int
	for _, f := range c.Files {
		if f.Size >= int64(10*float64(small.Bytes)/fullBytes*(1<<20)) {
			large++
		}
		if strings.Count(f.Path, "/") >= 3 {
			deep++
		}
	}
	if large != len(largeFilesMB) || deep == 0 {
		t.Fatalf("%d large files (want %d), %d files 3+ folders deep", large, len(largeFilesMB), deep)
	}
	texts := readAll(t, c)
	for p, s := range texts {
		texts[p] = strings.ToLower(s) // no letter of the corpus folds other than to its lower case
	}
	for _, term := range c.Rare {
		var got []string
		for p, s := range texts {
			if strings.Contains(s, strings.ToLower(term.Text)) {
				got = append(got, p)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, term.Files) || len(got) == 0 || len(got) > 3 {
			t.Errorf("rare %q is in %v, manifest says %v", term.Text, got, term.Files)
		}
	}
	for _, term := range c.Common {
		n := 0
		for _, s := range texts {
			if strings.Contains(s, term.Text) {
				n++
			}
		}
		if n < len(texts)/5 {
			t.Errorf("common %q is in only %d of %d files", term.Text, n, len(texts))
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	sums := func(cfg Config) (*Corpus, map[string][32]byte) {
		c, err := Generate(t.TempDir(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][32]byte{}
		for p, s := range readAll(t, c) {
			out[p] = sha256.Sum256([]byte(s))
		}
		c.Root = ""
		return c, out
	}
	cfg := Config{Seed: 5, Files: 60, Bytes: 512 << 10}
	c1, s1 := sums(cfg)
	c2, s2 := sums(cfg)
	if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(s1, s2) {
		t.Fatal("the same config gave different corpora")
	}
	other := cfg
	other.Seed++
	_, s3 := sums(other)
	if reflect.DeepEqual(s1, s3) {
		t.Fatal("another seed gave the same corpus")
	}
}

func TestEnsureReusesTheCache(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	cfg := Config{Seed: 3, Files: 30, Bytes: 256 << 10}
	c1, fresh, err := Ensure(cfg)
	if err != nil || !fresh {
		t.Fatalf("first Ensure: fresh %v, %v", fresh, err)
	}
	c2, fresh, err := Ensure(cfg)
	if err != nil || fresh {
		t.Fatalf("second Ensure: fresh %v, %v", fresh, err)
	}
	if c1.Root != c2.Root || c1.Bytes != c2.Bytes || !strings.HasPrefix(c1.Root, os.Getenv("TMPDIR")) {
		t.Fatalf("second Ensure gave %s (%d bytes), first %s (%d bytes)", c2.Root, c2.Bytes, c1.Root, c1.Bytes)
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv("KB_BENCH_CORPUS_MB", "20")
	t.Setenv("KB_BENCH_CORPUS_FILES", "")
	cfg, err := FromEnv()
	if err != nil || cfg.Bytes != 20<<20 || cfg.Files != DefaultFiles || cfg.Seed != DefaultSeed {
		t.Fatalf("got %+v, %v", cfg, err)
	}
	t.Setenv("KB_BENCH_CORPUS_MB", "0")
	if _, err := FromEnv(); err == nil {
		t.Fatal("KB_BENCH_CORPUS_MB=0 was accepted")
	}
}
