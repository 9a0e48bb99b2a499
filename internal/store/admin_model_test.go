package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// Every write to the admin's models bumps the change counter the replicas
// poll; the access lists round-trip; a reseal failing half-way keeps every
// key as it was.
func TestAdminModelsCountChanges(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		st, _ := storetest.Open(t, dialect)
		version := func() int64 {
			v, err := st.AdminModelsVersion(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		v0 := version()
		m := store.AdminModel{ID: "gpt-x", Kind: "chat", Profile: "openai-compatible", BaseURL: "http://h/v1",
			ContextWindow: 8192, OutputReserve: 1024, APIKeySealed: "sealed-1", APIKeyLast4: "wxyz",
			AllowedGroups: []int64{3, 4}, PriceInput: 0.5}
		if err := st.CreateAdminModel(ctx, &m); err != nil {
			t.Fatal(err)
		}
		if dup := m; !errors.Is(st.CreateAdminModel(ctx, &dup), store.ErrConflict) {
			t.Fatal("a second model with the same id was stored")
		}
		if v := version(); v != v0+1 {
			t.Fatalf("version after create: %d, want %d", v, v0+1)
		}
		m.Disabled, m.AllowedGroups, m.AllowedUsers = true, nil, []int64{9}
		if err := st.SaveAdminModel(ctx, &m); err != nil {
			t.Fatal(err)
		}
		got, err := st.AdminModel(ctx, "gpt-x")
		if err != nil || !got.Disabled || len(got.AllowedGroups) != 0 || len(got.AllowedUsers) != 1 || got.AllowedUsers[0] != 9 ||
			got.PriceInput != 0.5 || got.APIKeyLast4 != "wxyz" || got.CreatedAt.IsZero() {
			t.Fatalf("saved model: %+v %v", got, err)
		}
		if version() != v0+2 {
			t.Fatal("save did not bump the version")
		}
		boom := errors.New("boom")
		if _, err := st.ResealAdminModelKeys(ctx, func(store.AdminModel) (string, error) { return "", boom }); !errors.Is(err, boom) {
			t.Fatalf("reseal error: %v", err)
		}
		if n, err := st.ResealAdminModelKeys(ctx, func(m store.AdminModel) (string, error) { return m.APIKeySealed + "+", nil }); err != nil || n != 1 {
			t.Fatalf("reseal: %d %v", n, err)
		}
		if got, _ := st.AdminModel(ctx, "gpt-x"); got.APIKeySealed != "sealed-1+" {
			t.Fatalf("resealed key: %q", got.APIKeySealed)
		}
		if err := st.DeleteAdminModel(ctx, "gpt-x"); err != nil {
			t.Fatal(err)
		}
		if err := st.DeleteAdminModel(ctx, "gpt-x"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
		if ms, err := st.AdminModels(ctx); err != nil || len(ms) != 0 || version() != v0+4 {
			t.Fatalf("after delete: %v %v version %d", ms, err, version())
		}
	})
}
