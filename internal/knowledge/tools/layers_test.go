package tools

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/share"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// publishLayers writes what a compile of the folder src (in owner's tree,
// for c) publishes into outPath, the way the compile pipeline does: one
// summary per file with its source's hash, then the overview and abstract.
func (e *toolEnv) publishLayers(c, owner kb.Caller, src, outPath string, files []string, abstract string) {
	e.t.Helper()
	ctx := context.Background()
	var gen []knowledge.GeneratedFile
	for _, name := range files {
		n, err := e.st.NodeByPath(ctx, owner.ID, path.Join(src, name))
		if err != nil {
			e.t.Fatal(err)
		}
		v, err := e.st.LatestVersion(ctx, n.ID, store.BodyRaw)
		if err != nil {
			e.t.Fatal(err)
		}
		gen = append(gen, knowledge.GeneratedFile{Name: name, Text: "---\ngenerated: true\nrole: summary\n---\n\nSummary of " + name + "\n",
			Provenance: store.Provenance{Role: store.RoleSummary, SourceNodeID: &n.ID, SourceHash: v.BlobHash, Fingerprint: "f" + name, SourcesJSON: "[]"}})
	}
	gen = append(gen,
		knowledge.GeneratedFile{Name: knowledge.OverviewName, Text: "---\nrole: overview\n---\n\n# Overview\n",
			Provenance: store.Provenance{Role: store.RoleOverview, Fingerprint: "o", SourcesJSON: "[]"}},
		knowledge.GeneratedFile{Name: knowledge.AbstractName, Text: "---\nrole: abstract\n---\n\n" + abstract + "\n",
			Provenance: store.Provenance{Role: store.RoleAbstract, Fingerprint: "o", SourcesJSON: "[]"}})
	if _, err := e.tree.Publish(ctx, c, outPath, gen, nil); err != nil {
		e.t.Fatal(err)
	}
}

func lsItem(t *testing.T, r ToolResult, name string) knowledge.Item {
	t.Helper()
	for _, it := range r.Value.(*LsResult).Items {
		if it.Name == name {
			return it
		}
	}
	t.Fatalf("no %s in %s", name, r.JSON)
	return knowledge.Item{}
}

func TestToolLsLayersOfCompiledFolder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", "a.md", []byte("alpha"))
		e.put(e.alice, "kb://me/d/", "b.txt", []byte("beta"))
		e.mkdir(e.alice, "kb://me/plain/")
		long := strings.Repeat("Contracts and invoices of 2026. ", 20)
		e.publishLayers(e.alice, e.alice, "d", "wiki/d", []string{"a.md", "b.txt"}, long)

		r := e.mustRun(e.alice, "kb://me/", "ls", map[string]any{"uri": "kb://me/"})
		d := lsItem(t, r, "d")
		if d.OverviewURI != "kb://users/alice/wiki/d/.overview.md" || utf8.RuneCountInString(d.Abstract) != knowledge.MaxAbstractChars ||
			!strings.HasPrefix(d.Abstract, "Contracts and invoices of 2026.") || !strings.HasSuffix(d.Abstract, "…") {
			t.Fatalf("compiled folder %+v", d)
		}
		if p := lsItem(t, r, "plain"); p.Abstract != "" || p.OverviewURI != "" {
			t.Fatalf("uncompiled folder %+v", p)
		}
		// The generated folder carries its own digests too.
		if w := lsItem(t, e.mustRun(e.alice, "kb://me/", "ls", map[string]any{"uri": "kb://me/wiki/"}), "d"); w.OverviewURI != d.OverviewURI {
			t.Fatalf("wiki folder %+v", w)
		}

		r = e.mustRun(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/"})
		a := lsItem(t, r, "a.md")
		if a.SummaryURI != "kb://users/alice/wiki/d/a.md" || a.Stale == nil || *a.Stale {
			t.Fatalf("summarized file %+v", a)
		}
		e.put(e.alice, "kb://me/d/", "a.md", []byte("alpha, changed"))
		r = e.mustRun(e.alice, "kb://me/d/", "ls", map[string]any{"uri": "kb://me/d/"})
		if a = lsItem(t, r, "a.md"); a.Stale == nil || !*a.Stale {
			t.Fatalf("changed file %+v", a)
		}
		if !strings.Contains(string(r.JSON), `"stale":true`) || !strings.Contains(string(r.JSON), `"stale":false`) {
			t.Fatalf("stale flags in %s", r.JSON)
		}

		// The API listing the tree uses carries the same fields.
		l, err := e.tree.List(context.Background(), e.alice, "kb://me/", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range l.Items {
			if it.Name == "d" && it.OverviewURI != d.OverviewURI {
				t.Fatalf("listing %+v", it)
			}
		}
	})
}

