package search_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store"
)

// env is a real store, blob store, tree and index writer with two users,
// alice and bob.
type env struct {
	t          testing.TB
	st         *store.Store
	tree       *knowledge.Tree
	index      *search.Index
	embedder   *search.Embedder // set when the env has an embedding model
	alice, bob kb.Caller
}

func newEnv(t testing.TB, dialect string) *env {
	t.Helper()
	return newEnvUploading(t, dialect, 256<<20)
}

// newEnvUploading is newEnv with uploads of up to maxUpload bytes.
func newEnvUploading(t testing.TB, dialect string, maxUpload int64, opts ...apptest.Option) *env {
	t.Helper()
	stack := apptest.NewStack(t, dialect, append(opts, apptest.MaxUpload(maxUpload))...)
	return &env{t: t, st: stack.Store, tree: stack.Tree, index: stack.Index, embedder: stack.Embedder,
		alice: stack.Caller(t, "alice"), bob: stack.Caller(t, "bob")}
}

// settle waits for the index writer, then for the embedder if any.
func (e *env) settle() {
	e.t.Helper()
	ctx := context.Background()
	if err := e.index.WaitIndexed(ctx); err != nil {
		e.t.Fatal(err)
	}
	if e.embedder == nil {
		return
	}
	if err := e.embedder.WaitEmbedded(ctx); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) mkdir(c kb.Caller, uri string) { apptest.Mkdir(e.t, e.tree, c, uri) }

// put uploads content as the file name in folder (created when missing).
func (e *env) put(c kb.Caller, folder, name string, content []byte) string {
	return apptest.Put(e.t, e.tree, c, folder, name, content)
}

// searchFor runs the search tool on scope.
func (e *env) searchFor(c kb.Caller, scope, query string) *tools.SearchResult {
	e.t.Helper()
	args := toolArgsJSON(e.t, map[string]any{"uri": scope, "query": query})
	res, err := tools.New(e.tree).RunScopedTool(context.Background(), c, kb.Scope{URI: scope}, "search", args)
	if err != nil {
		e.t.Fatalf("search %q in %s: %v", query, scope, err)
	}
	if len(res.JSON) > tools.MaxToolResultBytes || !json.Valid(res.JSON) {
		e.t.Fatalf("search: result JSON invalid or too large (%d bytes)", len(res.JSON))
	}
	return res.Value.(*tools.SearchResult)
}

func toolArgsJSON(t testing.TB, args map[string]any) json.RawMessage {
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
