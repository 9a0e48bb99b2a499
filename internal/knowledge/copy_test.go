package knowledge_test

import (
	"context"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"testing"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestCopyAndMoveReplacing(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		tree, cs, _ := knowledge.NewTestTree(t, dialect, "alice", "bob")
		alice, bob := cs[0], cs[1]
		ctx := context.Background()
		for _, d := range []string{"kb://me/src/", "kb://me/src/deep/", "kb://me/other/"} {
			if _, err := tree.Mkdir(ctx, alice, d); err != nil {
				t.Fatal(err)
			}
		}
		knowledge.MustUpload(t, tree, alice, "kb://me/src/", "a.md", "alpha v1")
		knowledge.MustUpload(t, tree, alice, "kb://me/src/", "a.md", "alpha v2 walrus")
		knowledge.MustUpload(t, tree, alice, "kb://me/src/deep/", "b.md", "beta")
		knowledge.MustUpload(t, tree, alice, "kb://me/other/", "x.md", "in the way")

		it, replaced, err := tree.Copy(ctx, alice, "kb://me/src/", "kb://me/dst", false)
		if err != nil || replaced || it.URI != "kb://users/alice/dst/" {
			t.Fatalf("copy: %v %v %v", it, replaced, err)
		}
		for _, p := range []string{"a.md", "deep/b.md"} {
			src, _ := tree.Stat(ctx, alice, "kb://me/src/"+p)
			dst, err := tree.Stat(ctx, alice, "kb://me/dst/"+p)
			if err != nil || dst.Hash != src.Hash || dst.NodeID == src.NodeID {
				t.Fatalf("%s: %+v %v", p, dst, err)
			}
		}
		// A copy starts its own history from the current bytes, and is searchable.
		if vs, err := trash.New(tree).Versions(ctx, alice, "kb://me/dst/a.md"); err != nil || len(vs) != 1 {
			t.Fatalf("copy versions %v %v", vs, err)
		}
		if res, err := tools.New(tree).Search(ctx, alice, tools.SearchParams{Query: "walrus", URI: "kb://me/dst/", Kind: "content"}); err != nil || len(res.Hits) != 1 {
			t.Fatalf("copy not indexed: %+v %v", res, err)
		}

		if _, _, err := tree.CopyShallow(ctx, alice, "kb://me/src/", "kb://me/shallow", false); err != nil {
			t.Fatal(err)
		}
		if es, err := tree.ReadDir(ctx, alice, "kb://me/shallow/"); err != nil || len(es) != 0 {
			t.Fatalf("a shallow copy of a folder holds %v %v", es, err)
		}
		_, _, err = tree.Copy(ctx, alice, "kb://me/src/", "kb://me/other", false)
		knowledge.WantCode(t, err, "already_exists")
		_, _, err = tree.Copy(ctx, alice, "kb://me/src/", "kb://me/src/deep/again", false)
		knowledge.WantCode(t, err, "invalid_copy")
		_, _, err = tree.Copy(ctx, bob, "kb://users/alice/src/a.md", "kb://me/a.md", false)
		knowledge.WantCode(t, err, "not_found")

		// Replacing trashes what was there, in the same transaction.
		if _, replaced, err := tree.Copy(ctx, alice, "kb://me/src/", "kb://me/other", true); err != nil || !replaced {
			t.Fatalf("copy over: %v %v", replaced, err)
		}
		if _, err := tree.Stat(ctx, alice, "kb://me/other/x.md"); err == nil {
			t.Fatal("the replaced folder's file is still there")
		}
		if _, replaced, err := tree.MoveReplacing(ctx, alice, "kb://me/dst/", "kb://me/other"); err != nil || !replaced {
			t.Fatalf("move over: %v %v", replaced, err)
		}
		trash, err := trash.New(tree).ListTrash(ctx, alice)
		if err != nil || len(trash) != 2 {
			t.Fatalf("trash after two replacements: %v %v", trash, err)
		}
		_, _, err = tree.MoveReplacing(ctx, alice, "kb://me/src/", "kb://me/src/deep")
		knowledge.WantCode(t, err, "invalid_move")
		_, _, err = tree.MoveReplacing(ctx, alice, "kb://me/src/deep/b.md", "kb://me/src")
		knowledge.WantCode(t, err, "holds_source")
		// Plain Move still refuses a taken name.
		_, err = tree.Move(ctx, alice, "kb://me/src/a.md", "kb://me/other/a.md")
		knowledge.WantCode(t, err, "already_exists")
	})
}