func TestToolLsLayersOfSharedFolderAreTheGrantees(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		e.put(e.alice, "kb://me/team/d/", "a.md", []byte("alpha"))
		if _, err := share.New(e.tree.Tree).Share(context.Background(), e.alice, share.Request{URI: "kb://me/team/", User: "bob", Role: "read"}); err != nil {
			t.Fatal(err)
		}
		// Alice's own compile of d is hers; Bob's lands in his wiki/shared/alice/.
		e.publishLayers(e.alice, e.alice, "team/d", "wiki/team/d", []string{"a.md"}, "Alice's digest")
		r := e.mustRun(e.bob, "kb://users/alice/team/", "ls", map[string]any{"uri": "kb://users/alice/team/"})
		if d := lsItem(t, r, "d"); d.Abstract != "" || d.OverviewURI != "" {
			t.Fatalf("bob sees alice's layers: %+v", d)
		}
		e.publishLayers(e.bob, e.alice, "team/d", "wiki/shared/alice/team/d", []string{"a.md"}, "Bob's digest")
		r = e.mustRun(e.bob, "kb://users/alice/team/", "ls", map[string]any{"uri": "kb://users/alice/team/"})
		if d := lsItem(t, r, "d"); d.Abstract != "Bob's digest" || d.OverviewURI != "kb://users/bob/wiki/shared/alice/team/d/.overview.md" {
			t.Fatalf("bob's layers: %+v", d)
		}
		r = e.mustRun(e.alice, "kb://me/team/", "ls", map[string]any{"uri": "kb://me/team/"})
		if d := lsItem(t, r, "d"); d.Abstract != "Alice's digest" {
			t.Fatalf("alice's layers: %+v", d)
		}
		// The entries of kb://shared/ carry the grantee's layers too.
		e.publishLayers(e.bob, e.alice, "team", "wiki/shared/alice/team", nil, "Team digest")
		l, err := e.tree.List(context.Background(), e.bob, kb.SharedURI, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 1 || l.Items[0].Abstract != "Team digest" || l.Items[0].OverviewURI != "kb://users/bob/wiki/shared/alice/team/.overview.md" {
			t.Fatalf("shared entries %+v", l.Items)
		}
	})
}

// A page of the most folders ls returns, each with the longest abstract,
// in a script of three bytes a character, still fits one tool result.
func TestToolLsLayersPageFitsCeiling(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		for i := range MaxToolListLimit {
			name := fmt.Sprintf("folder-%03d", i)
			e.mkdir(e.alice, "kb://me/p/"+name+"/")
			e.put(e.alice, "kb://me/p/"+name+"/", "a.md", []byte("x"))
			e.publishLayers(e.alice, e.alice, "p/"+name, "wiki/p/"+name, nil, strings.Repeat("合同", knowledge.MaxAbstractChars))
		}
		r := e.mustRun(e.alice, "kb://me/p/", "ls", map[string]any{"uri": "kb://me/p/", "limit": MaxToolListLimit})
		l := r.Value.(*LsResult)
		if len(l.Items) != MaxToolListLimit || len(r.JSON) > MaxToolResultBytes || !strings.Contains(l.Note, "shortened") {
			t.Fatalf("%d items, %d bytes, note %q", len(l.Items), len(r.JSON), l.Note)
		}
		for _, it := range l.Items {
			if it.Abstract == "" || !strings.HasPrefix(it.Abstract, "合同") || it.OverviewURI == "" {
				t.Fatalf("item %+v", it)
			}
		}
		t.Logf("page of %d folders: %d bytes, abstracts of %d characters", len(l.Items), len(r.JSON), utf8.RuneCountInString(l.Items[0].Abstract))
		// A small page keeps whole abstracts and says nothing.
		r = e.mustRun(e.alice, "kb://me/p/", "ls", map[string]any{"uri": "kb://me/p/", "limit": 5})
		if l = r.Value.(*LsResult); l.Note != "" || utf8.RuneCountInString(l.Items[0].Abstract) != knowledge.MaxAbstractChars {
			t.Fatalf("small page note %q abstract %d", l.Note, utf8.RuneCountInString(l.Items[0].Abstract))
		}
	})
}

