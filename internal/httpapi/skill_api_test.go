package httpapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// skillNewEnv is the real stack with the fake LLM on its default script
// and one skill service shared by the API and compile, as the server wires
// it.
func skillNewEnv(t *testing.T, dialect string) *apiEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	reg := apptest.Models(t, fake.Model("fake", "sk-skill-test", "fake-model"))
	skills := &skill.Service{Store: stack.Store, Tree: stack.Tree, Models: reg}
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: reg, Skills: skills,
		Poll: 20 * time.Millisecond, Heartbeat: 50 * time.Millisecond, Backoff: func(int) time.Duration { return 10 * time.Millisecond }})
	e := newAPIEnv(t, stack, Deps{Models: reg, Compile: comp, Skills: skills}, "alice", "bob")
	e.fake, e.fakeURL = fake, fake.URL
	return e
}

type skillJSON struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Prompt         string    `json:"prompt"`
	OutputLanguage *string   `json:"output_language"`
	Builtin        bool      `json:"builtin"`
	UpdatedAt      time.Time `json:"updated_at"`
}

type skillErrJSON struct {
	Error struct{ Code, Message, Field string }
}

func (e *apiEnv) skills(user string) []skillJSON {
	e.t.Helper()
	code, b := e.do("GET", "/knowledge-agent/skills", user, nil)
	if code != 200 {
		e.t.Fatalf("list %d %s", code, b)
	}
	return cmpDecode[struct{ Items []skillJSON }](e.t, b).Items
}

func (e *apiEnv) create(user string, body map[string]any) skillJSON {
	e.t.Helper()
	code, b := e.do("POST", "/knowledge-agent/skills", user, body)
	if code != 201 {
		e.t.Fatalf("create %d %s", code, b)
	}
	return cmpDecode[skillJSON](e.t, b)
}

func TestSkillAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := skillNewEnv(t, dialect)
		base := "/knowledge-agent/skills"

		// Validation names the field; nothing is stored.
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"name": "", "prompt": "p"}, "name"},
			{map[string]any{"name": strings.Repeat("n", 65), "prompt": "p"}, "name"},
			{map[string]any{"name": "n"}, "prompt"},
			{map[string]any{"name": "n", "prompt": strings.Repeat("p", 8001)}, "prompt"},
			{map[string]any{"name": "n", "prompt": "p", "description": strings.Repeat("d", 501)}, "description"},
			{map[string]any{"name": "n", "prompt": "p", "output_language": "in Chinese"}, "output_language"},
		} {
			code, b := e.invalid().do("POST", base, "alice", c.body)
			got := cmpDecode[skillErrJSON](t, b).Error
			if code != 400 || got.Code != "invalid_skill" || got.Field != c.field || !strings.Contains(got.Message, c.field) {
				t.Errorf("%v: %d %s", c.body, code, b)
			}
		}
		if code, b := e.invalid().do("POST", base, "alice", map[string]any{"name": "n", "prompt": "p", "tools": []string{"sh"}}); code != 400 || cmpErrCode(t, b) != "invalid_json" {
			t.Errorf("a skill with tools: %d %s", code, b)
		}
		if n := len(e.skills("alice")); n != 3 {
			t.Fatalf("refused skills were stored: %d skills", n)
		}

		// Create, duplicate names refused per user only.
		zh := "zh"
		mine := e.create("alice", map[string]any{"name": "Contract reader", "description": "parties and terms",
			"prompt": "List the parties, the term and the fees.", "output_language": zh})
		if !strings.HasPrefix(mine.ID, "s_") || mine.Builtin || mine.OutputLanguage == nil || *mine.OutputLanguage != "zh" || mine.UpdatedAt.IsZero() {
			t.Fatalf("created %+v", mine)
		}
		code, b := e.do("POST", base, "alice", map[string]any{"name": "Contract reader", "prompt": "other"})
		if got := cmpDecode[skillErrJSON](t, b).Error; code != 409 || got.Code != "already_exists" || got.Field != "name" {
			t.Fatalf("duplicate name %d %s", code, b)
		}
		e.create("bob", map[string]any{"name": "Contract reader", "prompt": "bob's own"})
		other := e.create("alice", map[string]any{"name": "Another", "prompt": "p"})

		// The list: built-ins first, then the caller's by name.
		var names []string
		for _, s := range e.skills("alice") {
			names = append(names, s.ID+"="+s.Name)
		}
		want := []string{"builtin:concise=concise", "builtin:study-notes=study-notes", "builtin:chinese-summary=chinese-summary",
			other.ID + "=Another", mine.ID + "=Contract reader"}
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Fatalf("list %v, want %v", names, want)
		}

		// Get, patch, clear the language.
		path := base + "/" + mine.ID
		if code, b = e.do("GET", path, "alice", nil); code != 200 || cmpDecode[skillJSON](t, b).Prompt != mine.Prompt {
			t.Fatalf("get %d %s", code, b)
		}
		code, b = e.do("PATCH", path, "alice", map[string]any{"prompt": "List the parties.", "output_language": nil})
		got := cmpDecode[skillJSON](t, b)
		if code != 200 || got.Prompt != "List the parties." || got.OutputLanguage != nil || got.Name != "Contract reader" || got.Description != "parties and terms" {
			t.Fatalf("patch %d %s", code, b)
		}
		if code, b = e.do("PATCH", path, "alice", map[string]any{"name": "Another"}); code != 409 || cmpErrCode(t, b) != "already_exists" {
			t.Fatalf("rename onto a taken name %d %s", code, b)
		}
		if code, b = e.do("PATCH", path, "alice", map[string]any{"prompt": ""}); code != 400 || cmpDecode[skillErrJSON](t, b).Error.Field != "prompt" {
			t.Fatalf("patch to an empty prompt %d %s", code, b)
		}

		// Isolation: another user's skill is absent.
		for _, method := range []string{"GET", "PATCH", "DELETE"} {
			code, b := e.do(method, path, "bob", map[string]any{"prompt": "stolen"})
			if code != 404 || cmpErrCode(t, b) != "not_found" {
				t.Fatalf("bob %s alice's skill: %d %s", method, code, b)
			}
		}
		for _, s := range e.skills("bob") {
			if s.ID == mine.ID || s.ID == other.ID {
				t.Fatalf("bob lists alice's skill %+v", s)
			}
		}

		// Built-ins: readable (the colon may come escaped), read-only.
		for _, p := range []string{base + "/builtin:concise", base + "/builtin%3Aconcise"} {
			if code, b = e.do("GET", p, "bob", nil); code != 200 || !cmpDecode[skillJSON](t, b).Builtin {
				t.Fatalf("get builtin %s: %d %s", p, code, b)
			}
		}
		for _, method := range []string{"PATCH", "DELETE"} {
			if code, b = e.do(method, base+"/builtin:concise", "alice", map[string]any{"prompt": "x"}); code != 403 || cmpErrCode(t, b) != "builtin_skill" {
				t.Fatalf("%s builtin: %d %s", method, code, b)
			}
		}
		for _, id := range []string{"builtin:nope", "s_99999", "12", "s_x"} {
			if code, _ = e.do("GET", base+"/"+id, "alice", nil); code != 404 {
				t.Fatalf("get %s: %d", id, code)
			}
		}

		// Options list the caller's skills beside the built-ins.
		_, b = e.do("GET", "/knowledge-agent/options", "alice", nil)
		opts := cmpDecode[struct {
			CompileDefaults struct {
				Skill  string
				Skills []struct {
					ID, Name, Title, Description string
					Builtin                      bool
				}
			} `json:"compile_defaults"`
		}](t, b).CompileDefaults
		if opts.Skill != "concise" || len(opts.Skills) != 5 || opts.Skills[0].ID != "builtin:concise" || opts.Skills[0].Title != "Concise summary" ||
			!opts.Skills[0].Builtin || opts.Skills[4].ID != mine.ID || opts.Skills[4].Builtin || opts.Skills[4].Description != "parties and terms" {
			t.Fatalf("options %s", b)
		}

		// Delete; then it is gone.
		if code, b = e.do("DELETE", path, "alice", nil); code != 204 {
			t.Fatalf("delete %d %s", code, b)
		}
		if code, _ = e.do("GET", path, "alice", nil); code != 404 {
			t.Fatalf("get after delete %d", code)
		}
		if code, _ = e.do("GET", base, "", nil); code != 401 {
			t.Fatalf("unauthenticated list %d", code)
		}
	})
}

func TestSkillGenerateAndPreviewAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := skillNewEnv(t, dialect)
		e.upload("alice", "kb://me/docs/", map[string]string{"lease.md": "# Lease\nThe tenant pays 900 EUR a month."})
		e.upload("bob", "kb://me/private/", map[string]string{"secret.md": "bob's secret"})
		gen := "/knowledge-agent/skills/generate"

		code, b := e.do("POST", gen, "alice", map[string]any{"description": "summaries of leases: parties, rent, term",
			"model_id": "fake", "sample_uri": "kb://me/docs/lease.md"})
		d := cmpDecode[struct{ Draft skill.Draft }](t, b).Draft
		if code != 200 || d.Name == "" || !strings.Contains(d.Prompt, "parties, rent, term") {
			t.Fatalf("generate %d %s", code, b)
		}
		sent := e.fake.LastChat()
		if sent == nil || !strings.Contains(string(sent.Messages[1].Content), "900 EUR") {
			t.Fatalf("the model did not see the sample: %+v", sent)
		}
		if n := len(e.skills("alice")); n != 3 {
			t.Fatalf("generate stored a skill: %d skills", n)
		}

		for _, c := range []struct {
			body   map[string]any
			push   *fakellm.Response
			status int
			code   string
		}{
			{map[string]any{"description": "", "model_id": "fake"}, nil, 400, "invalid_skill"},
			{map[string]any{"description": "x", "model_id": "nope"}, nil, 400, "unknown_model"},
			{map[string]any{"description": "x", "model_id": "fake", "sample_uri": "kb://users/bob/private/secret.md"}, nil, 404, ""},
			{map[string]any{"description": "x", "model_id": "fake"}, ptr(fakellm.TextStream("I'd rather not.")), 502, "invalid_draft"},
			{map[string]any{"description": "x", "model_id": "fake"}, ptr(fakellm.TextStream("```json\n{\"name\": \"x\",")), 502, "invalid_draft"},
			{map[string]any{"description": "x", "model_id": "fake"}, ptr(fakellm.HTTPError(401, "bad key")), 502, "llm_auth"},
			{map[string]any{"description": "x", "model_id": "fake"}, ptr(fakellm.RateLimited("3")), 429, "llm_rate_limited"},
		} {
			if c.push != nil {
				e.fake.Push(*c.push)
			}
			ex := e
			if c.body["description"] == "" { // outside the document
				ex = ex.invalid()
			}
			code, b := ex.do("POST", gen, "alice", c.body)
			if code != c.status || (c.code != "" && cmpErrCode(t, b) != c.code) {
				t.Errorf("%v: %d %s", c.body, code, b)
			}
			if strings.Contains(string(b), "bob's secret") {
				t.Errorf("the answer leaks bob's file: %s", b)
			}
		}

		// Preview: the full prompt compile would send for the file.
		code, b = e.do("POST", "/knowledge-agent/skills/preview", "alice", map[string]any{"prompt": "Keep the rent.", "uri": "kb://me/docs/lease.md"})
		p := cmpDecode[skill.Preview](t, b)
		if code != 200 || !strings.HasSuffix(p.System, "Keep the rent.") || !strings.Contains(p.User, "kb://users/alice/docs/lease.md") ||
			!strings.Contains(p.User, "900 EUR") || p.Truncated {
			t.Fatalf("preview %d %s", code, b)
		}
		if code, _ = e.do("POST", "/knowledge-agent/skills/preview", "alice", map[string]any{"prompt": "p", "uri": "kb://users/bob/private/secret.md"}); code != 404 {
			t.Fatalf("preview of bob's file %d", code)
		}
		if code, b = e.do("POST", "/knowledge-agent/skills/preview", "alice", map[string]any{"prompt": "", "uri": "kb://me/docs/lease.md"}); code != 400 || cmpDecode[skillErrJSON](t, b).Error.Field != "prompt" {
			t.Fatalf("preview of an empty prompt %d %s", code, b)
		}
	})
}

func ptr[T any](v T) *T { return &v }

