package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/klippa-app/go-pdfium/enums"
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

// ocrJob is one page to OCR. What needs the PDF engine (the page's size,
// and its image when PDFium renders it) is done before the job starts, in
// the range's own goroutine: an engine instance is not shared.
type ocrJob struct {
	page     int // 1-based
	raw      []byte
	img      *image.Gray // rendered by PDFium, or nil for pdftoppm
	dpi      int
	wPt, hPt float64
}

// prepareOCR takes a page of the cap and does the engine's part of page i
// (0-based); false means the page is not OCRed (and is listed in errs).
func (p *pdfRange) prepareOCR(ctx context.Context, d *pdfDoc, raw []byte, i int) (ocrJob, bool) {
	if code := p.ocr.take(); code != "" {
		p.lose(i+1, code)
		return ocrJob{}, false
	}
	job, err := d.prepareRender(p.ocr, i)
	if err != nil {
		p.addErr(PageError{Page: i + 1, Code: CodeOCRFailed, Reason: pageReason(err)})
		return ocrJob{}, false
	}
	job.raw = raw
	return job, true
}

// startOCR runs job in the background once one of the document's OCR
// slots is free (one per core: Tesseract runs single-threaded), storing
// its text under index idx of texts. False means ctx ended first.
func (p *pdfRange) startOCR(ctx context.Context, job ocrJob, idx int) bool {
	select {
	case p.ocr.slots <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	p.ocrWait.Add(1)
	go func() {
		defer p.ocrWait.Done()
		defer func() { <-p.ocr.slots }()
		defer p.prog.page()
		img, dpi := job.img, job.dpi
		if img == nil {
			var err error
			if img, dpi, err = p.ocr.renderPoppler(ctx, job.raw, job.page, job.wPt, job.hPt); err != nil {
				if pf, ok := err.(*pageFailure); ok {
					p.addErr(PageError{Page: job.page, Code: pf.code, Reason: pf.reason})
				} else if ctx.Err() == nil {
					p.addErr(PageError{Page: job.page, Code: CodeOCRFailed, Reason: SafeMessage("the page could not be rendered for OCR: " + err.Error())})
				}
				return
			}
		}
		text, err := p.ocr.read(ctx, job.page, img, dpi)
		if pf, ok := err.(*pageFailure); ok {
			p.addErr(PageError{Page: job.page, Code: pf.code, Reason: pf.reason})
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.ocrTexts == nil {
			p.ocrTexts = map[int]string{}
		}
		p.ocrTexts[idx] = text
	}()
	return true
}

// waitOCR waits for the range's OCR and puts each page's text in place of
// its text layer when it holds more.
func (p *pdfRange) waitOCR() {
	p.ocrWait.Wait()
	for idx, text := range p.ocrTexts {
		if usableRunes(text) > usableRunes(p.texts[idx]) {
			p.texts[idx] = text
		}
	}
	slices.SortStableFunc(p.errs, func(a, b PageError) int { return a.Page - b.Page })
}

func (p *pdfRange) addErr(e PageError) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, e)
}

// maxObjectsChecked bounds the page objects looked at for a picture.
const maxObjectsChecked = 4096

// hasPicture tells whether page i (0-based) draws an image or a form (which
// may hold one): only such a page can be a scan. A blank page, or one whose
// only content failed to load, is not worth rendering and reading.
func (d *pdfDoc) hasPicture(i int) bool {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: i}}
	n, err := d.inst.FPDFPage_CountObjects(&requests.FPDFPage_CountObjects{Page: page})
	if err != nil {
		return false
	}
	for k := range min(n.Count, maxObjectsChecked) {
		o, err := d.inst.FPDFPage_GetObject(&requests.FPDFPage_GetObject{Page: page, Index: k})
		if err != nil {
			continue
		}
		ty, err := d.inst.FPDFPageObj_GetType(&requests.FPDFPageObj_GetType{PageObject: o.PageObject})
		if err == nil && (ty.Type == enums.FPDF_PAGEOBJ_IMAGE || ty.Type == enums.FPDF_PAGEOBJ_FORM) {
			return true
		}
	}
	return false
}

// lose lists page as not OCRed for code, extending the previous run of
// pages lost the same way: a 2,000-page scan past the cap is one entry.
func (p *pdfRange) lose(page int, code string) {
	p.mu.Lock()
	defer p.mu.Unlock()
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

// prepareRender sizes page i (0-based) for rendering in gray at 300 dpi,
// or coarser when that would pass the pixel cap (a poster-sized page), and
// renders it with PDFium when poppler is not installed to do it later.
func (d *pdfDoc) prepareRender(r *ocrReader, i int) (ocrJob, error) {
	page := requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: i}}
	size, err := d.inst.GetPageSize(&requests.GetPageSize{Page: page})
	if err != nil {
		return ocrJob{}, err
	}
	job := ocrJob{page: i + 1, dpi: renderDPI(size.Width, size.Height), wPt: size.Width, hPt: size.Height}
	if job.dpi < 50 {
		return ocrJob{}, fmt.Errorf("the page is too large to render for OCR (%.0f×%.0f points)", size.Width, size.Height)
	}
	if r.o.Pdftoppm == "" {
		job.img, job.dpi, err = d.render(page, job.dpi)
	}
	return job, err
}

