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

// TestWritesMarkTheNearestFolderKeptCompiled: every write path of the
// tree marks the nearest folder kept compiled above what it changed, in
// its own transaction, and nothing else.
func TestWritesMarkTheNearestFolderKeptCompiled(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		tree, cs, _ := knowledge.NewTestTree(t, dialect, "alice", "bob")
		alice, bob := cs[0], cs[1]
		ctx := context.Background()
		for _, f := range []string{"kb://me/w/", "kb://me/w/inner/", "kb://me/out/"} {
			if _, err := tree.Mkdir(ctx, alice, f); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := tree.Mkdir(ctx, bob, "kb://me/w/"); err != nil {
			t.Fatal(err)
		}
		watch := func(c kb.Caller, path string) int64 {
			n, err := tree.Store().NodeByPath(ctx, c.ID, path)
			if err != nil {
				t.Fatal(err)
			}
			if err := tree.Store().PutAutoCompile(ctx, &store.AutoCompile{UserID: c.ID, NodeID: n.ID, RequestJSON: "{}", QuietS: 5}); err != nil {
				t.Fatal(err)
			}
			return n.ID
		}
		w, inner := watch(alice, "w"), watch(alice, "w/inner")
		seq := func(id int64) int64 {
			a, err := tree.Store().AutoCompileOf(ctx, alice.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			return a.ChangeSeq
		}
		step := func(what string, wantW, wantInner int64, do func()) {
			t.Helper()
			w0, i0 := seq(w), seq(inner)
			do()
			if dw, di := seq(w)-w0, seq(inner)-i0; dw != wantW || di != wantInner {
				t.Fatalf("%s: w marked %d times, inner %d; want %d and %d", what, dw, di, wantW, wantInner)
			}
		}
		var upVersion int64
		step("upload", 1, 0, func() { knowledge.MustUpload(t, tree, alice, "kb://me/w/", "a.md", "one") })
		step("upload below a nested folder kept compiled", 0, 1, func() { knowledge.MustUpload(t, tree, alice, "kb://me/w/inner/", "b.md", "two") })
		step("upload outside", 0, 0, func() { knowledge.MustUpload(t, tree, alice, "kb://me/out/", "c.md", "three") })
		step("another user's upload", 0, 0, func() { knowledge.MustUpload(t, tree, bob, "kb://me/w/", "a.md", "bob") })
		step("folder upload", 1, 1, func() {
			var staged []knowledge.Staged
			for _, p := range []string{"x/y.md", "inner/z.md"} {
				s, err := tree.StagePath(p, true, strings.NewReader(p))
				if err != nil {
					t.Fatal(err)
				}
				staged = append(staged, s)
			}
			if _, err := tree.CommitUpload(ctx, alice, "kb://me/w/", staged, knowledge.ConflictFail); err != nil {
				t.Fatal(err)
			}
		})
		step("import", 1, 0, func() {
			s, err := tree.StagePath("doc.md", true, strings.NewReader("imported"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tree.CommitImport(ctx, alice, knowledge.Import{Target: "kb://me/w/", Top: "archive", Files: []knowledge.Staged{s}}); err != nil {
				t.Fatal(err)
			}
		})
		step("replace", 1, 0, func() {
			it := knowledge.MustUpload(t, tree, alice, "kb://me/w/", "a.md", "one, changed")
			vs, err := trash.New(tree).Versions(ctx, alice, it.URI)
			if err != nil || len(vs) < 2 {
				t.Fatalf("versions %v %v", vs, err)
			}
			upVersion = vs[len(vs)-1].ID
		})
		step("restore a version", 1, 0, func() {
			if _, err := trash.New(tree).RestoreVersion(ctx, alice, "kb://me/w/a.md", upVersion); err != nil {
				t.Fatal(err)
			}
		})
		step("move in", 1, 0, func() {
			if _, err := tree.Move(ctx, alice, "kb://me/out/c.md", "kb://me/w/c.md"); err != nil {
				t.Fatal(err)
			}
		})
		step("move between two folders kept compiled", 1, 1, func() {
			if _, err := tree.Move(ctx, alice, "kb://me/w/c.md", "kb://me/w/inner/c.md"); err != nil {
				t.Fatal(err)
			}
		})
		step("move away", 0, 1, func() {
			if _, err := tree.Move(ctx, alice, "kb://me/w/inner/c.md", "kb://me/out/c.md"); err != nil {
				t.Fatal(err)
			}
		})
		step("delete", 1, 0, func() {
			if err := tree.Delete(ctx, alice, "kb://me/w/a.md"); err != nil {
				t.Fatal(err)
			}
		})
		step("restore from the trash", 1, 0, func() {
			tr, err := trash.New(tree).ListTrash(ctx, alice)
			if err != nil || len(tr) == 0 {
				t.Fatalf("trash %v %v", tr, err)
			}
			if _, err := trash.New(tree).RestoreTrash(ctx, alice, tr[0].ID); err != nil {
				t.Fatal(err)
			}
		})
		step("mkdir", 0, 0, func() {
			if _, err := tree.Mkdir(ctx, alice, "kb://me/w/empty/"); err != nil {
				t.Fatal(err)
			}
		})
		// A folder kept compiled goes to the trash with its setting and
		// comes back kept compiled, nested ones too, with their choices.
		if err := tree.Store().PutAutoCompile(ctx, &store.AutoCompile{UserID: alice.ID, NodeID: inner,
			RequestJSON: `{"executor":"llm","model_id":"m"}`, QuietS: 7}); err != nil {
			t.Fatal(err)
		}
		if err := tree.Delete(ctx, alice, "kb://me/w/"); err != nil {
			t.Fatal(err)
		}
		if got, _ := tree.Store().AutoCompiled(ctx, []int64{w, inner}); len(got) != 0 {
			t.Fatalf("deleted folders still kept compiled: %v", got)
		}
		tr, err := trash.New(tree).ListTrash(ctx, alice)
		if err != nil || len(tr) == 0 || tr[0].URI != "kb://users/alice/w/" {
			t.Fatalf("trash %v %v", tr, err)
		}
		if _, err := trash.New(tree).RestoreTrash(ctx, alice, tr[0].ID); err != nil {
			t.Fatal(err)
		}
		for path, want := range map[string]store.AutoCompile{"w": {RequestJSON: "{}", QuietS: 5},
			"w/inner": {RequestJSON: `{"executor":"llm","model_id":"m"}`, QuietS: 7}} {
			n, err := tree.Store().NodeByPath(ctx, alice.ID, path)
			if err != nil {
				t.Fatal(err)
			}
			a, err := tree.Store().AutoCompileOf(ctx, alice.ID, n.ID)
			if err != nil || a.RequestJSON != want.RequestJSON || a.QuietS != want.QuietS || a.DueAt == nil {
				t.Fatalf("restored %s: %+v %v; want kept compiled with %+v and due", path, a, err, want)
			}
			if path == "w" {
				w = n.ID
			}
		}
		a, _ := tree.Store().AutoCompileOf(ctx, alice.ID, w)
		if a.DueAt == nil || a.ChangedAt == nil || a.DueAt.Sub(*a.ChangedAt).Seconds() != 5 {
			t.Fatalf("due time is not the last change plus the quiet period: %+v", a)
		}
		// Listings say which folders are kept compiled.
		l, err := tree.List(ctx, alice, "kb://me/w/", 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range l.Items {
			if want := it.Name == "inner"; it.AutoCompile != want {
				t.Fatalf("%s auto_compile = %v", it.Name, it.AutoCompile)
			}
		}
	})
}
