package compile

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store"
)

func TestCompilePublishesSummaryOverviewAbstract(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/notes/", map[string][]byte{"a.md": []byte("# Alpha\nalpha text"), "b.txt": []byte("beta text")})
		res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/notes/a.md", "kb://me/notes/b.txt"}})
		if len(res.Jobs) != 2 || len(res.Rejected) != 0 {
			t.Fatalf("enqueue: %+v", res)
		}
		e.start(1)
		for _, j := range res.Jobs {
			done := e.wait(e.alice, j.ID, store.JobSucceeded, store.JobFailed)
			if done.State != store.JobSucceeded || done.Progress != 1 || done.Attempts != 1 {
				t.Fatalf("job %+v error %+v", done, done.Error)
			}
		}
		sum := e.read(e.alice, "kb://me/wiki/notes/a.md")
		for _, want := range []string{"---\ngenerated: true\nrole: summary", `uri: "kb://users/alice/notes/a.md"`,
			"sha256: ", "executor: llm", `model: "fake"`, `skill: "concise"`, `skill_id: "builtin:concise"`, "skill_hash: " + skill.Hash(skill.Builtins()[0].Prompt), "prompt_version: ", "job_id: ",
			"generated: Summarize the document kb://users/alice/notes/a.md."} {
			if !strings.Contains(sum, want) {
				t.Fatalf("summary lacks %q:\n%s", want, sum)
			}
		}
		if !e.exists(e.alice, "kb://me/wiki/notes/b.txt.md") {
			t.Fatal("b.txt has no summary")
		}
		ov := e.read(e.alice, "kb://me/wiki/notes/.overview.md")
		ab := e.read(e.alice, "kb://me/wiki/notes/.abstract.md")
		if !strings.Contains(ov, "role: overview") || !strings.Contains(ov, "generated: Write the overview") ||
			!strings.Contains(ov, "kb://users/alice/wiki/notes/a.md") || !strings.Contains(ab, "generated: Write the abstract") {
			t.Fatalf("overview:\n%s\nabstract:\n%s", ov, ab)
		}
		// Published files are generated; the text source got its L2 body.
		l, err := e.tree.List(context.Background(), e.alice, "kb://me/wiki/notes/", 0, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range l.Items {
			if !it.Generated {
				t.Fatalf("%s not marked generated", it.URI)
			}
		}
		p, _ := e.tree.ReadPage(context.Background(), e.alice, "kb://me/notes/a.md", 0, 100)
		if p.Body != "l2" || p.Text != "# Alpha\nalpha text" {
			t.Fatalf("l2 page %+v", p)
		}
		// 2 summaries + overview and abstract at least once; no more than
		// once per job.
		if n := e.chatCount(); n < 4 || n > 6 {
			t.Fatalf("model calls = %d", n)
		}
		// Bob sees none of it.
		if e.exists(e.bob, "kb://users/alice/wiki/notes/a.md") {
			t.Fatal("bob sees alice's summary")
		}
	})
}

func TestFingerprintSkipsModelWhenNothingChanged(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("same")})
		e.start(1)
		first := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
		e.wait(e.alice, first.ID, store.JobSucceeded)
		calls := e.chatCount()
		if calls != 3 {
			t.Fatalf("first compile made %d calls, want 3", calls)
		}
		before := e.read(e.alice, "kb://me/wiki/d/a.md")
		second := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
		if second.ID == first.ID {
			t.Fatal("a finished job was returned as active")
		}
		done := e.wait(e.alice, second.ID, store.JobSucceeded)
		r := result(t, done)
		if e.chatCount() != calls || !r.SummarySkipped || !r.OverviewSkipped || r.ModelCalls != 0 {
			t.Fatalf("second compile: %d calls, result %+v", e.chatCount()-calls, r)
		}
		if e.read(e.alice, "kb://me/wiki/d/a.md") != before {
			t.Fatal("skipped summary changed")
		}
		// A changed source is compiled again, and its summary was stale.
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("changed")})
		stale := e.enqueue(e.alice, Request{StaleIn: "kb://me/d/"})
		if len(stale.Jobs) != 1 || stale.Jobs[0].URI != "kb://users/alice/d/a.md" {
			t.Fatalf("stale_in: %+v", stale)
		}
		e.wait(e.alice, stale.Jobs[0].ID, store.JobSucceeded)
		if e.chatCount() != calls+3 {
			t.Fatalf("changed file made %d calls, want 3", e.chatCount()-calls)
		}
		if again := e.enqueue(e.alice, Request{StaleIn: "kb://me/d/"}); len(again.Jobs) != 0 {
			t.Fatalf("fresh summary reported stale: %+v", again)
		}
	})
}

func TestOutputParentReceivesSummaries(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/src/", map[string][]byte{"x.md": []byte("x")})
		if _, err := e.tree.Mkdir(context.Background(), e.alice, "kb://me/out/"); err != nil {
			t.Fatal(err)
		}
		e.start(1)
		j := e.enqueue(e.alice, Request{URIs: []string{"kb://me/src/x.md"}, OutputParent: "kb://me/out/"}).Jobs[0]
		if j.OutputURI != "kb://users/alice/out/" {
			t.Fatalf("output uri %s", j.OutputURI)
		}
		e.wait(e.alice, j.ID, store.JobSucceeded)
		for _, u := range []string{"kb://me/out/x.md", "kb://me/out/.overview.md", "kb://me/out/.abstract.md"} {
			if !e.exists(e.alice, u) {
				t.Fatalf("%s missing", u)
			}
		}
		if e.exists(e.alice, "kb://me/wiki/") {
			t.Fatal("wiki/ written despite output_parent")
		}
		// A summary in the output parent is generated and cannot be compiled.
		res := e.enqueue(e.alice, Request{URIs: []string{"kb://me/out/x.md"}})
		if len(res.Rejected) != 1 || res.Rejected[0].Code != "generated_artifact" {
			t.Fatalf("%+v", res)
		}
	})
}
