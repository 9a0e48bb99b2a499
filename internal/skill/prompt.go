package skill

import (
	"fmt"
	"unicode/utf8"
)

// MaxDocumentChars is how many characters of a document the summary
// prompt carries.
const MaxDocumentChars = 120_000

// SystemPrompt is compile's system prompt for a skill: the fixed frame,
// the skill's prompt and, when the skill sets one, the output language.
// The skill's text can only add to these instructions; what the model
// sees besides them is the user message compile builds.
func SystemPrompt(prompt, outputLanguage string) string {
	s := "You compile a personal knowledge base. Write GitHub-flavoured Markdown only, with no preamble. " + prompt
	if outputLanguage != "" {
		s += fmt.Sprintf("\n\nWrite in the language whose BCP 47 tag is %q, whatever the language of the input.", outputLanguage)
	}
	return s
}

// SummaryPrompt is the user message that asks for one document's summary.
func SummaryPrompt(uri, text string) string {
	note := ""
	if utf8.RuneCountInString(text) > MaxDocumentChars {
		text = string([]rune(text)[:MaxDocumentChars])
		note = fmt.Sprintf("\n(The document is longer; only its first %d characters are shown.)", MaxDocumentChars)
	}
	return "Summarize the document " + uri + "." + note + "\n\n<document>\n" + text + "\n</document>"
}
