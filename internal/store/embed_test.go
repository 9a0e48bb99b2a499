package store_test

import (
	"context"
	"math"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// unit is a 4-dimensional unit vector along (a, b, c, d).
func unit(a, b, c, d float64) []float32 {
	n := math.Sqrt(a*a + b*b + c*c + d*d)
	return []float32{float32(a / n), float32(b / n), float32(c / n), float32(d / n)}
}

// TestNearestChunks: chunks come back nearest first, only from the root's
// files, only under the asked model, and only while the body they were
// embedded from is the file's current one; a changed file waits for
// embedding again, a model's old vectors go, and a deleted file takes its
// chunks with it.
func TestNearestChunks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		storetest.NeedVector(t, dialect)
		ctx := context.Background()
		st, alice, a := aliceWithFile(t, dialect)
		if err := st.EnsureVectorIndex(ctx, 4); err != nil {
			t.Fatal(err)
		}
		root, _ := st.EnsureRoot(ctx, alice.ID)
		file := func(userID, parent int64, name string) store.Node {
			n := store.Node{UserID: userID, ParentID: &parent, Name: name, Path: name, Kind: store.KindFile}
			if err := st.CreateNode(ctx, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		b := file(alice.ID, root.ID, "b.md")
		bob := store.User{Username: "bob", PasswordHash: "h", Role: store.RoleUser}
		if err := st.CreateUser(ctx, &bob); err != nil {
			t.Fatal(err)
		}
		bobRoot, _ := st.EnsureRoot(ctx, bob.ID)
		c := file(bob.ID, bobRoot.ID, "c.md")
		index := func(n store.Node, version int64) store.SearchDoc {
			t.Helper()
			if err := st.MarkSearchPending(ctx, n.ID, version); err != nil {
				t.Fatal(err)
			}
			d := store.SearchDoc{NodeID: n.ID, VersionID: version, Pending: true}
			if ok, err := st.WriteSearchText(ctx, d, version, "text", nil); !ok || err != nil {
				t.Fatalf("index: %v %v", ok, err)
			}
			return store.SearchDoc{NodeID: n.ID, VersionID: version}
		}
		const model, other = "m|m|4", "n|n|4"
		embedAs := func(d store.SearchDoc, m string, vs ...[]float32) {
			t.Helper()
			var cs []store.EmbedChunk
			for i, v := range vs {
				cs = append(cs, store.EmbedChunk{Start: 10 * i, End: 10*i + 10, Line: i + 1, Vec: v})
			}
			if ok, err := st.WriteEmbedding(ctx, d, m, cs, ""); !ok || err != nil {
				t.Fatalf("embed: %v %v", ok, err)
			}
		}
		da, db, dc := index(a, 1), index(b, 2), index(c, 3)
		aliceRoot := store.SearchRoot{UserID: alice.ID, Dir: true}
		if n, err := st.CountUnembedded(ctx, aliceRoot, model); err != nil || n != 2 {
			t.Fatalf("unembedded %d %v", n, err)
		}
		if ps, err := st.PendingEmbeds(ctx, model, 0, 10); err != nil || len(ps) != 3 {
			t.Fatalf("pending %+v %v", ps, err)
		}
		embedAs(da, model, unit(1, 0, 0, 0), unit(0, 1, 0, 0))
		embedAs(db, model, unit(1, 1, 0, 0))
		embedAs(dc, model, unit(1, 0, 0, 0))
		embedAs(db, other, unit(1, 0, 0, 0))
		near := func(root store.SearchRoot, m string, q []float32) []store.NearChunk {
			t.Helper()
			cs, err := st.NearestChunks(ctx, store.FindNearest{Root: root, Model: m, Vec: q, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return cs
		}
		cs := near(aliceRoot, model, unit(1, 0.1, 0, 0))
		if len(cs) != 3 || cs[0].ID != a.ID || cs[0].Line != 1 || cs[1].ID != b.ID || cs[2].ID != a.ID || cs[2].Start != 10 {
			t.Fatalf("nearest %+v", cs)
		}
		if math.Abs(cs[0].Similarity-0.995) > 0.01 || cs[2].Similarity > cs[1].Similarity {
			t.Fatalf("similarities %v %v %v", cs[0].Similarity, cs[1].Similarity, cs[2].Similarity)
		}
		if cs := near(store.SearchRoot{UserID: alice.ID, Path: "b.md"}, model, unit(1, 0, 0, 0)); len(cs) != 1 || cs[0].ID != b.ID {
			t.Fatalf("one file's root %+v", cs)
		}
		if cs := near(aliceRoot, other, unit(1, 0, 0, 0)); len(cs) != 1 || cs[0].ID != b.ID {
			t.Fatalf("the other model's space %+v", cs)
		}
		if n, _ := st.CountUnembedded(ctx, aliceRoot, model); n != 0 {
			t.Fatalf("unembedded after embedding: %d", n)
		}

		// a.md changes: its old vectors are not scored, and it waits again.
		if err := st.MarkSearchPending(ctx, a.ID, 4); err != nil {
			t.Fatal(err)
		}
		if cs := near(aliceRoot, model, unit(1, 0, 0, 0)); len(cs) != 1 || cs[0].ID != b.ID {
			t.Fatalf("while a.md is pending %+v", cs)
		}
		if ok, err := st.WriteEmbedding(ctx, da, model, nil, ""); ok || err != nil {
			t.Fatalf("an embedding of the old body was written: %v %v", ok, err)
		}
		da2 := index(a, 4)
		if ps, _ := st.PendingEmbeds(ctx, model, 0, 10); len(ps) != 1 || ps[0].NodeID != a.ID || ps[0].VersionID != 4 {
			t.Fatalf("pending after the change %+v", ps)
		}
		embedAs(da2, model, unit(0, 0, 1, 0))
		if n, err := st.DropOtherEmbeddings(ctx, model, 100); err != nil || n != 1 {
			t.Fatalf("dropped %d %v", n, err)
		}
		if cs := near(aliceRoot, other, unit(1, 0, 0, 0)); len(cs) != 0 {
			t.Fatalf("the old model's vectors stayed %+v", cs)
		}
		if err := st.DeleteNode(ctx, b); err != nil {
			t.Fatal(err)
		}
		if cs := near(aliceRoot, model, unit(1, 1, 0, 0)); len(cs) != 1 || cs[0].ID != a.ID {
			t.Fatalf("after deleting b.md %+v", cs)
		}
		if rows, err := st.CountEmbedChunks(ctx); err != nil || rows != 2 {
			t.Fatalf("%d chunk rows left (a.md's one, bob's one), %v", rows, err)
		}
	})
}
