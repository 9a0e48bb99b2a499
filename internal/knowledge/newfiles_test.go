package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestImportIntoNewFolders: the files an import puts in folders it made
// are written together — the commit's statements do not grow with the
// files — and each is stored exactly as when it lands in a folder that
// exists: its versions, its decoded text and encoding, its marks for
// extraction and for the index.
func TestImportIntoNewFolders(t *testing.T) {
	man, err := os.ReadFile("../extract/testdata/gz/ls.1.gz")
	if err != nil {
		t.Fatal(err)
	}
	gbk, err := os.ReadFile("../extract/testdata/enc/zh-hans.gbk.txt")
	if err != nil {
		t.Fatal(err)
	}
	same := func(body string) func(int) string { return func(int) string { return body } }
	kinds := []struct {
		name string
		body func(i int) string
	}{
		{"note%d.md", func(i int) string { return fmt.Sprintf("# note %d\nplain text", i) }},
		{"ls%d.1.gz", same(string(man))},
		{"notes%d.txt", same(string(gbk))},
		{"paper%d.pdf", func(i int) string { return fmt.Sprintf("%%PDF-1.4 parsed by the extraction worker %d", i) }},
		{"image%d.png", func(i int) string { return fmt.Sprintf("\x89PNG\r\n\x1a\n\x00\x00%d", i) }},
	}
	storetest.Each(t, func(t *testing.T, dialect string) {
		t.Parallel()
		ctx := context.Background()
		tree, cs, _ := newTestTree(t, dialect, "alice")
		a := cs[0]
		tree.AutoExtract(func() {})
		counter, err := tree.st.CountStatements()
		if err != nil {
			t.Fatal(err)
		}
		rels := func(n int) []string {
			var out []string
			for i := range n {
				out = append(out, fmt.Sprintf("d%d/"+kinds[i%len(kinds)].name, i%3, i))
			}
			return out
		}
		stage := func(n int) []Staged {
			var out []Staged
			for i, rel := range rels(n) {
				s, err := tree.StagePath(rel, true, strings.NewReader(kinds[i%len(kinds)].body(i)))
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, s)
			}
			return out
		}
		commit := func(im Import) int64 {
			t.Helper()
			n0 := counter.Count()
			if _, err := tree.CommitImport(ctx, a, im); err != nil {
				t.Fatal(err)
			}
			return counter.Count() - n0
		}
		small := commit(Import{Target: "kb://me/", Top: "small", Files: stage(10)})
		large := commit(Import{Target: "kb://me/", Top: "large", Files: stage(250)})
		if large-small > 20 {
			t.Fatalf("an import of 250 files into new folders took %d statements, one of 10 took %d: the commit grows with the files", large, small)
		}
		t.Logf("statements: %d for 10 files, %d for 250", small, large)

		// A file where the import also needs a folder fails as it did
		// one file at a time, whichever comes first, and leaves nothing.
		for _, order := range [][]string{{"x", "x/y.md"}, {"x/y.md", "x"}} {
			var files []Staged
			for _, rel := range order {
				s, err := tree.StagePath(rel, true, strings.NewReader(rel))
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, s)
			}
			_, err := tree.CommitImport(ctx, a, Import{Target: "kb://me/", Top: "odd", Files: files})
			if e, ok := apierr.As(err); !ok || e.Status != 409 {
				t.Fatalf("import of %v: %v, want a conflict", order, err)
			}
			if _, err := tree.st.NodeByPath(ctx, a.ID, "odd"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("import of %v left its folder: %v", order, err)
			}
		}

		// The same files, one at a time into folders that exist.
		for _, d := range []string{"old/", "old/d0/", "old/d1/", "old/d2/"} {
			if _, err := tree.Mkdir(ctx, a, "kb://me/"+d); err != nil {
				t.Fatal(err)
			}
		}
		commit(Import{Target: "kb://me/old/", Files: stage(10)})
		for _, rel := range rels(10) {
			got, want := storedAs(t, tree, a.ID, "small/"+rel), storedAs(t, tree, a.ID, "old/"+rel)
			if got != want {
				t.Errorf("%s in a new folder:\n%s\nin a folder that exists:\n%s", rel, got, want)
			}
		}
	})
}

// storedAs spells what the tree holds of the file at p, without ids and
// times.
func storedAs(t *testing.T, tree *Tree, userID int64, p string) string {
	t.Helper()
	ctx := context.Background()
	n, err := tree.st.NodeByPath(ctx, userID, p)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	bodies, err := tree.st.LatestBodies(ctx, []int64{n.ID})
	if err != nil {
		t.Fatal(err)
	}
	out := fmt.Sprintf("node %s %s size %d generated %v\n", n.Name, n.Kind, n.Size, n.Generated)
	for _, body := range []string{store.BodyRaw, store.BodyL2} {
		v, ok := bodies[n.ID][body]
		if !ok {
			continue
		}
		from := "-"
		if v.SourceVersionID != nil {
			from = "raw"
			if *v.SourceVersionID != bodies[n.ID][store.BodyRaw].ID {
				from = "another version"
			}
		}
		how := ""
		if v.ExtractionJSON != nil {
			how = *v.ExtractionJSON
		}
		out += fmt.Sprintf("%s v%d %s size %d text %v chars %d %q enc %q from %s author %v how %s\n", body, v.Version, v.BlobHash[:12],
			v.Size, v.IsText, v.CharCount, v.MediaType, v.Encoding, from, v.AuthorID, how)
	}
	docs, err := tree.st.SearchDocs(ctx, []int64{n.ID})
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := docs[n.ID]; ok {
		text, _ := TextBody(bodies[n.ID])
		out += fmt.Sprintf("index: pending %v indexed %v of the text body %v\n", d.Pending, d.Indexed, d.VersionID == text.ID)
	}
	exs, err := tree.st.ExtractionsOf(ctx, []int64{n.ID})
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := exs[n.ID]; ok {
		out += fmt.Sprintf("extraction: %s of the upload %v\n", e.State, e.VersionID == bodies[n.ID][store.BodyRaw].ID)
	}
	return out
}
