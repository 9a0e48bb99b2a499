package extract

import (
	"context"
	"errors"
	"fmt"
	"strings"

	pdfiumerr "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// maxPDFReopens bounds how often one document is reopened after PDFium
// trapped on a page, so a file that breaks every page costs a few
// reopenings, not one per page.
const maxPDFReopens = 3

// extractPDF reads the text of every page with PDFium (chosen over
// ledongthuc/pdf by word recall and speed, docs/BENCHMARKS.md). A page
// PDFium cannot read is lost alone and listed in PageErrors.
func extractPDF(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openPDF(ctx, raw)
	if err != nil {
		return Result{}, err
	}
	defer func() { d.close() }()
	res := Result{Format: "pdf", Extractor: PDFExtractor, Pages: d.pages}
	var b strings.Builder
	reopens := 0
	for i := 0; i < d.pages; i++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		t, err := d.pageText(i)
		if err != nil {
			if ctx.Err() != nil {
				return Result{}, ctx.Err()
			}
			res.PageErrors = append(res.PageErrors, PageError{Page: i + 1, Reason: pageReason(err)})
			if !errors.Is(err, pdfiumerr.ErrPage) {
				// A trap: the instance's heap is suspect, so read the
				// rest in a fresh one.
				d.inst.discard()
				if reopens++; reopens > maxPDFReopens {
					d.inst = nil
					for j := i + 2; j <= d.pages; j++ {
						res.PageErrors = append(res.PageErrors, PageError{Page: j, Reason: "not read: the engine failed on earlier pages"})
					}
					break
				}
				nd, err := openPDF(ctx, raw)
				if err != nil {
					d.inst = nil
					if ctx.Err() != nil {
						return Result{}, ctx.Err()
					}
					return Result{}, err
				}
				d = nd
			}
			continue
		}
		if t = cleanPDFText(t); t == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(t)
		if b.Len() > lim.MaxTextBytes {
			break
		}
	}
	if len(res.PageErrors) == res.Pages {
		// Not image-only pages: nothing could even be loaded.
		return Result{}, Fail(CodeParseFailed, "not a readable PDF: none of its %d pages can be loaded", res.Pages)
	}
	res.Text = b.String()
	return res, nil
}

// pdfDoc is one open document in its own engine instance.
type pdfDoc struct {
	inst  *pdfInstance
	doc   references.FPDF_DOCUMENT
	pages int
}

func openPDF(ctx context.Context, raw []byte) (*pdfDoc, error) {
	inst, err := newPDFInstance(ctx)
	if err != nil {
		return nil, err
	}
	opened, err := inst.OpenDocument(&requests.OpenDocument{File: &raw})
	if err != nil {
		inst.discard()
		switch {
		case errors.Is(err, pdfiumerr.ErrPassword):
			return nil, Fail(CodeEncrypted, "the PDF is password-protected; remove the password and upload it again")
		case errors.Is(err, pdfiumerr.ErrSecurity):
			return nil, Fail(CodeEncrypted, "the PDF is encrypted with an unsupported security handler")
		}
		return nil, Fail(CodeParseFailed, "not a readable PDF (%s)", openReason(err))
	}
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: opened.Document})
	if err != nil || count.PageCount <= 0 {
		// PDFium gives up on page trees that loop or nest too deep and
		// then reports no pages: that is damage, not a blank document.
		inst.discard()
		return nil, Fail(CodeParseFailed, "not a readable PDF: its page tree is damaged")
	}
	return &pdfDoc{inst: inst, doc: opened.Document, pages: count.PageCount}, nil
}

// pageText returns page i's (0-based) text as PDFium lays it out: spaces
// it infers from glyph positions, lines ending in "\r\n".
func (d *pdfDoc) pageText(i int) (string, error) {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: i}}
	tp, err := d.inst.FPDFText_LoadPage(&requests.FPDFText_LoadPage{Page: page})
	if err != nil {
		return "", err
	}
	defer d.inst.FPDFText_ClosePage(&requests.FPDFText_ClosePage{TextPage: tp.TextPage})
	n, err := d.inst.FPDFText_CountChars(&requests.FPDFText_CountChars{TextPage: tp.TextPage})
	if err != nil {
		return "", err
	}
	if n.Count <= 0 {
		return "", nil
	}
	t, err := d.inst.FPDFText_GetText(&requests.FPDFText_GetText{TextPage: tp.TextPage, StartIndex: 0, Count: n.Count})
	if err != nil {
		return "", err
	}
	return t.Text, nil
}

func (d *pdfDoc) close() {
	if d.inst == nil {
		return
	}
	_, _ = d.inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: d.doc})
	d.inst.release()
}

// cleanPDFText normalises line ends and drops the control characters
// PDFium uses as markers (soft hyphens at line ends, NULs).
func cleanPDFText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case r == '\r':
			return '\n'
		case r < 0x20 || r == 0x7f || r == 0xfffe || r == 0xffff:
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// openReason names PDFium's load error without quoting the file.
func openReason(err error) string {
	switch {
	case errors.Is(err, pdfiumerr.ErrFormat):
		return "not a PDF or damaged beyond repair"
	case errors.Is(err, pdfiumerr.ErrFile):
		return "the file is truncated or unreadable"
	}
	return "the engine failed on it"
}

func pageReason(err error) string {
	if errors.Is(err, pdfiumerr.ErrPage) {
		return "the page cannot be loaded"
	}
	// The first line is wazero's trap kind; the rest is a wasm stack.
	first, _, _ := strings.Cut(err.Error(), "\n")
	return SafeMessage(fmt.Sprintf("the engine failed on this page (%s)", first))
}
