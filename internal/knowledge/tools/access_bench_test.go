package tools

import (
	"context"
	"fmt"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/share"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// BenchmarkReadThroughShare reads the first page of a file 6 folders deep
// as its owner (no authorizer query) and as a group member it is shared
// with (the owner's row, then the grants on the path's ancestors), with
// 50 other shares and 20 groups around, so the ratio prices the authorizer.
func BenchmarkReadThroughShare(b *testing.B) {
	for _, dialect := range storetest.Dialects() {
		b.Run(dialect, func(b *testing.B) {
			e := newToolEnv(b, dialect)
			ctx := context.Background()
			e.mkdir(e.alice, "kb://me/a/b/c/d/e/f/")
			e.put(e.alice, "kb://me/a/b/c/d/e/f/", "paper.md", toolBenchText(64<<10, 1, "needle"))
			const uri = "kb://users/alice/a/b/c/d/e/f/paper.md"
			for i := range 20 {
				g := store.Group{Name: fmt.Sprintf("g%02d", i)}
				if err := e.st.CreateGroup(ctx, &g); err != nil {
					b.Fatal(err)
				}
				if err := e.st.AddMember(ctx, g.ID, e.bob.ID); err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					if _, err := share.New(e.tree.Tree).Share(ctx, e.alice, share.Request{URI: "kb://me/a/b/", Group: g.Name, Role: "read"}); err != nil {
						b.Fatal(err)
					}
				}
			}
			for i := range 50 {
				e.mkdir(e.alice, fmt.Sprintf("kb://me/other-%02d/", i))
				if _, err := share.New(e.tree.Tree).Share(ctx, e.alice, share.Request{URI: fmt.Sprintf("kb://me/other-%02d/", i), Group: "g01", Role: "read"}); err != nil {
					b.Fatal(err)
				}
			}
			for _, who := range []struct {
				name string
				c    kb.Caller
			}{{"owner", e.alice}, {"grantee", e.bob}} {
				b.Run(who.name, func(b *testing.B) {
					for b.Loop() {
						if _, err := e.tree.ReadPage(ctx, who.c, uri, 0, 3000); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
