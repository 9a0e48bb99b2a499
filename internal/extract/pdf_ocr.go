package extract

import (
	"context"
	"fmt"
	"image"
	"math"
	"strings"
	"unicode"

	"github.com/klippa-app/go-pdfium/requests"
)

// usableRunes counts the letters and digits of a page's text layer.
func usableRunes(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// ocrPage renders page i (0-based) of a document whose text layer holds
// too little and reads it with OCR. It returns the recognized text, or ""
// with the page listed in p.errs when the page could not be read.
func (p *pdfRange) ocrPage(ctx context.Context, d *pdfDoc, i int) string {
	if code := p.ocr.take(); code != "" {
		p.lose(i+1, code)
		return ""
	}
	img, dpi, err := d.render(i)
	if err != nil {
		p.errs = append(p.errs, PageError{Page: i + 1, Code: CodeOCRFailed, Reason: pageReason(err)})
		return ""
	}
	text, err := p.ocr.read(ctx, i+1, img, dpi)
	if pf, ok := err.(*pageFailure); ok {
		p.errs = append(p.errs, PageError{Page: i + 1, Code: pf.code, Reason: pf.reason})
		return ""
	}
	return text
}

// lose lists page as not OCRed for code, extending the previous run of
// pages lost the same way: a 2,000-page scan past the cap is one entry.
func (p *pdfRange) lose(page int, code string) {
	if n := len(p.errs); n > 0 {
		last := &p.errs[n-1]
		if last.Code == code && max(last.Page, last.Last) == page-1 {
			last.Last = page
			return
		}
	}
	reason := fmt.Sprintf("not OCRed: the document has more scanned pages than ocr.max_pages (%d)", p.ocr.o.MaxPages)
	if code == CodeOCRTimeout {
		reason = "not OCRed: the document's time budget (parse_timeout) ran out"
	}
	p.errs = append(p.errs, PageError{Page: page, Code: code, Reason: reason})
}

// render draws page i in gray at 300 dpi, or coarser when that would pass
// the pixel cap (a poster-sized page), and copies it out of the engine.
func (d *pdfDoc) render(i int) (*image.Gray, int, error) {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: i}}
	size, err := d.inst.GetPageSize(&requests.GetPageSize{Page: page})
	if err != nil {
		return nil, 0, err
	}
	dpi := ocrDPI
	if px := size.Width / 72 * size.Height / 72 * ocrDPI * ocrDPI; px > maxOCRPixels {
		dpi = int(ocrDPI * math.Sqrt(maxOCRPixels/px))
	}
	if dpi < 50 {
		return nil, 0, fmt.Errorf("the page is too large to render for OCR (%.0f×%.0f points)", size.Width, size.Height)
	}
	r, err := d.inst.RenderPageInDPI(&requests.RenderPageInDPI{Page: page, DPI: dpi, ImageFormat: requests.RenderImageFormatGrayscale})
	if err != nil {
		return nil, 0, err
	}
	defer r.Cleanup()
	src, ok := r.Result.RenderedImage.(*image.Gray)
	if !ok {
		return nil, 0, fmt.Errorf("the engine rendered %T, not gray", r.Result.RenderedImage)
	}
	g := image.NewGray(image.Rect(0, 0, src.Rect.Dx(), src.Rect.Dy()))
	for y := range g.Rect.Dy() {
		copy(g.Pix[y*g.Stride:(y+1)*g.Stride], src.Pix[y*src.Stride:y*src.Stride+g.Rect.Dx()])
	}
	return g, dpi, nil
}

// pdfExtractor names the engines that made a PDF's text.
func pdfExtractor(info *OCRInfo) string {
	if info == nil {
		return PDFExtractor
	}
	return strings.Join([]string{PDFExtractor, info.Engine}, " + ")
}
