package skill

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// Generate limits.
const (
	MaxGenerateDescriptionChars = 2000
	// sampleChars is how much of a sample file the drafting model sees.
	sampleChars = 4000
)

// GenerateSystemPrompt asks a model for a skill draft. The fake LLM knows
// its first sentence (internal/fakellm), so keep the two in step.
const GenerateSystemPrompt = "You write compile skills for Knowspace. " +
	"A compile skill is an instruction appended to the system prompt of a model that summarizes one document at a time " +
	"into Markdown, and later writes a folder's overview from those summaries. The model has no tools and sees only the document. " +
	"From the user's description (and the sample document, when one is given) write a skill that tells that model what to " +
	"keep, how to structure the summary and what to avoid; tell it never to invent facts. " +
	`Answer with one JSON object and nothing else: {"name": "at most 64 characters", ` +
	`"description": "one sentence, at most 500 characters", "prompt": "the instruction, at most 8000 characters"}.`

// GenerateRequest is the body of POST /skills/generate.
type GenerateRequest struct {
	Description string `json:"description"`
	ModelID     string `json:"model_id"`
	SampleURI   string `json:"sample_uri"`
}

// Validate checks the fields that need no database.
func (r *GenerateRequest) Validate() error {
	switch n := utf8.RuneCountInString(r.Description); {
	case strings.TrimSpace(r.Description) == "":
		return invalid("description", "describe the skill you want: what material it is for and what the summary should hold")
	case n > MaxGenerateDescriptionChars:
		return invalid("description", "is %d characters; at most %d", n, MaxGenerateDescriptionChars)
	case r.ModelID == "":
		return apierr.BadRequest(apierr.CodeInvalidModel, "model_id is required; GET /api/v1/knowledge-agent/options lists the models")
	}
	return nil
}

// Draft is a skill the model proposed, not stored.
type Draft struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
}

// Generate asks the chosen model for a draft. Nothing is stored.
func (s *Service) Generate(ctx context.Context, c kb.Caller, r GenerateRequest) (Draft, error) {
	if s.Models == nil || s.Models.Len() == 0 {
		return Draft{}, apierr.BadRequest(apierr.CodeNoModels, "no model is configured on this server")
	}
	m, err := s.Models.LookupFor(ctx, c.ID, r.ModelID)
	if err != nil && !llm.IsUnknownModel(err) {
		return Draft{}, err
	}
	if err != nil {
		return Draft{}, apierr.BadRequest(apierr.CodeUnknownModel, "unknown model %q; GET /api/v1/knowledge-agent/options lists the models", r.ModelID).WithDetail("model", r.ModelID)
	}
	msg := "<description>\n" + strings.TrimSpace(r.Description) + "\n</description>"
	if r.SampleURI != "" {
		p, err := s.Tree.ReadPage(ctx, c, r.SampleURI, 0, sampleChars)
		if err != nil {
			if e, ok := apierr.As(err); ok {
				return Draft{}, apierr.New(e.Status, e.Code, "sample_uri: %s", e.Message).WithDetail("field", "sample_uri")
			}
			return Draft{}, err
		}
		msg += "\n\n<sample uri=\"" + p.URI + "\">\n" + p.Text + "\n</sample>"
	}
	resp, err := m.Complete(llm.WithAttribution(ctx, llm.Attribution{UserID: c.ID, Purpose: llm.PurposeSkill}), llm.Request{System: GenerateSystemPrompt,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: msg}}})
	if err != nil {
		if le, ok := llm.AsError(err); ok {
			return Draft{}, le.APIError()
		}
		return Draft{}, apierr.New(502, apierr.CodeLLMError, "the model could not be reached").WithCause(err)
	}
	switch resp.Finish {
	case llm.FinishContentFilter:
		return Draft{}, apierr.New(502, apierr.CodeModelRefused, "the model refused to write a skill (content filter)")
	case llm.FinishLength:
		return Draft{}, apierr.New(502, apierr.CodeOutputTruncated, "the model's draft was cut at its output limit")
	}
	return ParseDraft(resp.Text)
}

// ParseDraft reads a model's answer: a JSON object, bare or in a ```json
// fence, possibly with words around it. Fields over their limit are cut
// there; the user edits the draft before saving it.
func ParseDraft(text string) (Draft, error) {
	bad := apierr.New(502, apierr.CodeInvalidDraft, "the model did not answer with a skill draft (a JSON object with name, description and prompt); try again or pick another model")
	start, end := strings.IndexByte(text, '{'), strings.LastIndexByte(text, '}')
	if start < 0 || end < start {
		return Draft{}, bad
	}
	var d Draft
	if err := json.Unmarshal([]byte(text[start:end+1]), &d); err != nil {
		return Draft{}, bad.WithCause(err)
	}
	d.Name = clip(strings.Join(strings.Fields(d.Name), " "), MaxNameChars)
	d.Description = clip(strings.TrimSpace(d.Description), MaxDescriptionChars)
	d.Prompt = clip(strings.TrimSpace(d.Prompt), MaxPromptChars)
	if d.Name == "" || d.Prompt == "" {
		return Draft{}, bad
	}
	return d, nil
}

// clip keeps the first n characters of a draft's field, unmarked: unlike
// kb.Clip's quote of input in bytes, the cut text is the user's to edit
// and must pass the same limits, which count characters.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}