func TestToolStatusCoverageAfterChangeAndFailure(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		ctx := context.Background()
		for _, name := range []string{"a.md", "b.md", "c.md", "d.md"} {
			e.put(e.alice, "kb://me/d/", name, []byte(name))
		}
		e.put(e.alice, "kb://me/d/sub/", "e.md", []byte("e"))
		e.put(e.alice, "kb://me/other/", "f.md", []byte("f"))
		e.publishLayers(e.alice, e.alice, "d", "wiki/d", []string{"a.md", "b.md", "c.md"}, "digest")
		coverage := func() store.Coverage {
			t.Helper()
			return e.mustRun(e.alice, "kb://me/d/", "status", map[string]any{"uri": "kb://me/d/"}).Value.(*StatusResult).Coverage
		}
		if got, want := coverage(), (store.Coverage{Files: 5, Fresh: 3, Never: 2}); got != want {
			t.Fatalf("after compile %+v, want %+v", got, want)
		}
		// a.md changes; b.md's recompile fails; d.md is being compiled.
		e.put(e.alice, "kb://me/d/", "a.md", []byte("a, changed"))
		for _, name := range []string{"b.md", "d.md"} {
			n, err := e.st.NodeByPath(ctx, e.alice.ID, "d/"+name)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := e.st.EnqueueJob(ctx, &store.Job{UserID: e.alice.ID, Kind: "wiki_compile", NodeID: &n.ID, Path: n.Path, MaxAttempts: 1}); err != nil {
				t.Fatal(err)
			}
		}
		j, err := e.st.ClaimJob(ctx, "w", 60e9)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.st.FailJob(ctx, j.ID, "w", "model_error", "the model failed", false, 0); err != nil {
			t.Fatal(err)
		}
		if got, want := coverage(), (store.Coverage{Files: 5, Fresh: 1, Stale: 1, Failed: 1, Compiling: 1, Never: 1}); got != want {
			t.Fatalf("after change and failure %+v, want %+v", got, want)
		}
		r := e.mustRun(e.alice, "kb://me/d/", "status", map[string]any{"uri": "kb://me/d/a.md"})
		if got := r.Value.(*StatusResult).Coverage; got != (store.Coverage{Files: 1, Stale: 1}) {
			t.Fatalf("one file %+v", got)
		}
		// Bob compiled nothing of his own: his coverage of his tree is empty.
		e.put(e.bob, "kb://me/", "x.md", []byte("x"))
		r = e.mustRun(e.bob, "kb://me/", "status", map[string]any{"uri": "kb://me/"})
		if got := r.Value.(*StatusResult).Coverage; got != (store.Coverage{Files: 1, Never: 1}) {
			t.Fatalf("bob %+v", got)
		}
		// The whole tree leaves out the generated wiki/.
		r = e.mustRun(e.alice, "kb://me/", "status", map[string]any{"uri": "kb://me/"})
		if got := r.Value.(*StatusResult).Coverage; got.Files != 6 {
			t.Fatalf("whole tree %+v", got)
		}
	})
}

// A folder scope reaches the caller's own layers of it, so the overview ls
// points at can be read, and nothing else outside it.
func TestToolScopeReachesTheCallersLayersOfIt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		e.put(e.alice, "kb://me/team/d/", "a.md", []byte("alpha"))
		e.put(e.alice, "kb://me/other/", "b.md", []byte("beta"))
		if _, err := share.New(e.tree.Tree).Share(context.Background(), e.alice, share.Request{URI: "kb://me/team/", User: "bob", Role: "read"}); err != nil {
			t.Fatal(err)
		}
		e.publishLayers(e.alice, e.alice, "team/d", "wiki/team/d", []string{"a.md"}, "Alice's digest")
		e.publishLayers(e.alice, e.alice, "other", "wiki/other", []string{"b.md"}, "Other digest")
		e.publishLayers(e.bob, e.alice, "team/d", "wiki/shared/alice/team/d", []string{"a.md"}, "Bob's digest")

		ls := e.mustRun(e.alice, "kb://me/team/", "ls", map[string]any{"uri": "kb://me/team/"})
		ov := lsItem(t, ls, "d").OverviewURI
		if r := e.mustRun(e.alice, "kb://me/team/", "read", map[string]any{"uri": ov}); !strings.Contains(r.Value.(*ReadResult).Text, "# Overview") {
			t.Fatalf("overview %s", r.JSON)
		}
		sum := lsItem(t, e.mustRun(e.alice, "kb://me/team/", "ls", map[string]any{"uri": "kb://me/team/d/"}), "a.md").SummaryURI
		e.mustRun(e.alice, "kb://me/team/", "read", map[string]any{"uri": sum})
		_, err := e.run(e.alice, "kb://me/team/", "read", map[string]any{"uri": "kb://me/wiki/other/.overview.md"})
		wantToolErr(t, err, "outside_scope")
		_, err = e.run(e.alice, "kb://me/team/", "ls", map[string]any{"uri": "kb://me/wiki/"})
		wantToolErr(t, err, "outside_scope")

		// Bob, in the folder shared with him, reaches his layers, not Alice's.
		ov = lsItem(t, e.mustRun(e.bob, "kb://users/alice/team/", "ls", map[string]any{"uri": "kb://users/alice/team/"}), "d").OverviewURI
		if ov != "kb://users/bob/wiki/shared/alice/team/d/.overview.md" {
			t.Fatalf("bob's overview %s", ov)
		}
		e.mustRun(e.bob, "kb://users/alice/team/", "read", map[string]any{"uri": ov})
		_, err = e.run(e.bob, "kb://users/alice/team/", "read", map[string]any{"uri": "kb://users/alice/wiki/team/d/.overview.md"})
		wantToolErr(t, err, "outside_scope")
	})
}
