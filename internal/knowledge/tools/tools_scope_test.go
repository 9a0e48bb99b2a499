package tools

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestToolScopeEscapes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		e.put(e.alice, "kb://me/notes/", "a.md", []byte("alpha"))
		e.put(e.alice, "kb://me/notes/", "b.md", []byte("beta"))
		e.put(e.alice, "kb://me/notes/sub/", "c.md", []byte("gamma"))
		e.put(e.alice, "kb://me/notes-x/", "d.md", []byte("delta"))
		e.put(e.alice, "kb://me/", "top.md", []byte("top"))
		e.put(e.bob, "kb://me/notes/", "a.md", []byte("bob's"))

		cases := []struct {
			name, scope, tool, uri string
			code                   string // "" means allowed
		}{
			{"scope itself", "kb://users/alice/notes/", "ls", "kb://users/alice/notes/", ""},
			{"child via me alias", "kb://users/alice/notes/", "read", "kb://me/notes/a.md", ""},
			{"grandchild", "kb://me/notes/", "read", "kb://users/alice/notes/sub/c.md", ""},
			{"upper-case user name", "kb://me/notes/", "ls", "kb://users/ALICE/notes/sub/", ""},
			{"scope without slash", "kb://me/notes", "ls", "kb://me/notes/sub", ""},
			{"parent", "kb://me/notes/", "ls", "kb://me/", "outside_scope"},
			{"personal-root alias", "kb://me/notes/", "ls", "kb://users/", "outside_scope"},
			{"bare me alias", "kb://me/notes/", "ls", "kb://me", "outside_scope"},
			{"sibling file", "kb://me/notes/", "read", "kb://me/top.md", "outside_scope"},
			{"sibling sharing a prefix", "kb://me/notes/", "ls", "kb://me/notes-x/", "outside_scope"},
			{"other user same path", "kb://me/notes/", "read", "kb://users/bob/notes/a.md", "outside_scope"},
			{"other user missing path", "kb://me/notes/", "ls", "kb://users/bob/nothing/", "outside_scope"},
			{"dot segments", "kb://me/notes/", "read", "kb://me/notes/../top.md", "invalid_uri"},
			{"encoded separator", "kb://me/notes/", "read", "kb://me/notes%2F..%2Ftop.md", "invalid_uri"},
			{"missing inside scope", "kb://me/notes/", "read", "kb://me/notes/zzz.md", "not_found"},
			{"file scope itself", "kb://me/notes/a.md", "read", "kb://me/notes/a.md", ""},
			{"file scope parent", "kb://me/notes/a.md", "ls", "kb://me/notes/", "outside_scope"},
			{"file scope sibling", "kb://me/notes/a.md", "read", "kb://me/notes/b.md", "outside_scope"},
			{"file scope below itself", "kb://me/notes/a.md", "read", "kb://me/notes/a.md/x", "outside_scope"},
			{"root scope reaches everything", "kb://users/", "read", "kb://me/notes-x/d.md", ""},
			{"root scope not other users", "kb://users/", "read", "kb://users/bob/notes/a.md", "outside_scope"},
			{"other user's scope", "kb://users/bob/notes/", "ls", "kb://users/bob/notes/", "scope_not_found"},
			{"malformed scope", "notes/", "ls", "kb://me/notes/", "invalid_uri"},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				_, err := e.run(e.alice, tc.scope, tc.tool, map[string]any{"uri": tc.uri})
				if tc.code == "" {
					if err != nil {
						t.Fatalf("want allowed, got %v", err)
					}
					return
				}
				wantToolErr(t, err, tc.code)
			})
		}
	})
}

func TestToolScopeMessages(t *testing.T) {
	e := newToolEnv(t, "sqlite")
	e.put(e.alice, "kb://me/notes/", "a.md", []byte("alpha"))
	_, err := e.run(e.alice, "kb://me/notes/", "ls", `{"uri":"kb://me/"}`)
	wantToolErr(t, err, "outside_scope", "kb://me/ is outside the scope", "kb://users/alice/notes/ and what is below it")
	_, err = e.run(e.alice, "kb://me/notes/a.md", "ls", `{"uri":"kb://me/notes/"}`)
	wantToolErr(t, err, "outside_scope", "about the file kb://users/alice/notes/a.md alone")
}

func TestToolNodeDeletedBetweenCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		ctx := context.Background()
		a := e.put(e.alice, "kb://me/notes/", "a.md", []byte("alpha"))
		e.put(e.alice, "kb://me/notes/", "b.md", []byte("beta"))

		e.mustRun(e.alice, "kb://me/notes/", "read", map[string]any{"uri": a})
		if err := e.tree.Delete(ctx, e.alice, a); err != nil {
			t.Fatal(err)
		}
		_, err := e.run(e.alice, "kb://me/notes/", "read", map[string]any{"uri": a})
		wantToolErr(t, err, "not_found", "may have been deleted, moved or renamed")

		// A file scope whose file is deleted: every call names the scope.
		_, err = e.run(e.alice, a, "read", map[string]any{"uri": a})
		wantToolErr(t, err, "scope_not_found", "no longer exists")

		// The scope folder moved away.
		e.mustRun(e.alice, "kb://me/notes/", "ls", `{"uri":"kb://me/notes/"}`)
		if _, err := e.tree.Move(ctx, e.alice, "kb://me/notes/", "kb://me/renamed/"); err != nil {
			t.Fatal(err)
		}
		_, err = e.run(e.alice, "kb://me/notes/", "ls", `{"uri":"kb://me/notes/"}`)
		wantToolErr(t, err, "scope_not_found", "deleted, moved or renamed")

		// A pinned scope notices a different node now at its path.
		sc, err := e.tree.OpenScope(ctx, e.alice, "kb://me/renamed/")
		if err != nil {
			t.Fatal(err)
		}
		args := toolArgsJSON(t, `{"uri":"kb://me/renamed/"}`)
		if _, err := e.tree.RunScopedTool(ctx, e.alice, sc, "ls", args); err != nil {
			t.Fatal(err)
		}
		if err := e.tree.Delete(ctx, e.alice, "kb://me/renamed/"); err != nil {
			t.Fatal(err)
		}
		e.mkdir(e.alice, "kb://me/renamed/")
		_, err = e.tree.RunScopedTool(ctx, e.alice, sc, "ls", args)
		wantToolErr(t, err, "scope_not_found", "replaced by another resource")
	})
}
