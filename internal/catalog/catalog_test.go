package catalog_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

var (
	secretA = strings.Repeat("A", 32)
	secretB = strings.Repeat("B", 32)
)

const key = "sk-admin-model-key-7f3a9c"

func input(f *apptest.Fake, id string) catalog.Input {
	k := key
	return catalog.Input{ID: id, Profile: llm.ProfileOpenAICompatible, BaseURL: f.URL + "/v1", Model: "upstream-" + id,
		ContextWindow: 32768, OutputReserve: 2048, APIKey: &k}
}

func code(err error) string {
	if e, ok := apierr.As(err); ok {
		return e.Code.String()
	}
	return ""
}

// A model added is callable at once with its key; disabled it is unknown;
// restricted to a group only its members find it; the listing shows the
// key as set with its last four characters and nothing more.
func TestCatalogAddDisableRestrict(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		f := apptest.StartFake(t, fakellm.Options{})
		base := apptest.Models(t, f.Model("from-config", "cfg-key-000000000", "up"))
		svc, err := catalog.New(ctx, st, base, secretA, llm.RegistryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		reg := svc.Models()
		if _, err := svc.Create(ctx, input(f, "admin-1")); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Complete(ctx, "admin-1", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}); err != nil {
			t.Fatalf("call the new model: %v", err)
		}
		last := f.Requests()[len(f.Requests())-1]
		if last.Header.Get("Authorization") != "Bearer "+key || last.Chat.Model != "upstream-admin-1" {
			t.Fatalf("the provider saw %q for model %q", last.Header.Get("Authorization"), last.Chat.Model)
		}
		list, err := svc.List(ctx)
		if err != nil || len(list.Models) != 2 || list.Models[0].ID != "from-config" || !list.Models[0].ReadOnly ||
			list.Models[1].APIKey != (catalog.KeyView{Set: true, Last4: key[len(key)-4:]}) || !list.SecretsKey {
			t.Fatalf("listing: %+v %v", list, err)
		}
		rows, _ := st.AdminModels(ctx)
		if strings.Contains(rows[0].APIKeySealed, key) {
			t.Fatal("the key is stored in the clear")
		}

		if _, err := svc.Update(ctx, "admin-1", func(in *catalog.Input) error { in.Disabled = true; return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Lookup("admin-1"); !llm.IsUnknownModel(err) {
			t.Fatalf("disabled model: %v", err)
		}
		group := store.Group{Name: "research"}
		if err := st.CreateGroup(ctx, &group); err != nil {
			t.Fatal(err)
		}
		member, outsider := store.User{Username: "m", PasswordHash: "x", Role: "user"}, store.User{Username: "o", PasswordHash: "x", Role: "user"}
		for _, u := range []*store.User{&member, &outsider} {
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
		if err := st.AddMember(ctx, group.ID, member.ID); err != nil {
			t.Fatal(err)
		}
		v, err := svc.Update(ctx, "admin-1", func(in *catalog.Input) error {
			in.Disabled, in.Groups = false, []int64{group.ID}
			return nil
		})
		if err != nil || !v.APIKey.Set {
			t.Fatalf("update kept the key? %+v %v", v, err)
		}
		if _, err := reg.LookupFor(ctx, member.ID, "admin-1"); err != nil {
			t.Fatalf("member: %v", err)
		}
		if _, err := reg.LookupFor(ctx, outsider.ID, "admin-1"); !llm.IsUnknownModel(err) {
			t.Fatalf("outsider: %v", err)
		}
		if _, err := reg.LookupFor(ctx, outsider.ID, "from-config"); err != nil {
			t.Fatalf("a config model is everyone's: %v", err)
		}

		_, err = svc.Create(ctx, input(f, "from-config"))
		_, err2 := svc.Update(ctx, "from-config", func(*catalog.Input) error { return nil })
		if code(err) != "model_read_only" || code(err2) != "model_read_only" || code(svc.Delete(ctx, "from-config")) != "model_read_only" {
			t.Fatalf("config model: %v / %v", err, err2)
		}
		bad := input(f, "bad")
		bad.OutputReserve = 40000
		if _, err := svc.Create(ctx, bad); code(err) != "invalid_model_config" || !strings.Contains(err.Error(), "output_reserve") {
			t.Fatalf("bad reserve: %v", err)
		}
		if err := svc.Delete(ctx, "admin-1"); err != nil {
			t.Fatal(err)
		}
		if _, err := reg.Lookup("admin-1"); !llm.IsUnknownModel(err) || code(svc.Delete(ctx, "admin-1")) != "unknown_model" {
			t.Fatalf("deleted model: %v", err)
		}
	})
}

// Without a secrets key a key is refused by name, a model without one is
// still stored; rotating reseals every key so it opens with the new
// secrets key only.
func TestCatalogSecretsKey(t *testing.T) {
	ctx := context.Background()
	st, _ := storetest.Open(t, store.DialectSQLite)
	f := apptest.StartFake(t, fakellm.Options{})
	none, err := catalog.New(ctx, st, apptest.Models(t), "", llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := none.Create(ctx, input(f, "k")); code(err) != "no_secrets_key" || !strings.Contains(err.Error(), "KB_SECRETS_KEY") {
		t.Fatalf("no secrets key: %v", err)
	}
	keyless := input(f, "keyless")
	keyless.APIKey = nil
	if _, err := none.Create(ctx, keyless); err != nil {
		t.Fatalf("a model without a key: %v", err)
	}

	a, err := catalog.New(ctx, st, apptest.Models(t), secretA, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Create(ctx, input(f, "k")); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Rotate(ctx, st, secretB, strings.Repeat("C", 32)); err == nil {
		t.Fatal("rotation with a wrong current key succeeded")
	}
	if n, err := catalog.Rotate(ctx, st, secretA, secretB); err != nil || n != 1 {
		t.Fatalf("rotate: %d %v", n, err)
	}
	if n, err := catalog.Rotate(ctx, st, secretA, secretB); err != nil || n != 1 {
		t.Fatalf("rotate again: %d %v", n, err)
	}
	b, err := catalog.New(ctx, st, apptest.Models(t), secretB, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Models().Complete(ctx, "k", llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	if last := f.Requests()[len(f.Requests())-1]; last.Header.Get("Authorization") != "Bearer "+key {
		t.Fatal("the resealed key is not the key")
	}
	// The old secrets key no longer opens it: the model is left out.
	if err := a.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Models().Lookup("k"); !llm.IsUnknownModel(err) {
		t.Fatalf("old secrets key: %v", err)
	}
}

// A second service on the same database (another replica) sees a change
// within a few polls.
func TestCatalogWatchSeesOtherReplica(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		st, _ := storetest.Open(t, dialect)
		f := apptest.StartFake(t, fakellm.Options{})
		one, err := catalog.New(ctx, st, apptest.Models(t), secretA, llm.RegistryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		two, err := catalog.New(ctx, st, apptest.Models(t), secretA, llm.RegistryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		go two.Watch(ctx, 50*time.Millisecond)
		if _, err := one.Create(ctx, input(f, "shared")); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			_, err := two.Models().Lookup("shared")
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the other replica never saw the model: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := one.Delete(ctx, "shared"); err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := two.Models().Lookup("shared"); llm.IsUnknownModel(err) {
				break
			}
			if time.Now().After(deadline.Add(5 * time.Second)) {
				t.Fatal("the other replica kept a deleted model")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// A model the config file gains after an admin stored one of the same id
// wins it: calls go to the config's model, everyone may use it whatever the
// stored one's access said, and the listing marks the stored one shadowed.
func TestCatalogConfigWinsAnID(t *testing.T) {
	ctx := context.Background()
	st, _ := storetest.Open(t, store.DialectSQLite)
	f := apptest.StartFake(t, fakellm.Options{})
	before, err := catalog.New(ctx, st, apptest.Models(t), secretA, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := input(f, "both")
	in.Users = []int64{42}
	if _, err := before.Create(ctx, in); err != nil {
		t.Fatal(err)
	}
	after, err := catalog.New(ctx, st, apptest.Models(t, f.Model("both", "cfg-key-0123456789", "from-config")), secretA, llm.RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := after.Models().LookupFor(ctx, 7, "both")
	if err != nil {
		t.Fatalf("the config's model for anyone: %v", err)
	}
	if _, err := m.Complete(ctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}}); err != nil {
		t.Fatal(err)
	}
	if last := f.Requests()[len(f.Requests())-1]; last.Chat.Model != "from-config" {
		t.Fatalf("the call went to %q", last.Chat.Model)
	}
	list, err := after.List(ctx)
	if err != nil || len(list.Models) != 2 || !list.Models[0].ReadOnly || !list.Models[1].Shadowed || after.Models().Len() != 1 {
		t.Fatalf("listing: %+v %v", list.Models, err)
	}
}
