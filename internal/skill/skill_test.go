package skill_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/skill"
)

func TestSkillDraftParsing(t *testing.T) {
	long := strings.Repeat("x", skill.MaxNameChars+10)
	for _, c := range []struct {
		name, answer, wantName string
		ok                     bool
	}{
		{"bare", `{"name":"Contracts","description":"d","prompt":"Keep the parties."}`, "Contracts", true},
		{"fenced", "Sure:\n```json\n{\"name\": \"Lectures\", \"prompt\": \"List the concepts.\"}\n```\nEnjoy.", "Lectures", true},
		{"long name clipped", `{"name":"` + long + `","prompt":"p"}`, long[:skill.MaxNameChars], true},
		{"prose", "I cannot help with that.", "", false},
		{"broken json", "```json\n{\"name\": \"x\", \"prompt\": \n```", "", false},
		{"no prompt", `{"name":"x","description":"d"}`, "", false},
		{"wrong types", `{"name":1,"prompt":["p"]}`, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := skill.ParseDraft(c.answer)
			if !c.ok {
				e, isAPI := apierr.As(err)
				if !isAPI || e.Status != 502 || e.Code.String() != "invalid_draft" {
					t.Fatalf("want 502 invalid_draft, got %+v %v", d, err)
				}
				return
			}
			if err != nil || d.Name != c.wantName || d.Prompt == "" {
				t.Fatalf("got %+v %v", d, err)
			}
		})
	}
}

// The fake LLM's default script recognizes the real generate-skill system
// prompt and answers with a draft ParseDraft accepts.
func TestSkillDraftFromFakeLLM(t *testing.T) {
	body, _ := json.Marshal(map[string]any{"model": "fake", "messages": []map[string]string{
		{"role": "system", "content": skill.GenerateSystemPrompt},
		{"role": "user", "content": "<description>\nsummaries of supplier contracts: parties, term, fees\n</description>"},
	}})
	var chat fakellm.ChatRequest
	if err := json.Unmarshal(body, &chat); err != nil {
		t.Fatal(err)
	}
	resp := fakellm.DefaultScript(&fakellm.Request{Body: body, Chat: &chat}, 0)
	var completion struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal([]byte(resp.Body), &completion); err != nil || len(completion.Choices) != 1 {
		t.Fatalf("completion %s: %v", resp.Body, err)
	}
	answer := completion.Choices[0].Message.Content
	if !strings.Contains(answer, "```json") {
		t.Fatalf("the fake should fence its JSON as models often do: %s", answer)
	}
	d, err := skill.ParseDraft(answer)
	if err != nil || d.Name != "Summaries of supplier contracts: parties, term," || !strings.Contains(d.Prompt, "parties, term, fees") {
		t.Fatalf("draft %+v %v from %s", d, err, answer)
	}
}

func TestSkillValidation(t *testing.T) {
	lang := func(s string) *string { return &s }
	for _, c := range []struct {
		in    skill.Input
		field string
	}{
		{skill.Input{Name: "Contracts", Prompt: "Keep the parties."}, ""},
		{skill.Input{Name: "  Contracts ", Prompt: "p", OutputLanguage: lang("pt-BR")}, ""},
		{skill.Input{Name: "合同阅读", Prompt: "p", OutputLanguage: lang("")}, ""},
		{skill.Input{Name: strings.Repeat("名", 64), Prompt: "p"}, ""},
		{skill.Input{Name: " ", Prompt: "p"}, "name"},
		{skill.Input{Name: strings.Repeat("名", 65), Prompt: "p"}, "name"},
		{skill.Input{Name: "two\nlines", Prompt: "p"}, "name"},
		{skill.Input{Name: "n", Prompt: "\n "}, "prompt"},
		{skill.Input{Name: "n", Prompt: strings.Repeat("p", 8001)}, "prompt"},
		{skill.Input{Name: "n", Prompt: "p", Description: strings.Repeat("d", 501)}, "description"},
		{skill.Input{Name: "n", Prompt: "p", OutputLanguage: lang("Chinese please")}, "output_language"},
	} {
		err := c.in.Validate()
		if c.field == "" {
			if err != nil {
				t.Errorf("%+v: %v", c.in, err)
			}
			continue
		}
		e, ok := apierr.As(err)
		if !ok || e.Code.String() != "invalid_skill" || e.Details["field"] != c.field || !strings.HasPrefix(e.Message, c.field+": ") {
			t.Errorf("%+v: want invalid_skill on %s, got %v", c.in.Name, c.field, err)
		}
	}
}

// A built-in's prompt is part of every summary's fingerprint written with
// it: it is found by name and by id, and its wording is pinned.
func TestSkillBuiltins(t *testing.T) {
	for _, ref := range []string{"concise", "builtin:concise"} {
		b, ok := skill.Builtin(ref)
		if !ok || b.ID != "builtin:concise" || !b.Builtin || skill.Hash(b.Prompt) != "230088194d35" {
			t.Fatalf("%s: %+v %v (hash %s)", ref, b, ok, skill.Hash(b.Prompt))
		}
	}
	if _, ok := skill.Builtin("s_1"); ok {
		t.Fatal("a user id resolved as a built-in")
	}
	sys := skill.SystemPrompt("Keep the parties.", "zh")
	if !strings.Contains(sys, "Keep the parties.") || !strings.Contains(sys, `"zh"`) {
		t.Fatalf("system prompt %q", sys)
	}
}
