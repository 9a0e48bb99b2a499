package knowledge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/trash"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// Every Tree change that would alter a generated file's bytes or place is
// refused by the one rule, wherever the compile output lives; compile's
// own Publish still versions it, and CopyToEdit gives an ordinary file.
func TestGeneratedFilesAreTheCompilers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		tree, cs, _ := knowledge.NewTestTree(t, dialect, "alice")
		alice := cs[0]
		ctx := context.Background()
		if _, err := tree.Mkdir(ctx, alice, "kb://me/projects/"); err != nil {
			t.Fatal(err)
		}
		knowledge.MustUpload(t, tree, alice, "kb://me/", "mine.md", "my own notes")
		publish := func(folder, text string) {
			t.Helper()
			if _, err := tree.Publish(ctx, alice, folder, []knowledge.GeneratedFile{{Name: "s.md", Text: text,
				Provenance: store.Provenance{Role: store.RoleSummary, Model: "m"}}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		publish("wiki/d", "wiki summary v1")
		publish("wiki/d", "wiki summary v2")
		publish("projects/out", "summary elsewhere")
		vs, err := trash.New(tree).Versions(ctx, alice, "kb://me/wiki/d/s.md")
		if err != nil || len(vs) != 2 {
			t.Fatalf("versions %v %v", vs, err)
		}

		s, err := tree.Stage("s.md", strings.NewReader("my edit"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = tree.CommitUpload(ctx, alice, "kb://me/projects/out/", []knowledge.Staged{s}, knowledge.ConflictReplace)
		knowledge.WantCode(t, err, "generated_read_only")
		_, err = tree.Move(ctx, alice, "kb://me/wiki/d/s.md", "kb://me/s.md")
		knowledge.WantCode(t, err, "generated_read_only")
		_, err = tree.Move(ctx, alice, "kb://me/projects/out/", "kb://me/out/")
		knowledge.WantCode(t, err, "generated_read_only")
		_, _, err = tree.MoveReplacing(ctx, alice, "kb://me/mine.md", "kb://me/wiki/d/s.md")
		knowledge.WantCode(t, err, "generated_read_only")
		_, _, err = tree.Copy(ctx, alice, "kb://me/mine.md", "kb://me/projects/out/s.md", true)
		knowledge.WantCode(t, err, "generated_read_only")
		_, err = trash.New(tree).RestoreVersion(ctx, alice, "kb://me/wiki/d/s.md", vs[1].ID)
		knowledge.WantCode(t, err, "generated_read_only")
		for uri, want := range map[string]string{"kb://me/wiki/d/s.md": "wiki summary v2", "kb://me/projects/out/s.md": "summary elsewhere"} {
			if got := readAll(t, tree, alice, uri); got != want {
				t.Fatalf("%s holds %q", uri, got)
			}
		}

		publish("wiki/d", "wiki summary v3")
		if got := readAll(t, tree, alice, "kb://me/wiki/d/s.md"); got != "wiki summary v3" {
			t.Fatalf("compile's own write: %q", got)
		}

		for src, want := range map[string]string{
			"kb://me/wiki/d/s.md":       "kb://users/alice/s (copy).md",
			"kb://me/projects/out/s.md": "kb://users/alice/projects/s (copy).md",
			"kb://me/mine.md":           "kb://users/alice/mine (copy).md",
		} {
			it, err := tree.CopyToEdit(ctx, alice, src)
			if err != nil || it.URI != want || it.Generated {
				t.Fatalf("copy to edit %s: %+v %v", src, it, err)
			}
			if readAll(t, tree, alice, it.URI) != readAll(t, tree, alice, src) {
				t.Fatalf("copy of %s differs", src)
			}
			knowledge.MustUpload(t, tree, alice, it.URI[:strings.LastIndex(it.URI, "/")+1], it.Name, "edited")
		}
		if err := tree.Delete(ctx, alice, "kb://me/wiki/d/s.md"); err != nil {
			t.Fatalf("delete: %v", err)
		}
	})
}

func readAll(t *testing.T, tree *knowledge.Tree, c kb.Caller, uri string) string {
	t.Helper()
	p, err := tree.ReadPage(context.Background(), c, uri, 0, 6000)
	if err != nil {
		t.Fatal(err)
	}
	return p.Text
}
