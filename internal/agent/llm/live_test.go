package llm

import (
	"context"
	"sync"
	"testing"
)

func oneModel(t *testing.T, f *fakeProvider, ids ...string) *Registry {
	t.Helper()
	var mcs []ModelConfig
	for _, id := range ids {
		mcs = append(mcs, ModelConfig{ID: id, Profile: ProfileOpenAICompatible, BaseURL: f.srv.URL + "/v1",
			APIKey: testKey, ContextWindow: 8192, OutputReserve: 1024})
	}
	reg, err := NewRegistry(mcs, RegistryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// A live registry is the one value every holder keeps; Swap changes what
// all of them see at once, and a call in flight keeps the model it found.
func TestLiveRegistrySwaps(t *testing.T) {
	f := newFake(t)
	live := NewLive(oneModel(t, f, "a"))
	held := live // what a service was given at start
	if _, err := held.Lookup("a"); err != nil {
		t.Fatalf("lookup a: %v", err)
	}
	if err := live.Swap(oneModel(t, f, "b", "c"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := held.Lookup("a"); !IsUnknownModel(err) {
		t.Fatalf("a after the swap: %v", err)
	}
	if held.Len() != 2 || len(held.Models()) != 2 || len(held.Options()) != 2 || held.Options()[1].ID != "c" {
		t.Fatalf("after the swap: len %d options %+v", held.Len(), held.Options())
	}
	if _, err := held.Complete(context.Background(), "b", userHi); err != nil {
		t.Fatalf("complete b: %v", err)
	}
	if err := oneModel(t, f, "x").Swap(oneModel(t, f, "y"), nil); err == nil {
		t.Fatal("a registry that is not live accepted a swap")
	}
}

// LookupFor answers a user the access rule refuses exactly as it answers
// an unknown model, and OptionsFor leaves the model out.
func TestLookupForAppliesAccess(t *testing.T) {
	f := newFake(t)
	live := NewLive(oneModel(t, f, "open", "closed"))
	rule := func(_ context.Context, userID int64, modelID string) (bool, error) {
		return modelID != "closed" || userID == 7, nil
	}
	if err := live.Swap(oneModel(t, f, "open", "closed"), rule); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, refused := live.LookupFor(ctx, 8, "closed")
	_, unknown := live.LookupFor(ctx, 8, "nothing")
	if !IsUnknownModel(refused) || refused.Error() != `unknown model "closed"` || !IsUnknownModel(unknown) {
		t.Fatalf("refused %v, unknown %v", refused, unknown)
	}
	if m, err := live.LookupFor(ctx, 7, "closed"); err != nil || m.ID() != "closed" {
		t.Fatalf("allowed user: %v", err)
	}
	opts, err := live.OptionsFor(ctx, 8)
	if err != nil || len(opts) != 1 || opts[0].ID != "open" {
		t.Fatalf("options for 8: %+v %v", opts, err)
	}
	// A registry without a rule lets everyone use every model.
	plain := oneModel(t, f, "p")
	if _, err := plain.LookupFor(ctx, 1, "p"); err != nil {
		t.Fatal(err)
	}
}

// Combine puts the base's models first; an extra model with a base id is
// left out and named.
func TestCombineBaseWins(t *testing.T) {
	f := newFake(t)
	reg, shadowed := Combine(oneModel(t, f, "a", "b"), oneModel(t, f, "b", "c"))
	var ids []string
	for _, m := range reg.Models() {
		ids = append(ids, m.ID())
	}
	if len(ids) != 3 || ids[0] != "a" || ids[1] != "b" || ids[2] != "c" || len(shadowed) != 1 || shadowed[0] != "b" {
		t.Fatalf("ids %v shadowed %v", ids, shadowed)
	}
}

// Readers racing a swap see one snapshot or the other, never a mix (run
// with -race).
func TestLiveRegistryConcurrentSwap(t *testing.T) {
	f := newFake(t)
	live := NewLive(oneModel(t, f, "a"))
	snaps := []*Registry{oneModel(t, f, "a"), oneModel(t, f, "a", "b")}
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if _, err := live.Lookup("a"); err != nil {
					t.Error(err)
					return
				}
				_ = live.Options()
			}
		}()
	}
	for j := 0; j < 200; j++ {
		_ = live.Swap(snaps[j%2], nil)
	}
	wg.Wait()
}
