package search_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/share"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// meaningEnv is env with an embedding model served by the fake LLM.
type meaningEnv struct {
	*env
	stack *apptest.Stack
}

func newMeaningEnv(t *testing.T, dialect string, model knowledge.Meaning, fake *apptest.Fake) *meaningEnv {
	t.Helper()
	storetest.NeedVector(t, dialect)
	if fake == nil {
		fake = apptest.StartFake(t, fakellm.Options{})
	}
	if model == nil {
		model = fake.Embedder("fake-embed")
	}
	stack := apptest.NewStack(t, dialect, apptest.Meaning(model))
	return &meaningEnv{env: &env{t: t, st: stack.Store, tree: stack.Tree, index: stack.Index, embedder: stack.Embedder,
		alice: stack.Caller(t, "alice"), bob: stack.Caller(t, "bob")}, stack: stack}
}

// files lists the distinct files of a search's hits, in order, by their
// path in their owner's tree.
func files(r *tools.SearchResult) []string {
	var out []string
	for _, h := range r.Hits {
		_, name, _ := strings.Cut(strings.TrimPrefix(h.URI, "kb://users/"), "/")
		if len(out) == 0 || out[len(out)-1] != name {
			out = append(out, name)
		}
	}
	return out
}

// TestMeaningSearch: with an embedding model, a question with its words
// misspelt finds its file by meaning where the words find nothing; hybrid
// is the agent's default for a question and finds it first too; the
// meaning passage is the chunk's line; literal and ranked are unchanged.
func TestMeaningSearch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newMeaningEnv(t, dialect, nil, nil)
		for name, text := range rankedCorpus {
			e.put(e.alice, "kb://me/docs/", name, []byte(text))
		}
		e.settle()
		const typo = "tabwritr colums alignd"
		if r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": typo, "mode": "ranked"}); len(r.Hits) != 0 {
			t.Fatalf("ranked found the misspelt question: %v", files(r))
		}
		r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": typo, "mode": "meaning"})
		if r.Mode != "meaning" || !r.Complete || len(r.Hits) == 0 || files(r)[0] != "docs/tabwriter.md" {
			t.Fatalf("meaning: %+v", r)
		}
		if h := r.Hits[0]; !strings.Contains(h.Snippet, "tabwriter") || h.Line < 1 {
			t.Errorf("meaning passage %+v", h)
		}
		r = e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": typo})
		if r.Mode != "hybrid" || !r.Complete || files(r)[0] != "docs/tabwriter.md" {
			t.Fatalf("default for a question: mode %s, files %v", r.Mode, files(r))
		}
		for _, tc := range []struct{ query, first string }{
			{"how do I read a compressed file?", "docs/gzip.md"},
			{"read a text file line by line", "docs/bufio.md"},
			{"怎么做中文全文检索", "docs/检索.md"},
		} {
			r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": tc.query, "mode": "hybrid"})
			if got := files(r); len(got) == 0 || got[0] != tc.first {
				t.Errorf("hybrid %q: %v, want %s first", tc.query, got, tc.first)
			}
		}
		if r := e.searchWith(e.alice, "kb://me/docs/", map[string]any{"query": "gzip"}); r.Mode != "index" {
			t.Errorf("one word is still literal: %s", r.Mode)
		}
	})
}

// TestMeaningScope: another user's file, a file out of a scoped token's
// folder, a deleted file and a file moved out of a share never come back
// from meaning or hybrid, right after the change, before any embedding
// catches up.
func TestMeaningScope(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newMeaningEnv(t, dialect, nil, nil)
		ctx := context.Background()
		text := []byte("# Quarterly budget\n\nThe quarterly budget review of the zanzibar project.\n")
		e.put(e.alice, "kb://me/work/", "budget.md", text)
		e.put(e.alice, "kb://me/work/", "moved.md", text)
		e.put(e.alice, "kb://me/private/", "budget.md", text)
		gone := e.put(e.alice, "kb://me/work/", "old-budget.md", text)
		e.put(e.bob, "kb://me/", "bob-budget.md", text)
		if _, err := share.New(e.tree).Share(ctx, e.alice, share.Request{URI: "kb://me/work/", User: "bob", Role: "read"}); err != nil {
			t.Fatal(err)
		}
		e.settle()
		// The files found, by name: which, not in what order.
		got := func(c kb.Caller, scope, mode string) string {
			fs := files(e.searchWith(c, scope, map[string]any{"query": "zanzibar quarterly budget", "mode": mode}))
			slices.Sort(fs)
			return strings.Join(fs, " ")
		}
		for _, mode := range []string{"meaning", "hybrid"} {
			if s := got(e.bob, "kb://shared/", mode); s != "work/budget.md work/moved.md work/old-budget.md" {
				t.Fatalf("%s: bob's view of the share before the changes: %s", mode, s)
			}
		}
		if err := e.tree.Delete(ctx, e.alice, gone); err != nil {
			t.Fatal(err)
		}
		if _, err := e.tree.Move(ctx, e.alice, "kb://me/work/moved.md", "kb://me/private/moved.md"); err != nil {
			t.Fatal(err)
		}
		_, work, err := e.tree.Resolve(ctx, e.alice, "kb://me/work/")
		if err != nil {
			t.Fatal(err)
		}
		scoped := e.alice
		scoped.ScopeID, scoped.ScopePath = work.ID, work.Path
		for _, mode := range []string{"meaning", "hybrid"} {
			if s := got(e.bob, "kb://shared/", mode); s != "work/budget.md" {
				t.Errorf("%s: bob's view of the share right after a delete and a move out: %s", mode, s)
			}
			if s := got(e.bob, "kb://me/", mode); s != "bob-budget.md" {
				t.Errorf("%s: bob's own: %s", mode, s)
			}
			if s := got(scoped, "kb://me/", mode); s != "work/budget.md" {
				t.Errorf("%s: a token scoped to work/: %s", mode, s)
			}
			if s := got(e.alice, "kb://me/", mode); s != "private/budget.md private/moved.md work/budget.md" {
				t.Errorf("%s: alice's own: %s", mode, s)
			}
		}
	})
}

