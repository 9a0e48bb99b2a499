package chat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/knowspace/knowspace/internal/kb"
)

// Export renders the caller's conversation as Markdown: each message under
// a heading, tool calls as a compact list, a failed or stopped answer
// labelled as such.
func (s *Service) Export(ctx context.Context, c kb.Caller, id int64) (string, string, error) {
	d, err := s.Detail(ctx, c, id, false)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	title := d.Title
	if title == "" {
		title = "Conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- Scope: `%s`\n", d.URI)
	if d.ModelID != "" {
		fmt.Fprintf(&b, "- Model: `%s`\n", d.ModelID)
	}
	fmt.Fprintf(&b, "- Started: %s\n", d.CreatedAt.UTC().Format(time.RFC3339))
	for _, m := range d.Messages {
		if m.Role == "user" {
			b.WriteString("\n## You\n\n")
		} else {
			b.WriteString("\n## KnowAgent")
			if m.Status != "complete" {
				fmt.Fprintf(&b, " (%s)", m.Status)
			}
			b.WriteString("\n\n")
		}
		if len(m.ToolCalls) > 0 {
			b.WriteString("Tools:\n\n")
			for _, tc := range m.ToolCalls {
				mark := "ok"
				if !tc.OK {
					mark = "failed"
				}
				target := tc.URI
				if target == "" {
					target = tc.Arguments
				}
				fmt.Fprintf(&b, "- `%s` %s — %s (%s)\n", tc.Name, target, oneLine(tc.Summary), mark)
			}
			b.WriteString("\n")
		}
		if m.Content != "" {
			b.WriteString(strings.TrimRight(m.Content, "\n"))
			b.WriteString("\n")
		}
		if m.Error != nil {
			fmt.Fprintf(&b, "\n> %s: %s\n", m.Error.Code, oneLine(m.Error.Message))
		}
	}
	return b.String(), exportName(title), nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// exportName is a file name made of the title's letters and digits.
func exportName(title string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		if r == '/' || r == '\\' || r < ' ' || strings.ContainsRune(`"<>:|?*.`, r) || r == ' ' {
			if !dash && b.Len() > 0 {
				b.WriteRune('-')
				dash = true
			}
			continue
		}
		b.WriteRune(r)
		dash = false
		if b.Len() > 60 {
			break
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		name = "conversation"
	}
	return name + ".md"
}
