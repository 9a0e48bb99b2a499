package catalog_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func embeddingInput(f *apptest.Fake, id string) catalog.Input {
	k := key
	return catalog.Input{ID: id, Kind: catalog.KindEmbedding, BaseURL: f.URL + "/v1", Model: "upstream-" + id, PriceInput: 0.02, APIKey: &k}
}

// TestEmbeddingModelsInTheCatalog: an admin adds an embedding model beside
// the config file's (which stays read-only and wins its id), checks it,
// and puts it in use: the meaning model changes on this replica at once
// and on another within seconds, and its key is never shown.
func TestEmbeddingModelsInTheCatalog(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		st, _ := storetest.Open(t, dialect)
		f := apptest.StartFake(t, fakellm.Options{})
		fromFile := []embed.Config{{ID: "file-embed", BaseURL: f.URL + "/v1", APIKey: "k"}}
		replica := func() (*catalog.Service, *int) {
			c, err := catalog.New(ctx, st, apptest.Models(t), secretA, llm.RegistryOptions{})
			if err != nil {
				t.Fatal(err)
			}
			changes := new(int)
			if err := c.WithEmbedding(ctx, fromFile, nil, func() { *changes++ }); err != nil {
				t.Fatal(err)
			}
			return c, changes
		}
		one, changed := replica()
		two, _ := replica()
		go two.Watch(ctx, 50*time.Millisecond)
		if m := one.Meaning(); m.ID() != "file-embed" {
			t.Fatalf("in use before any choice: %q, want the config file's first", m.ID())
		}

		if _, err := one.Create(ctx, embeddingInput(f, "file-embed")); code(err) != "model_read_only" {
			t.Fatalf("the config file's id: %v", err)
		}
		bad := embeddingInput(f, "bad")
		bad.BaseURL = "ftp://nowhere"
		if _, err := one.Create(ctx, bad); code(err) != "invalid_model_config" || !strings.Contains(err.Error(), "base_url") {
			t.Fatalf("a bad base URL: %v", err)
		}
		v, err := one.Create(ctx, embeddingInput(f, "admin-embed"))
		if err != nil {
			t.Fatal(err)
		}
		if v.Kind != catalog.KindEmbedding || !v.APIKey.Set || v.APIKey.Last4 != key[len(key)-4:] || v.InUse {
			t.Fatalf("created: %+v", v)
		}
		if res, err := one.CheckEmbedding(ctx, catalog.Input{ID: "admin-embed", Kind: catalog.KindEmbedding, BaseURL: f.URL + "/v1", Model: "upstream-admin-embed"}); err != nil || !res.OK {
			t.Fatalf("check with the stored key: %+v %v", res, err)
		}

		if err := one.UseEmbedding(ctx, "admin-embed"); err != nil {
			t.Fatal(err)
		}
		if m := one.Meaning(); m.ID() != "admin-embed" || *changed == 0 {
			t.Fatalf("in use here: %q after %d changes", m.ID(), *changed)
		}
		vecs, err := one.Meaning().Embed(ctx, []string{"the moon"})
		if err != nil || len(vecs) != 1 || len(vecs[0]) == 0 {
			t.Fatalf("embed through the model in use: %v %v", vecs, err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for two.Meaning().ID() != "admin-embed" {
			if time.Now().After(deadline) {
				t.Fatalf("the other replica still uses %q", two.Meaning().ID())
			}
			time.Sleep(20 * time.Millisecond)
		}

		list, err := one.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, m := range list.Models {
			if m.Kind == catalog.KindEmbedding {
				kinds = append(kinds, m.ID+map[bool]string{true: " in use", false: ""}[m.InUse]+map[bool]string{true: " read-only", false: ""}[m.ReadOnly])
			}
		}
		if strings.Join(kinds, ", ") != "file-embed read-only, admin-embed in use" {
			t.Fatalf("embedding models listed: %v", kinds)
		}

		// Disabled, the model in use falls back to the config file's.
		if _, err := one.Update(ctx, "admin-embed", func(in *catalog.Input) error { in.Disabled = true; return nil }); err != nil {
			t.Fatal(err)
		}
		if m := one.Meaning(); m.ID() != "file-embed" {
			t.Fatalf("after disabling the one in use: %q", m.ID())
		}
		if err := one.UseEmbedding(ctx, "nope"); code(err) != "unknown_model" {
			t.Fatalf("an unknown model put in use: %v", err)
		}
	})
}
