package fakellm

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// skillDraftMarker opens the system prompt of a generate-skill request
// (skill.GenerateSystemPrompt; a test in internal/skill keeps the two in
// step).
const skillDraftMarker = "You write compile skills for Knowspace."

// skillDraft answers a generate-skill request with a draft built from the
// description, as a model would: JSON inside a ```json fence.
func skillDraft(chat *ChatRequest, question string) (string, bool) {
	if len(chat.Messages) == 0 || chat.Messages[0].Role != "system" ||
		!strings.HasPrefix(string(chat.Messages[0].Content), skillDraftMarker) {
		return "", false
	}
	desc := question
	if i := strings.Index(desc, "<description>"); i >= 0 {
		desc = desc[i+len("<description>"):]
		if j := strings.Index(desc, "</description>"); j >= 0 {
			desc = desc[:j]
		}
	}
	desc = strings.Join(strings.Fields(desc), " ")
	words := strings.Fields(strings.TrimRight(desc, ".!?。"))
	name := strings.Join(words[:min(len(words), 6)], " ")
	if r, n := utf8.DecodeRuneInString(name); n > 0 {
		name = string(unicode.ToUpper(r)) + name[n:]
	}
	if name == "" {
		name = "Custom summary"
	}
	prompt := "Summarize the document for this purpose: " + desc + "\n\n" +
		"Open with one paragraph on what the document is and why it matters for that purpose, then list the points " +
		"that matter as bullets. Quote names, figures and dates exactly as the document gives them. " +
		"Do not invent anything that is not in the document."
	draft, _ := json.MarshalIndent(map[string]string{
		"name": firstRunes(name, 60), "description": firstRunes(desc, 400), "prompt": prompt}, "", "  ")
	return "Here is a draft skill:\n\n```json\n" + string(draft) + "\n```", true
}
