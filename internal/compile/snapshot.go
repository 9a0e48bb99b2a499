package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
)

// PromptVersion names the wording of the built-in prompts. It is part of
// every fingerprint: changing a prompt makes unchanged files compile again.
const PromptVersion = "2026-11.1"

// Executors.
const (
	ExecutorLLM = "llm"
	ExecutorCLI = "cli"
)

// Skill is a named compile prompt.
type Skill struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Instruction string `json:"instruction"`
}

// DefaultSkill is used when a request names none.
const DefaultSkill = "concise"

// skills are the built-in compile prompts.
var skills = map[string]Skill{
	"concise": {Name: "concise", Title: "Concise summary",
		Instruction: "Write a concise summary of the document in Markdown: one short paragraph on what it is and why it matters, then up to eight bullet points with its key facts, decisions and open questions. Do not invent anything that is not in the document."},
	"study-notes": {Name: "study-notes", Title: "Study notes",
		Instruction: "Turn the document into study notes in Markdown: the main concepts with one-line definitions, how they relate, worked examples if the document has any, and five review questions. Stay faithful to the document."},
	"chinese-summary": {Name: "chinese-summary", Title: "Chinese summary",
		Instruction: "用简体中文以 Markdown 写出文档摘要：先用一段话说明文档内容及其意义，再列出最多八条要点（关键事实、结论与未决问题）。不要编造文档中没有的内容。"},
}

// Skills lists the built-in skills by name.
func Skills() []Skill {
	out := make([]Skill, 0, len(skills))
	for _, s := range skills {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Snapshot is the frozen, effective configuration of one job, copied at
// enqueue into configuration_json. A retry reads only this; changing the
// server's defaults later never changes a job. It holds no secret: the
// model id is kept, its key is looked up when the job runs.
type Snapshot struct {
	Executor        string `json:"executor"`
	ModelID         string `json:"model_id,omitempty"`
	CLIProfile      string `json:"cli_profile,omitempty"`
	Model           string `json:"model,omitempty"`
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
	CallBudget      int    `json:"call_budget"`
	TimeoutS        int    `json:"timeout_s"`
	// OutputParent is the output folder's URI when the request named one;
	// empty means the mirrored path under wiki/.
	OutputParent  string `json:"output_parent,omitempty"`
	Skill         string `json:"skill"`
	SkillPrompt   string `json:"skill_prompt"`
	PromptVersion string `json:"prompt_version"`
	MaxAttempts   int    `json:"max_attempts"`
}

// Hash identifies the configuration: two requests with the same hash are
// the same request.
func (s Snapshot) Hash() string {
	b, _ := json.Marshal(s)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// modelLabel is what provenance records as the model.
func (s Snapshot) modelLabel() string {
	if s.Executor == ExecutorCLI {
		return s.CLIProfile + ":" + s.Model
	}
	return s.ModelID
}

// fingerprint hashes the parts that decide a generated text: inputs, the
// executor and model, the skill text and the prompt version. Budget,
// timeout and attempts do not change the output and are left out.
func (s Snapshot) fingerprint(role string, inputs ...string) string {
	h := sha256.New()
	for _, p := range append([]string{role, s.Executor, s.ModelID, s.CLIProfile, s.Model, s.ReasoningEffort,
		s.SkillPrompt, s.PromptVersion}, inputs...) {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
