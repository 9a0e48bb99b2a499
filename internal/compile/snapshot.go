package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/knowspace/knowspace/internal/skill"
)

// PromptVersion names the wording of the built-in prompts. It is part of
// every fingerprint: changing a prompt makes unchanged files compile again.
const PromptVersion = "2026-11.1"

// Executors.
const (
	ExecutorLLM = "llm"
	ExecutorCLI = "cli"
)

// DefaultSkill is used when a request names none.
const DefaultSkill = "concise"

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
	OutputParent string `json:"output_parent,omitempty"`
	// Skill is the skill's name, SkillID its id and SkillPrompt its text
	// as it was at enqueue: the job never reads the skill again.
	Skill               string `json:"skill"`
	SkillID             string `json:"skill_id,omitempty"`
	SkillPrompt         string `json:"skill_prompt"`
	SkillOutputLanguage string `json:"skill_output_language,omitempty"`
	PromptVersion       string `json:"prompt_version"`
	MaxAttempts         int    `json:"max_attempts"`
	// NoOverview leaves the folder's overview to its own job: a folder
	// kept compiled rebuilds it once per batch, not once per file.
	NoOverview bool `json:"no_overview,omitempty"`
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
	// Only a skill that sets a language adds it, so the fingerprints of
	// summaries written before skills had languages stay the same.
	if s.SkillOutputLanguage != "" {
		h.Write([]byte("output_language:" + s.SkillOutputLanguage))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// skillID is the id provenance records; snapshots made before skills had
// ids name a built-in only.
func (s Snapshot) skillID() string {
	if s.SkillID != "" {
		return s.SkillID
	}
	if b, ok := skill.Builtin(s.Skill); ok {
		return b.ID
	}
	return ""
}
