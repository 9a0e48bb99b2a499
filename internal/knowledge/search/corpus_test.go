package search_test

import (
	"context"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/testsupport/searchcorpus"
)

// corpusFolder is where a generated corpus is uploaded in a user's tree.
const corpusFolder = "kb://me/corpus/"

// corpusUploadBatch is how many files one upload request carries.
const corpusUploadBatch = 64

// ingestCorpus uploads every file of c below corpusFolder as u, one
// request per folder and batch, as a client syncing a folder would.
func ingestCorpus(t testing.TB, e *env, u kb.Caller, c *searchcorpus.Corpus) {
	t.Helper()
	ctx := context.Background()
	byFolder := map[string][]string{}
	for _, f := range c.Files {
		dir := path.Dir(f.Path)
		byFolder[dir] = append(byFolder[dir], f.Path)
	}
	folders := make([]string, 0, len(byFolder))
	for d := range byFolder {
		folders = append(folders, d)
	}
	sort.Strings(folders) // parents first: Mkdir creates the missing ones
	made := map[string]bool{".": true}
	e.mkdir(u, corpusFolder)
	for _, d := range folders {
		if !made[d] {
			e.mkdir(u, corpusFolder+d+"/")
			for p := d; p != "."; p = path.Dir(p) {
				made[p] = true
			}
		}
		uri := corpusFolder
		if d != "." {
			uri += d + "/"
		}
		files := byFolder[d]
		for len(files) > 0 {
			batch := files[:min(len(files), corpusUploadBatch)]
			files = files[len(batch):]
			staged := make([]knowledge.Staged, 0, len(batch))
			for _, p := range batch {
				f, err := os.Open(filepath.Join(c.FilesDir(), filepath.FromSlash(p)))
				if err != nil {
					t.Fatal(err)
				}
				s, err := e.tree.Stage(path.Base(p), f)
				f.Close()
				if err != nil {
					knowledge.Discard(staged)
					t.Fatalf("stage %s: %v", p, err)
				}
				staged = append(staged, s)
			}
			if _, err := e.tree.CommitUpload(ctx, u, uri, staged, knowledge.ConflictFail); err != nil {
				t.Fatalf("upload to %s: %v", uri, err)
			}
		}
	}
}

// corpusSearch is a search of the whole corpus through every page.
type corpusSearch struct {
	pages, matched, hits int
	bytesRead            int64
	files                []string // paths below corpusFolder, sorted: hits and more_hits_in
	modes                []string // the "mode" of each page when the result has one
}

// searchCorpus calls the search tool on corpusFolder and then again with
// next_offset until the search is complete.
func searchCorpus(t testing.TB, e *env, u kb.Caller, query string) corpusSearch {
	t.Helper()
	ctx := context.Background()
	var out corpusSearch
	seen := map[string]bool{}
	add := func(uri string) {
		i := strings.Index(uri, "/corpus/")
		if i < 0 {
			t.Fatalf("hit outside the corpus: %s", uri)
		}
		if p := uri[i+len("/corpus/"):]; !seen[p] {
			seen[p] = true
			out.files = append(out.files, p)
		}
	}
	args := map[string]any{"uri": corpusFolder, "query": query, "mode": "literal"}
	for {
		r, err := tools.New(e.tree).RunScopedTool(ctx, u, kb.Scope{URI: "kb://me/"}, "search", toolArgsJSON(t, args))
		if err != nil {
			t.Fatalf("search %q page %d: %v", query, out.pages+1, err)
		}
		s := r.Value.(*tools.SearchResult)
		out.pages++
		if s.Ranked {
			out.matched = s.MatchedFiles // each ranked page counts the whole scope
		} else {
			out.matched += s.MatchedFiles
		}
		out.hits += len(s.Hits)
		out.bytesRead += s.BytesRead
		for _, h := range s.Hits {
			add(h.URI)
		}
		for _, uri := range s.MoreHitsIn {
			add(uri)
		}
		var m struct{ Mode string }
		if json.Unmarshal(r.JSON, &m) == nil && m.Mode != "" && !slices.Contains(out.modes, m.Mode) {
			out.modes = append(out.modes, m.Mode)
		}
		if s.NextOffset == nil {
			if !s.Complete {
				t.Fatalf("search %q: no next_offset but not complete", query)
			}
			break
		}
		args["offset"] = *s.NextOffset
	}
	sort.Strings(out.files)
	return out
}

// TestSearchCorpusFindsEveryFile searches a small generated corpus (nested
// folders, English and Chinese, large files) through every page and checks
// the files found against the planted rare terms and against a plain scan
// for the common ones.
func TestSearchCorpusFindsEveryFile(t *testing.T) {
	c, err := searchcorpus.Generate(t.TempDir(), searchcorpus.Config{Seed: 11, Files: 120, Bytes: 3 << 19})
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for _, f := range c.Files {
		b, err := os.ReadFile(filepath.Join(c.FilesDir(), filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		texts[f.Path] = strings.ToLower(string(b)) // the corpus has no letter whose simple fold differs from its lower case
	}
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		ingestCorpus(t, e, e.alice, c)
		for _, term := range append(slices.Clone(c.Rare), c.Common...) {
			want := term.Files
			if want == nil {
				for p, s := range texts {
					if strings.Contains(s, strings.ToLower(term.Text)) {
						want = append(want, p)
					}
				}
				slices.Sort(want)
			}
			got := searchCorpus(t, e, e.alice, term.Text)
			if !slices.Equal(got.files, want) || got.matched != len(want) {
				t.Errorf("%q: found %d files (matched_files %d), want %d: got %v, want %v",
					term.Text, len(got.files), got.matched, len(want), got.files, want)
			}
		}
	})
}