// render draws a page with PDFium and copies it out of the engine.
func (d *pdfDoc) render(page requests.Page, dpi int) (*image.Gray, int, error) {
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

// pdfExtractor names the engines that made a PDF's text: engine, and OCR's
// when it read some pages.
func pdfExtractor(engine string, info *OCRInfo) string {
	if info == nil {
		return engine
	}
	return strings.Join([]string{engine, info.Engine}, " + ")
}

// renderPoppler draws page (1-based) of raw with pdftoppm as 8-bit gray
// PGM at 300 dpi (coarser past the pixel cap, as render does).
func (r *ocrReader) renderPoppler(ctx context.Context, raw []byte, page int, wPt, hPt float64) (*image.Gray, int, error) {
	r.pdfOnce.Do(func() { r.pdf, r.pdfErr = tempPDF(raw) })
	if r.pdfErr != nil {
		return nil, 0, r.pdfErr
	}
	dpi := renderDPI(wPt, hPt)
	pctx, cancel := context.WithDeadline(ctx, r.pageDeadline())
	defer cancel()
	out, err := pdftoppm(pctx, r.o.Pdftoppm, r.pdf, page, dpi, "-gray")
	if err != nil {
		if pctx.Err() != nil && ctx.Err() == nil {
			return nil, 0, r.pastBudget()
		}
		return nil, 0, err
	}
	g, err := parsePGM(out)
	return g, dpi, err
}

// pdftoppm draws page (1-based) of the PDF at path at dpi with poppler's
// pdftoppm, in the output format the flags ask for, and returns its bytes.
func pdftoppm(ctx context.Context, bin, path string, page, dpi int, flags ...string) ([]byte, error) {
	n := strconv.Itoa(page)
	args := append([]string{"-f", n, "-l", n, "-r", strconv.Itoa(dpi)}, flags...)
	return runPoppler(ctx, "pdftoppm", bin, append(args, path)...)
}

// runPoppler runs one of poppler's tools with no environment and returns
// what it printed; its error carries the last line the tool complained
// with.
func runPoppler(ctx context.Context, tool, bin string, args ...string) ([]byte, error) {
	var out bytes.Buffer
	errs := &capped{max: 1 << 10}
	cmd := popplerCommand(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, errs
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%s: %v %s", tool, err, lastLine(strings.TrimSpace(errs.String())))
	}
	return out.Bytes(), nil
}

// popplerCommand is one of poppler's tools with no environment (no secret
// of ours reaches a parser of hostile files), dying with this process.
func popplerCommand(ctx context.Context, bin string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = []string{}
	dieWithParent(cmd)
	cmd.WaitDelay = toolIODelay
	return cmd
}

// close removes the temporary copy of the document.
func (r *ocrReader) close() {
	if r != nil && r.pdf != "" {
		_ = os.Remove(r.pdf)
	}
}

// renderDPI is 300, or less for a page that would pass the pixel cap.
func renderDPI(wPt, hPt float64) int {
	dpi := ocrDPI
	if px := wPt / 72 * hPt / 72 * ocrDPI * ocrDPI; px > maxOCRPixels {
		dpi = int(ocrDPI * math.Sqrt(maxOCRPixels/px))
	}
	return dpi
}

// parsePGM reads a binary 8-bit PGM ("P5 w h 255" then the pixels).
func parsePGM(b []byte) (*image.Gray, error) {
	var fields [4]string
	pos := 0
	for k := 0; k < 4; k++ {
		for pos < len(b) && (b[pos] == ' ' || b[pos] == '\n' || b[pos] == '\r' || b[pos] == '\t') {
			pos++
		}
		start := pos
		for pos < len(b) && !(b[pos] == ' ' || b[pos] == '\n' || b[pos] == '\r' || b[pos] == '\t') {
			pos++
		}
		fields[k] = string(b[start:pos])
	}
	pos++ // the single white space before the pixels
	w, _ := strconv.Atoi(fields[1])
	h, _ := strconv.Atoi(fields[2])
	if fields[0] != "P5" || fields[3] != "255" || w <= 0 || h <= 0 || int64(w)*int64(h) > maxOCRPixels || pos+w*h > len(b) {
		return nil, errors.New("pdftoppm wrote no page image")
	}
	g := image.NewGray(image.Rect(0, 0, w, h))
	copy(g.Pix, b[pos:pos+w*h])
	return g, nil
}
