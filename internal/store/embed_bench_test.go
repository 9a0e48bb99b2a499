package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkNearestChunks scores a question's vector against every chunk of
// one user's tree: KB_BENCH_CHUNKS chunks (default 100,000) of 512
// dimensions in files of 20 chunks, the meaning half of a hybrid query.
func BenchmarkNearestChunks(b *testing.B) {
	total := 100_000
	if s := os.Getenv("KB_BENCH_CHUNKS"); s != "" {
		total, _ = strconv.Atoi(s)
	}
	const dims, perFile = 512, 20
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			storetest.NeedVector(b, dialect)
			ctx := context.Background()
			st, _ := storetest.Open(b, dialect)
			u := store.User{Username: "alice", PasswordHash: "h", Role: store.RoleUser}
			if err := st.CreateUser(ctx, &u); err != nil {
				b.Fatal(err)
			}
			root, _ := st.EnsureRoot(ctx, u.ID)
			if err := st.EnsureVectorIndex(ctx, dims); err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			vec := func() []float32 {
				v := make([]float32, dims)
				for i := range v {
					v[i] = float32(rng.NormFloat64())
				}
				return v
			}
			start := time.Now()
			for f := 0; f < total/perFile; f++ {
				name := fmt.Sprintf("f%06d.md", f)
				n := store.Node{UserID: u.ID, ParentID: &root.ID, Name: name, Path: name, Kind: store.KindFile}
				if err := st.CreateNode(ctx, &n); err != nil {
					b.Fatal(err)
				}
				if err := st.MarkSearchPending(ctx, n.ID, 1); err != nil {
					b.Fatal(err)
				}
				d := store.SearchDoc{NodeID: n.ID, VersionID: 1, Pending: true}
				if _, err := st.WriteSearchText(ctx, d, 1, "x", nil); err != nil {
					b.Fatal(err)
				}
				cs := make([]store.EmbedChunk, perFile)
				for i := range cs {
					cs[i] = store.EmbedChunk{Start: i, End: i + 1, Line: i + 1, Vec: vec()}
				}
				if _, err := st.WriteEmbedding(ctx, store.SearchDoc{NodeID: n.ID, VersionID: 1}, "m", cs, ""); err != nil {
					b.Fatal(err)
				}
			}
			b.Logf("%d chunks of %d dimensions written in %v", total, dims, time.Since(start).Round(time.Second))
			q := vec()
			b.ResetTimer()
			for b.Loop() {
				cs, err := st.NearestChunks(ctx, store.FindNearest{Root: store.SearchRoot{UserID: u.ID, Dir: true}, Model: "m", Vec: q, Limit: 100})
				if err != nil || len(cs) != 100 {
					b.Fatalf("%d chunks, %v", len(cs), err)
				}
			}
		})
	}
}
