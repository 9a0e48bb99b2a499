package compile

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

func TestEnqueueRejectionsPerURI(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a"), "b.md": []byte("b")})
		e.put(e.alice, "kb://me/d/sub/", map[string][]byte{"c.md": []byte("c")})
		e.put(e.alice, "kb://me/wiki/", map[string][]byte{"w.md": []byte("w")})
		e.put(e.bob, "kb://me/x/", map[string][]byte{"secret.md": []byte("s")})
		res := e.enqueue(e.alice, Request{URIs: []string{
			"kb://me/d/a.md", "kb://me/d/a.md", "kb://me/d/sub/", "kb://me/d/sub/c.md", "kb://me/wiki/w.md",
			"kb://users/bob/x/secret.md", "kb://me/d/missing.md", "kb://me/../etc", "kb://me/d/b.md",
		}})
		want := map[string]string{
			"kb://users/alice/d/a.md":     "duplicate",
			"kb://users/alice/d/sub/":     "not_a_file",
			"kb://users/alice/d/sub/c.md": "different_folder",
			"kb://users/alice/wiki/w.md":  "generated_artifact",
			"kb://users/bob/x/secret.md":  "not_visible",
			"kb://me/d/missing.md":        "not_visible",
			"kb://me/../etc":              "invalid_uri",
		}
		if len(res.Jobs) != 2 || len(res.Rejected) != len(want) {
			t.Fatalf("jobs %d rejected %+v", len(res.Jobs), res.Rejected)
		}
		for _, r := range res.Rejected {
			if want[r.URI] != r.Code || r.Message == "" {
				t.Errorf("%s: got %s (%s), want %s", r.URI, r.Code, r.Message, want[r.URI])
			}
			if strings.Contains(r.Message, "secret") && r.Code != "not_visible" {
				t.Errorf("leak: %s", r.Message)
			}
		}
		// 33 files: every one refused, nothing enqueued.
		files := map[string][]byte{}
		var uris []string
		for i := range 33 {
			files[fmt.Sprintf("f%02d.md", i)] = []byte("x")
			uris = append(uris, fmt.Sprintf("kb://me/many/f%02d.md", i))
		}
		e.put(e.alice, "kb://me/many/", files)
		res = e.enqueue(e.alice, Request{URIs: uris})
		if len(res.Jobs) != 0 || len(res.Rejected) != 33 || res.Rejected[0].Code != "too_many_files" {
			t.Fatalf("33 files: %d jobs, %+v", len(res.Jobs), res.Rejected[:1])
		}
		res = e.enqueue(e.alice, Request{URIs: uris[:32]})
		if len(res.Jobs) != 32 {
			t.Fatalf("32 files: %d jobs %+v", len(res.Jobs), res.Rejected)
		}
	})
}

func TestEnqueueRequestErrors(t *testing.T) {
	e := newEnv(t, store.DialectSQLite, func(o *Options) {
		o.CLIProfiles = []config.CLIProfile{{Name: "codex", Argv: []string{"codex", "--model", "{model}", "-c", "effort={effort}"},
			Models: []string{"gpt-5-codex"}, Efforts: []string{"low", "high"}}}
	})
	e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a")})
	a := []string{"kb://me/d/a.md"}
	cases := []struct {
		name string
		req  Request
		code string
	}{
		{"no uris", Request{}, "invalid_uris"},
		{"bad executor", Request{URIs: a, Executor: "shell"}, "invalid_executor"},
		{"budget", Request{URIs: a, CallBudget: MaxCallBudget + 1}, "invalid_call_budget"},
		{"timeout", Request{URIs: a, TimeoutS: -1}, "invalid_timeout"},
		{"unknown model", Request{URIs: a, ModelID: "gpt-nope"}, "unknown_model"},
		{"unknown skill", Request{URIs: a, Skill: "poetry"}, "unknown_skill"},
		{"unknown profile", Request{URIs: a, Executor: "cli", CLIProfile: "bash"}, "unknown_cli_profile"},
		{"model not allowed", Request{URIs: a, CLIProfile: "codex", Model: "gpt-4; rm -rf /"}, "invalid_model"},
		{"effort not allowed", Request{URIs: a, CLIProfile: "codex", ReasoningEffort: "$(id)"}, "invalid_reasoning_effort"},
		{"output parent file", Request{URIs: a, OutputParent: "kb://me/d/a.md"}, "invalid_output_parent"},
		{"output parent bob", Request{URIs: a, OutputParent: "kb://users/bob/"}, "invalid_output_parent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.svc.Enqueue(context.Background(), e.alice, c.req)
			ae, ok := apierr.As(err)
			if !ok || ae.Code.String() != c.code || ae.Status != 400 {
				t.Fatalf("got %v, want %s", err, c.code)
			}
		})
	}
	// A valid CLI request snapshots the profile's allowed values only.
	res := e.enqueue(e.alice, Request{URIs: a, CLIProfile: "codex", ReasoningEffort: "high"})
	var snap Snapshot
	json.Unmarshal(res.Jobs[0].Configuration, &snap)
	if snap.Executor != "cli" || snap.Model != "gpt-5-codex" || snap.ReasoningEffort != "high" {
		t.Fatalf("%+v", snap)
	}
	if opts := e.svc.CLIProfiles(); len(opts) != 1 || opts[0].Name != "codex" {
		t.Fatalf("%+v", opts)
	}
	b, _ := json.Marshal(e.svc.CLIProfiles())
	if strings.Contains(string(b), "argv") || strings.Contains(string(b), "--model") {
		t.Fatalf("argv leaked into options: %s", b)
	}
}

