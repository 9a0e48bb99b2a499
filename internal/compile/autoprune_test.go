package compile

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/store"
)

// TestAutoCompilePrunesOutputOfGoneFolders: a subfolder of a folder kept
// compiled that is renamed or deleted takes its summaries, overview and
// output folder with it; a user's own file in that output stays, and so
// does the folder holding it.
func TestAutoCompilePrunesOutputOfGoneFolders(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect, func(o *Options) { o.AutoRetry = 50 * time.Millisecond })
		ctx := context.Background()
		if _, err := e.tree.Mkdir(ctx, e.alice, "kb://me/lib/"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.SaveAuto(ctx, e.alice, AutoRequest{URI: "kb://me/lib/", QuietS: intp(0)}); err != nil {
			t.Fatal(err)
		}
		e.upload(e.alice, "kb://me/lib/", map[string]string{"top.md": "# Top\nstays",
			"old/y.md": "# Y\nwhy", "old/deep/z.md": "# Z\nzed", "gone/g.md": "# G\ngee"})
		e.start(2)
		e.settle(e.alice, "kb://me/lib/")
		exists := func(p string) bool {
			t.Helper()
			_, err := e.st.NodeByPath(ctx, e.alice.ID, p)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				t.Fatal(err)
			}
			return err == nil
		}
		for _, p := range []string{"wiki/lib/old/y.md", "wiki/lib/old/.overview.md", "wiki/lib/old/deep/z.md", "wiki/lib/gone/g.md"} {
			if !exists(p) {
				t.Fatalf("%s was not compiled", p)
			}
		}
		// A note of the user's own kept in the output folder.
		e.upload(e.alice, "kb://me/wiki/lib/old/", map[string]string{"mine.md": "my own words"})

		if _, err := e.tree.Move(ctx, e.alice, "kb://me/lib/old/", "kb://me/lib/new/"); err != nil {
			t.Fatal(err)
		}
		if err := e.tree.Delete(ctx, e.alice, "kb://me/lib/gone/"); err != nil {
			t.Fatal(err)
		}
		e.settle(e.alice, "kb://me/lib/")
		for p, want := range map[string]bool{
			"wiki/lib/new/y.md": true, "wiki/lib/new/deep/z.md": true, "wiki/lib/new/.overview.md": true,
			"wiki/lib/top.md": true, "wiki/lib/.overview.md": true,
			"wiki/lib/old/mine.md": true, "wiki/lib/old/y.md": false, "wiki/lib/old/.overview.md": false,
			"wiki/lib/old/.abstract.md": false, "wiki/lib/old/deep": false,
			"wiki/lib/gone": false,
		} {
			if got := exists(p); got != want {
				t.Errorf("after the rename and the delete, %s exists = %v, want %v", p, got, want)
			}
		}
		// Nothing is left to prune: a new batch removes nothing.
		n, err := e.st.NodeByPath(ctx, e.alice.ID, "lib")
		if err != nil {
			t.Fatal(err)
		}
		if removed, busy, err := e.svc.pruneGone(ctx, e.alice, n, "wiki/lib"); removed != 0 || busy || err != nil {
			t.Fatalf("second prune: %d %v %v", removed, busy, err)
		}
	})
}
