package skill

import (
	"context"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// PreviewRequest is the body of POST /skills/preview.
type PreviewRequest struct {
	Prompt         string  `json:"prompt"`
	OutputLanguage *string `json:"output_language"`
	URI            string  `json:"uri"`
}

// Validate checks the prompt as a skill's and that a file is named.
func (r *PreviewRequest) Validate() error {
	if err := checkPrompt(r.Prompt); err != nil {
		return err
	}
	if r.OutputLanguage != nil {
		if err := checkLanguage(*r.OutputLanguage); err != nil {
			return err
		}
	}
	if r.URI == "" {
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri is required: the file to preview the prompt for").WithDetail("field", "uri")
	}
	return nil
}

// Preview is the prompt compile would send for one file's summary, with
// the first page of the file's text as the document.
type Preview struct {
	System string `json:"system"`
	User   string `json:"user"`
	// Truncated says the file has more text than the preview shows; the
	// job sends up to MaxDocumentChars of it.
	Truncated bool `json:"truncated"`
}

// Preview builds the summary prompt of the file uri, read as the caller.
func (s *Service) Preview(ctx context.Context, c kb.Caller, r PreviewRequest) (Preview, error) {
	p, err := s.Tree.ReadPage(ctx, c, r.URI, 0, 0)
	if err != nil {
		return Preview{}, err
	}
	lang := ""
	if r.OutputLanguage != nil {
		lang = *r.OutputLanguage
	}
	return Preview{System: SystemPrompt(r.Prompt, lang), User: SummaryPrompt(p.URI, p.Text),
		Truncated: p.NextOffset != nil}, nil
}
