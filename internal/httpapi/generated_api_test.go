package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// A generated file's bytes and place are the compiler's: through REST an
// upload over one, a rename, a move or a version restore is refused with
// generated_read_only and leaves the file and its provenance as they were;
// deleting one goes to the trash; copying one gives an ordinary file.
func TestGeneratedFilesAreReadOnly(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		e := newEnv(t, dialect)
		_, bob := e.newUser("bob")
		ctx := context.Background()
		u, err := e.Store.UserByUsername(ctx, "bob")
		if err != nil {
			t.Fatal(err)
		}
		c := kb.Caller{ID: u.ID, Username: u.Username}
		e.mustUpload(bob, "kb://me/notes/", upFile{"a.md", []byte("# A\n")})
		src, err := e.Store.NodeByPath(ctx, u.ID, "notes/a.md")
		if err != nil {
			t.Fatal(err)
		}
		publish := func(text string) store.Node {
			t.Helper()
			ns, err := e.Tree.Publish(ctx, c, "wiki/notes", []knowledge.GeneratedFile{{Name: "a.md.md", Text: text,
				Provenance: store.Provenance{Role: store.RoleSummary, SourceNodeID: &src.ID, SourceHash: "h", Model: "m"}}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			return ns[0]
		}
		publish("first summary")
		summary := publish("the summary")
		const uri = "kb://users/bob/wiki/notes/a.md.md"

		unchanged := func(t *testing.T) {
			t.Helper()
			if got := string(e.raw(bob, uri)); got != "the summary" {
				t.Fatalf("summary bytes now %q", got)
			}
			p, err := e.Store.ProvenanceOf(ctx, summary.ID)
			if err != nil || p.Model != "m" || p.SourceNodeID == nil || *p.SourceNodeID != src.ID {
				t.Fatalf("provenance now %+v %v", p, err)
			}
			n, err := e.Store.NodeByPath(ctx, u.ID, "wiki/notes/a.md.md")
			if err != nil || n.ID != summary.ID || !n.Generated {
				t.Fatalf("summary node now %+v %v", n, err)
			}
		}
		refused := func(t *testing.T, r resp) {
			t.Helper()
			wantErr(t, r, http.StatusForbidden, "generated_read_only")
			if _, msg, _ := r.APIError(); !strings.Contains(msg, "copy") {
				t.Fatalf("message does not say to copy it: %q", msg)
			}
			unchanged(t)
		}
		first := e.versions(bob, uri)[1].ID

		t.Run("upload over", func(t *testing.T) {
			refused(t, e.uploadMode(bob, "kb://me/wiki/notes/", "replace", upFile{"a.md.md", []byte("my edit")}))
		})
		t.Run("rename", func(t *testing.T) {
			refused(t, e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{"uri": uri, "new_uri": "kb://me/wiki/notes/b.md"}))
		})
		t.Run("move out", func(t *testing.T) {
			refused(t, e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{"uri": uri, "new_uri": "kb://me/notes/a-summary.md"}))
		})
		t.Run("move its folder", func(t *testing.T) {
			refused(t, e.do(http.MethodPatch, "/api/v1/resources", bob, map[string]string{"uri": "kb://me/wiki/", "new_uri": "kb://me/old-wiki/"}))
		})
		t.Run("restore a version", func(t *testing.T) {
			refused(t, e.do(http.MethodPost, "/api/v1/resources/versions/restore", bob, map[string]any{"uri": uri, "version_id": first}))
		})
		t.Run("copy to edit", func(t *testing.T) {
			var it itemJSON
			e.mustOK(e.do(http.MethodPost, "/api/v1/resources/copy", bob, map[string]string{"uri": uri}), http.StatusCreated, &it)
			if it.URI != "kb://users/bob/a.md (copy).md" || it.Generated {
				t.Fatalf("copy %+v", it)
			}
			if got := string(e.raw(bob, it.URI)); got != "the summary" {
				t.Fatalf("copy holds %q", got)
			}
			n, err := e.Store.NodeByPath(ctx, u.ID, "a.md (copy).md")
			if err != nil || n.Generated {
				t.Fatalf("copy node %+v %v", n, err)
			}
			if _, err := e.Store.ProvenanceOf(ctx, n.ID); err == nil {
				t.Fatal("the copy has provenance")
			}
			// The copy is the user's: it takes a new version like any file.
			e.mustOK(e.uploadMode(bob, "kb://me/", "replace", upFile{"a.md (copy).md", []byte("my edit")}), http.StatusCreated, nil)
			e.mustOK(e.do(http.MethodPost, "/api/v1/resources/copy", bob, map[string]string{"uri": uri}), http.StatusCreated, &it)
			if it.URI != "kb://users/bob/a.md (copy 2).md" {
				t.Fatalf("second copy %+v", it)
			}
			unchanged(t)
		})
		t.Run("delete", func(t *testing.T) {
			if r := e.do(http.MethodDelete, q("/api/v1/resources", uri), bob, nil); r.Status != http.StatusNoContent {
				t.Fatalf("delete: %s", r)
			}
			found := false
			for _, it := range e.trash(bob) {
				found = found || it.URI == uri
			}
			if !found {
				t.Fatalf("trash %+v", e.trash(bob))
			}
		})
	})
}