func TestSnapshotFrozenSameConfigReturnedDifferentRefused(t *testing.T) {
	each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a")})
		e.svc.SetDefaults(Defaults{ModelID: "fake", CallBudget: 5, TimeoutS: 30, Skill: "study-notes"})
		first := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}}).Jobs[0]
		var snap Snapshot
		if err := json.Unmarshal(first.Configuration, &snap); err != nil {
			t.Fatal(err)
		}
		if snap.CallBudget != 5 || snap.Skill != "study-notes" || snap.PromptVersion != PromptVersion ||
			!strings.Contains(snap.SkillPrompt, "study notes") {
			t.Fatalf("snapshot %+v", snap)
		}
		if strings.Contains(string(first.Configuration), testKey) || strings.Contains(string(first.Configuration), "http") {
			t.Fatalf("secret in snapshot: %s", first.Configuration)
		}
		// The same request returns the same job; a different one is refused.
		same := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}})
		if len(same.Jobs) != 1 || same.Jobs[0].ID != first.ID {
			t.Fatalf("same config: %+v", same)
		}
		diff := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}, CallBudget: 7})
		if len(diff.Jobs) != 0 || len(diff.Rejected) != 1 || diff.Rejected[0].Code != "active_job_conflict" ||
			!strings.Contains(diff.Rejected[0].Message, fmt.Sprint(first.ID)) {
			t.Fatalf("different config: %+v", diff)
		}
		// The server's defaults change after enqueue: the job keeps its own.
		e.svc.SetDefaults(Defaults{ModelID: "fake", CallBudget: 1, TimeoutS: 30, Skill: "concise"})
		e.start(1)
		done := e.wait(e.alice, first.ID, store.JobSucceeded, store.JobFailed)
		if done.State != store.JobSucceeded {
			t.Fatalf("job used the new budget of 1: %+v", done.Error)
		}
		if sys := e.fake.LastChat().Messages[0].Content; !strings.Contains(string(sys), "study notes") {
			t.Fatalf("system prompt not from the snapshot: %s", sys)
		}
		// Retry uses the snapshot too: fail it, retry, check the prompt.
		e.fake.Push(fakellm.HTTPError(400, "bad request"))
		e.put(e.alice, "kb://me/d/", map[string][]byte{"a.md": []byte("a2")})
		j2 := e.enqueue(e.alice, Request{URIs: []string{"kb://me/d/a.md"}, CallBudget: 3}).Jobs[0]
		failed := e.wait(e.alice, j2.ID, store.JobFailed)
		if failed.Error == nil || failed.Error.Code != "llm_bad_request" {
			t.Fatalf("%+v", failed.Error)
		}
		retried, err := e.svc.Retry(context.Background(), e.alice, j2.ID)
		if err != nil || string(retried.Configuration) != string(j2.Configuration) {
			t.Fatalf("retry: %v %s", err, retried.Configuration)
		}
		e.wait(e.alice, j2.ID, store.JobSucceeded)
		var s2 Snapshot
		json.Unmarshal(retried.Configuration, &s2)
		if s2.CallBudget != 3 || s2.Skill != "concise" {
			t.Fatalf("second snapshot %+v", s2)
		}
	})
}