// heldModel is an embedding model whose file batches wait until release:
// the query, embedded alone, passes.
type heldModel struct {
	*embed.Client
	release chan struct{}
}

func (m heldModel) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) > 1 || strings.Contains(texts[0], "\n\n") {
		select {
		case <-m.release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return m.Client.Embed(ctx, texts)
}

// TestMeaningPendingAndModelChange: while files wait for their vectors a
// meaning answer says how many and is not complete; changing the model
// embeds every file again, never mixing the two models' vectors in one
// answer, and drops the old vectors once done.
func TestMeaningPendingAndModelChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		fake := apptest.StartFake(t, fakellm.Options{})
		held := heldModel{Client: fake.Embedder("fake-embed"), release: make(chan struct{})}
		e := newMeaningEnv(t, dialect, held, fake)
		e.put(e.alice, "kb://me/", "budget.md", []byte("# Budget\n\nThe quarterly budget review.\n"))
		e.put(e.alice, "kb://me/", "gzip.md", []byte(rankedCorpus["gzip.md"]))
		if err := e.index.WaitIndexed(context.Background()); err != nil {
			t.Fatal(err)
		}
		r := e.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
		if r.Complete || r.UnembeddedFiles != 2 || len(r.Hits) != 0 || !strings.Contains(r.Note, "2 file(s) are still being embedded") {
			t.Fatalf("while embedding waits: %+v", r)
		}
		r = e.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "hybrid"})
		if r.Complete || r.UnembeddedFiles != 2 || strings.Join(files(r), " ") != "budget.md" {
			t.Fatalf("hybrid while embedding waits: the words answer, and it says what it lacks: %+v", r)
		}
		close(held.release)
		e.settle()
		r = e.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
		if !r.Complete || r.UnembeddedFiles != 0 || files(r)[0] != "budget.md" {
			t.Fatalf("once embedded: %+v", r)
		}
		before := fake.Embedded()

		// The same data under another model: every file waits again, and
		// nothing of the first model's vectors answers meanwhile.
		other := heldModel{Client: fake.Embedder("fake-embed-2"), release: make(chan struct{})}
		stack := apptest.NewStackOn(t, e.st, e.stack.Dir, apptest.Meaning(other))
		e2 := &meaningEnv{env: &env{t: t, st: stack.Store, tree: stack.Tree, index: stack.Index, embedder: stack.Embedder, alice: e.alice, bob: e.bob}, stack: stack}
		stack.Embedder.Kick()
		r = e2.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
		if r.Complete || r.UnembeddedFiles != 2 || len(r.Hits) != 0 {
			t.Fatalf("after the model changed: %+v", r)
		}
		close(other.release)
		e2.settle()
		r = e2.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
		if !r.Complete || files(r)[0] != "budget.md" {
			t.Fatalf("once embedded again: %+v", r)
		}
		if fake.Embedded() <= before+2 {
			t.Fatalf("the files were not embedded again: %d texts before, %d after", before, fake.Embedded())
		}
		left, err := e.st.EmbedProgress(context.Background(), "fake-embed|fake-embed|512")
		if err != nil || left.Files != 0 || left.Chunks != 0 {
			t.Fatalf("the old model's vectors stayed: %+v, %v", left, err)
		}
	})
}

// TestMeaningAcrossRebuild: once a rebuilt index (a new version, or on
// PostgreSQL a crash) holds the files again, meaning search answers
// complete; the embeddings outlive the rebuild, so no file is embedded
// again (model calls for nothing).
func TestMeaningAcrossRebuild(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		fake := apptest.StartFake(t, fakellm.Options{})
		e := newMeaningEnv(t, dialect, nil, fake)
		e.put(e.alice, "kb://me/", "budget.md", []byte("# Budget\n\nThe quarterly budget review.\n"))
		e.put(e.alice, "kb://me/", "gzip.md", []byte(rankedCorpus["gzip.md"]))
		e.settle()
		before := fake.Embedded()
		if _, err := e.index.Reindex(context.Background()); err != nil {
			t.Fatal(err)
		}
		e.settle()
		if after := fake.Embedded(); after != before {
			t.Fatalf("the rebuild had the files embedded again: %d texts before, %d after", before, after)
		}
		r := e.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
		if !r.Complete || len(r.Hits) == 0 || files(r)[0] != "budget.md" {
			t.Fatalf("after the rebuild: %+v", r)
		}
	})
}
