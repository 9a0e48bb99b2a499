package extract

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"
)

// extractPDF reads the text of every page.
func extractPDF(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	r, err := pdf.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return Result{}, fmt.Errorf("not a readable PDF: %w", err)
	}
	res := Result{Format: "pdf", Extractor: "ledongthuc/pdf", Pages: r.NumPage()}
	var b strings.Builder
	fonts := map[string]*pdf.Font{}
	for i := 1; i <= r.NumPage(); i++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		for _, name := range p.Fonts() {
			if _, ok := fonts[name]; !ok {
				f := p.Font(name)
				fonts[name] = &f
			}
		}
		t, err := p.GetPlainText(fonts)
		if err != nil {
			res.PageErrors = append(res.PageErrors, PageError{Page: i, Reason: SafeMessage(err.Error())})
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(strings.TrimSpace(t))
		if b.Len() > lim.MaxTextBytes {
			break
		}
	}
	res.Text = b.String()
	return res, nil
}
