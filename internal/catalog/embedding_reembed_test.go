package catalog_test

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/knowledge/search"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestChangingTheEmbeddingModelEmbedsAgain: files embedded under the
// config file's model are embedded again under the model an admin puts in
// use, without a restart, and the old vectors are dropped once the new
// ones are all written, as a changed model in the config file does at
// start.
func TestChangingTheEmbeddingModelEmbedsAgain(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		storetest.NeedVector(t, dialect)
		ctx := context.Background()
		f := apptest.StartFake(t, fakellm.Options{})
		stack := apptest.NewStack(t, dialect)
		cat, err := catalog.New(ctx, stack.Store, apptest.Models(t), secretA, llm.RegistryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		embedder := search.NewEmbedder(stack.Index, cat.Meaning())
		if err := cat.WithEmbedding(ctx, []embed.Config{{ID: "file-embed", BaseURL: f.URL + "/v1"}}, nil, embedder.Kick); err != nil {
			t.Fatal(err)
		}
		alice := stack.Caller(t, "alice")
		apptest.Mkdir(t, stack.Tree, alice, "kb://me/docs/")
		for _, name := range []string{"tides.md", "moon.md", "sea.md"} {
			apptest.Put(t, stack.Tree, alice, "kb://me/docs/", name, []byte("# "+name+"\n\nThe moon pulls the sea twice a day.\n"))
		}
		settle := func() string {
			if err := stack.Index.WaitIndexed(ctx); err != nil {
				t.Fatal(err)
			}
			if err := embedder.WaitEmbedded(ctx); err != nil {
				t.Fatal(err)
			}
			key, err := cat.Meaning().Key(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return key
		}
		before := settle()
		if p, err := stack.Store.EmbedProgress(ctx, before); err != nil || p.Files != 3 || p.Waiting != 0 {
			t.Fatalf("under the config file's model: %+v %v", p, err)
		}
		if _, err := cat.Create(ctx, embeddingInput(f, "admin-embed")); err != nil {
			t.Fatal(err)
		}
		if err := cat.UseEmbedding(ctx, "admin-embed"); err != nil {
			t.Fatal(err)
		}
		after := settle()
		if after == before {
			t.Fatalf("the key did not change: %s", after)
		}
		if p, err := stack.Store.EmbedProgress(ctx, after); err != nil || p.Files != 3 || p.Waiting != 0 {
			t.Fatalf("under the model put in use: %+v %v", p, err)
		}
		if p, err := stack.Store.EmbedProgress(ctx, before); err != nil || p.Files != 0 || p.Chunks != 0 {
			t.Fatalf("the old model's vectors are left: %+v %v", p, err)
		}
	})
}