// A job copies its skill at enqueue: editing and deleting the skill
// afterwards changes neither the job nor its retries, and the summary's
// provenance names the skill and the hash of the prompt it used.
func TestSkillFrozenInJob(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := skillNewEnv(t, dialect)
		e.upload("alice", "kb://me/deals/", map[string]string{"supply.md": "Supplier ACME, term 2 years."})
		const oldPrompt, newPrompt = "OLD-TEXT: list the parties and the term.", "NEW-TEXT: write a poem."
		sk := e.create("alice", map[string]any{"name": "Contract reader", "prompt": oldPrompt})

		for _, c := range []struct{ user, skill string }{{"bob", sk.ID}, {"alice", "s_99999"}, {"alice", "builtin:nope"}} {
			code, b := e.do("POST", "/knowledge-agent/compile", c.user, map[string]any{"uris": []string{"kb://users/alice/deals/supply.md"},
				"model_id": "fake", "skill": c.skill})
			if code != 400 || cmpErrCode(t, b) != "unknown_skill" {
				t.Fatalf("%s compiles with %s: %d %s", c.user, c.skill, code, b)
			}
		}
		code, b := e.do("POST", "/knowledge-agent/compile", "alice", map[string]any{"uris": []string{"kb://me/deals/supply.md"},
			"model_id": "fake", "skill": sk.ID})
		res := cmpDecode[cmpEnqueue](t, b)
		if code != 200 || len(res.Jobs) != 1 {
			t.Fatalf("compile %d %s", code, b)
		}
		job := res.Jobs[0]
		cfg := job.Configuration
		if cfg["skill"] != "Contract reader" || cfg["skill_id"] != sk.ID || cfg["skill_prompt"] != oldPrompt {
			t.Fatalf("snapshot %v", cfg)
		}

		// Edit, cancel, delete, retry: the job keeps the old text.
		if code, b = e.do("PATCH", "/knowledge-agent/skills/"+sk.ID, "alice", map[string]any{"prompt": newPrompt}); code != 200 {
			t.Fatalf("patch %d %s", code, b)
		}
		jobPath := fmt.Sprintf("/jobs/%d", job.ID)
		if code, b = e.do("POST", jobPath+"/cancel", "alice", nil); code != 200 {
			t.Fatalf("cancel %d %s", code, b)
		}
		if code, b = e.do("DELETE", "/knowledge-agent/skills/"+sk.ID, "alice", nil); code != 204 {
			t.Fatalf("delete %d %s", code, b)
		}
		if code, b = e.do("POST", jobPath+"/retry", "alice", nil); code != 200 || cmpDecode[cmpJob](t, b).Configuration["skill_prompt"] != oldPrompt {
			t.Fatalf("retry %d %s", code, b)
		}
		// The first model call fails transiently: the worker's own retry
		// runs from the same snapshot.
		e.fake.Push(fakellm.HTTPError(503, "overloaded"))
		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		deadline := time.Now().Add(20 * time.Second)
		var done cmpJob
		for {
			_, b = e.do("GET", jobPath, "alice", nil)
			if done = cmpDecode[cmpJob](t, b); done.State == "succeeded" || done.State == "failed" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("job did not finish: %s", b)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if done.State != "succeeded" || done.Attempts != 2 || done.Configuration["skill_prompt"] != oldPrompt {
			t.Fatalf("job %s", b)
		}
		calls := 0
		for _, r := range e.fake.Requests() {
			if r.Chat == nil || len(r.Chat.Messages) == 0 || !strings.Contains(string(r.Chat.Messages[0].Content), "You compile") {
				continue
			}
			calls++
			if sys := string(r.Chat.Messages[0].Content); !strings.Contains(sys, oldPrompt) || strings.Contains(sys, "NEW-TEXT") {
				t.Fatalf("a model call used another skill text: %s", sys)
			}
		}
		if calls < 4 { // failed summary, summary, overview, abstract
			t.Fatalf("%d compile calls reached the model", calls)
		}

		// Provenance, in the front matter and in the store.
		code, b = e.do("GET", "/resources/content?uri=kb://me/wiki/deals/supply.md", "alice", nil)
		text := cmpDecode[knowledge.Page](t, b).Text
		for _, want := range []string{`skill: "Contract reader"`, `skill_id: "` + sk.ID + `"`, "skill_hash: " + skill.Hash(oldPrompt)} {
			if code != 200 || !strings.Contains(text, want) {
				t.Fatalf("summary front matter lacks %q:\n%s", want, text)
			}
		}
		ctx := context.Background()
		u, _ := e.stack.Store.UserByUsername(ctx, "alice")
		n, err := e.stack.Store.NodeByPath(ctx, u.ID, "wiki/deals/supply.md")
		if err != nil {
			t.Fatal(err)
		}
		prov, err := e.stack.Store.ProvenanceOf(ctx, n.ID)
		if err != nil || prov.Skill != "Contract reader" || prov.SkillID != sk.ID || prov.SkillHash != skill.Hash(oldPrompt) {
			t.Fatalf("provenance %+v %v", prov, err)
		}
	})
}
