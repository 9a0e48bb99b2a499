package skill

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/store"
)

// Limits of a skill's fields, in characters.
const (
	MaxNameChars        = 64
	MaxDescriptionChars = 500
	MaxPromptChars      = 8000
	maxLanguageChars    = 35
)

// BuiltinPrefix starts the id of every built-in skill.
const BuiltinPrefix = "builtin:"

const userPrefix = "s_"

// Skill is a compile skill as the API shows it. OutputLanguage is nil when
// the summaries follow the document's language.
type Skill struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Description    string    `json:"description"`
	Prompt         string    `json:"prompt"`
	OutputLanguage *string   `json:"output_language"`
	Builtin        bool      `json:"builtin"`
	UpdatedAt      time.Time `json:"updated_at"`
	// title is how a picker shows a built-in; a user skill shows its name.
	title string
}

// Title is the label a picker shows.
func (s Skill) Title() string {
	if s.title != "" {
		return s.title
	}
	return s.Name
}

// Language is the output language tag, "" for none.
func (s Skill) Language() string {
	if s.OutputLanguage == nil {
		return ""
	}
	return *s.OutputLanguage
}

// Hash is the first 12 hex digits of the SHA-256 of a prompt text:
// provenance records it so a summary says which wording wrote it.
func Hash(prompt string) string {
	sum := sha256.Sum256([]byte(prompt))
	return hex.EncodeToString(sum[:])[:12]
}

// builtinsUpdated is when the built-in wording last changed (PromptVersion
// of compile).
var builtinsUpdated = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// builtins are the read-only skills every user has, by name. Their prompts
// are part of every existing summary's fingerprint: changing a word here
// recompiles every file compiled with them.
var builtins = []Skill{
	{ID: BuiltinPrefix + "concise", Name: "concise", title: "Concise summary",
		Description: "One paragraph on what the document is and why it matters, then up to eight key points.",
		Prompt:      "Write a concise summary of the document in Markdown: one short paragraph on what it is and why it matters, then up to eight bullet points with its key facts, decisions and open questions. Do not invent anything that is not in the document."},
	{ID: BuiltinPrefix + "study-notes", Name: "study-notes", title: "Study notes",
		Description: "Main concepts with definitions, how they relate, worked examples and review questions.",
		Prompt:      "Turn the document into study notes in Markdown: the main concepts with one-line definitions, how they relate, worked examples if the document has any, and five review questions. Stay faithful to the document."},
	{ID: BuiltinPrefix + "chinese-summary", Name: "chinese-summary", title: "Chinese summary",
		Description: "A concise summary written in Simplified Chinese, whatever the document's language.",
		Prompt:      "用简体中文以 Markdown 写出文档摘要：先用一段话说明文档内容及其意义，再列出最多八条要点（关键事实、结论与未决问题）。不要编造文档中没有的内容。"},
}

func init() {
	for i := range builtins {
		builtins[i].Builtin = true
		builtins[i].UpdatedAt = builtinsUpdated
	}
}

// Builtins lists the built-in skills, in a fixed order.
func Builtins() []Skill { return append([]Skill(nil), builtins...) }

// Builtin finds a built-in skill by id ("builtin:concise") or name.
func Builtin(ref string) (Skill, bool) {
	name := strings.TrimPrefix(ref, BuiltinPrefix)
	for _, b := range builtins {
		if b.Name == name {
			return b, true
		}
	}
	return Skill{}, false
}

// IsBuiltinID reports whether id names a built-in skill's id space.
func IsBuiltinID(id string) bool { return strings.HasPrefix(id, BuiltinPrefix) }

// parseID reads a user skill's id, "s_<n>".
func parseID(id string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimPrefix(id, userPrefix), 10, 64)
	return n, strings.HasPrefix(id, userPrefix) && err == nil && n > 0
}

// fromRow is the API view of a stored skill.
func fromRow(r store.Skill) Skill {
	s := Skill{ID: userPrefix + strconv.FormatInt(r.ID, 10), Name: r.Name, Description: r.Description,
		Prompt: r.Prompt, UpdatedAt: r.UpdatedAt.UTC()}
	if r.OutputLanguage != "" {
		lang := r.OutputLanguage
		s.OutputLanguage = &lang
	}
	return s
}

// languageTag is a BCP 47 tag in its common shape: "zh", "pt-BR", "zh-Hans".
var languageTag = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// invalid is a validation error naming its field, in the message and in
// the error object.
func invalid(field, format string, args ...any) error {
	return apierr.BadRequest(apierr.CodeInvalidSkill, "%s", field+": "+fmt.Sprintf(format, args...)).WithDetail("field", field)
}

func checkName(name string) error {
	n := utf8.RuneCountInString(name)
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("name", "a skill needs a name")
	case n > MaxNameChars:
		return invalid("name", "is %d characters; at most %d", n, MaxNameChars)
	case strings.ContainsAny(name, "\n\r\t"):
		return invalid("name", "must be one line")
	}
	return nil
}

func checkDescription(d string) error {
	if n := utf8.RuneCountInString(d); n > MaxDescriptionChars {
		return invalid("description", "is %d characters; at most %d", n, MaxDescriptionChars)
	}
	return nil
}

func checkPrompt(p string) error {
	n := utf8.RuneCountInString(p)
	switch {
	case strings.TrimSpace(p) == "":
		return invalid("prompt", "a skill needs a prompt: the instruction the model follows")
	case n > MaxPromptChars:
		return invalid("prompt", "is %d characters; at most %d", n, MaxPromptChars)
	}
	return nil
}

func checkLanguage(lang string) error {
	if lang != "" && (len(lang) > maxLanguageChars || !languageTag.MatchString(lang)) {
		return invalid("output_language", "must be a language tag such as \"en\", \"zh\" or \"pt-BR\"")
	}
	return nil
}

// Option is a skill as the options endpoint lists it for a picker.
type Option struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Builtin     bool   `json:"builtin"`
}

// Options lists skills for a picker.
func Options(list []Skill) []Option {
	out := make([]Option, len(list))
	for i, s := range list {
		out[i] = Option{ID: s.ID, Name: s.Name, Title: s.Title(), Description: s.Description, Builtin: s.Builtin}
	}
	return out
}
