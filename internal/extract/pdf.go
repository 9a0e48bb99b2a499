package extract

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	pdfiumerr "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// maxPDFReopens bounds how often one document is reopened after PDFium
// trapped on a page, so a file that breaks every page costs a few
// reopenings, not one per page.
const maxPDFReopens = 3

// extractPDF reads the text of every page with poppler's pdftotext when it
// is installed (6–10× faster than PDFium in WebAssembly, docs/BENCHMARKS.md),
// and with PDFium when it is not or when pdftotext fails on the file.
func extractPDF(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	if lim.Pdftotext != "" {
		res, err := extractPDFPoppler(ctx, raw, lim)
		if err == nil || ctx.Err() != nil {
			return res, err
		}
		// PDFium gives a damaged file its own verdict: page by page, or
		// the refusal of one that is truly unreadable.
	}
	return extractPDFium(ctx, raw, lim)
}

// extractPDFium reads the text of every page with PDFium (chosen over
// ledongthuc/pdf by word recall and speed, docs/BENCHMARKS.md). A page
// PDFium cannot read is lost alone and listed in PageErrors. A long
// document is read in ranges by several engine instances at once, one per
// core the process may use.
func extractPDFium(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openPDF(ctx, raw)
	if err != nil {
		return Result{}, err
	}
	res := Result{Format: "pdf", Extractor: PDFExtractor, Pages: d.pages}
	ocr := newOCRReader(lim.OCR)
	defer ocr.close()
	prog := newPageProgress(lim.Progress, d.pages)
	ranges := splitPages(d.pages, runtime.GOMAXPROCS(0))
	parts := make([]pdfRange, len(ranges))
	var wg sync.WaitGroup
	for k, r := range ranges {
		doc := d
		if k > 0 {
			// Another extraction of this process may hold the other
			// instances; waiting for them could deadlock two documents
			// each holding one, so a busy pool leaves the range for later.
			acquire, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
			doc, err = openPDFIn(ctx, acquire, raw)
			cancel()
			if err != nil {
				doc = nil
			}
		}
		parts[k] = pdfRange{from: r[0], to: r[1], doc: doc, ocr: ocr, prog: prog}
	}
	for k := range parts {
		if parts[k].doc == nil {
			continue
		}
		wg.Add(1)
		go func(p *pdfRange) {
			defer wg.Done()
			p.read(ctx, raw, lim.MaxTextBytes)
		}(&parts[k])
	}
	wg.Wait()
	for k := range parts {
		if parts[k].doc == nil { // read the ranges no instance could take
			parts[k].doc, parts[k].err = openPDF(ctx, raw)
			if parts[k].err == nil {
				parts[k].read(ctx, raw, lim.MaxTextBytes)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	var b pdfText
	for k := range parts {
		p := &parts[k]
		if p.err != nil {
			return Result{}, p.err
		}
		res.PageErrors = append(res.PageErrors, p.errs...)
		for i, t := range p.texts {
			if b.Len() > lim.MaxTextBytes {
				break
			}
			b.add(&res, p.pages[i], t)
		}
	}
	if len(res.PageErrors) == res.Pages {
		// Not image-only pages: nothing could even be loaded.
		return Result{}, Fail(CodeParseFailed, "not a readable PDF: none of its %d pages can be loaded", res.Pages)
	}
	res.Text = b.String()
	if res.OCR = ocr.info(); res.OCR != nil {
		res.Source, res.Extractor = SourceOCR, pdfExtractor(PDFExtractor, res.OCR)
	}
	return res, nil
}

// pdfText is a document's text built page by page, pages apart by a blank
// line, with where each page starts.
type pdfText struct {
	strings.Builder
	runes int64
}

// add appends page's text t, unless it is empty (a blank page, or a scan
// OCR found nothing on), and records where it starts in res.
func (b *pdfText) add(res *Result, page int, t string) {
	if t == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteString("\n\n")
		b.runes += 2
	}
	res.PageStarts = append(res.PageStarts, PageStart{Page: page, Offset: b.runes})
	// Invalid UTF-8 becomes one U+FFFD per bad byte run, as Extract's
	// ToValidUTF8 will make it, so the offsets hold.
	t = strings.ToValidUTF8(t, "\uFFFD")
	b.WriteString(t)
	b.runes += int64(utf8.RuneCountInString(t))
}

// minPagesPerRange keeps short documents in one instance: a second one
// costs more to start than it saves.
const minPagesPerRange = 64

// splitPages cuts n pages into at most k contiguous [from, to) ranges of
// at least minPagesPerRange pages.
func splitPages(n, k int) [][2]int {
	k = max(1, min(k, n/minPagesPerRange))
	out := make([][2]int, k)
	for i := range k {
		out[i] = [2]int{i * n / k, (i + 1) * n / k}
	}
	return out
}

// pdfRange is the work of one engine instance: pages [from, to).
type pdfRange struct {
	from, to int
	only     []int // when set, the pages (0-based) read instead of [from, to)
	doc      *pdfDoc
	ocr      *ocrReader    // nil without OCR
	prog     *pageProgress // nil when nobody listens
	texts    []string
	pages    []int // the page (1-based) of each of texts
	errs     []PageError
	err      error
	// OCR of the range's pages runs beside it: results by index in
	// texts, merged by waitOCR.
	mu       sync.Mutex
	ocrWait  sync.WaitGroup
	ocrTexts map[int]string
}

// read extracts the range's pages, at most about limit bytes of them.
func (p *pdfRange) read(ctx context.Context, raw []byte, limit int) {
	d := p.doc
	defer func() { d.close() }()
	defer p.waitOCR()
	reopens, size := 0, 0
	pages := p.only
	if pages == nil {
		pages = make([]int, p.to-p.from)
		for k := range pages {
			pages[k] = p.from + k
		}
	}
	for k, i := range pages {
		if ctx.Err() != nil {
			return
		}
		t, err := d.pageText(i)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			p.addErr(PageError{Page: i + 1, Reason: pageReason(err)})
			if !errors.Is(err, pdfiumerr.ErrPage) {
				// A trap: the instance's heap is suspect, so read the
				// rest in a fresh one.
				d.inst.discard()
				if reopens++; reopens > maxPDFReopens {
					d.inst = nil
					for _, j := range pages[k+1:] {
						p.addErr(PageError{Page: j + 1, Reason: "not read: the engine failed on earlier pages"})
					}
					return
				}
				nd, err := openPDF(ctx, raw)
				if err != nil {
					d.inst = nil
					if ctx.Err() == nil {
						p.err = err
					}
					return
				}
				d = nd
			}
			continue
		}
		t = cleanPDFText(t)
		if p.ocr != nil && usableRunes(t) < usableTextRunes && d.hasPicture(i) {
			// The page is read in the background while the range goes on;
			// its text takes the layer text's place if it is better.
			if job, ok := p.prepareOCR(ctx, d, raw, i); ok {
				p.texts, p.pages = append(p.texts, t), append(p.pages, i+1)
				if !p.startOCR(ctx, job, len(p.texts)-1) {
					return
				}
				continue // counted when its OCR ends
			}
		}
		p.prog.page()
		if t == "" {
			continue
		}
		p.texts, p.pages = append(p.texts, t), append(p.pages, i+1)
		if size += len(t); size > limit {
			return
		}
	}
}

// pdfDoc is one open document in its own engine instance.
type pdfDoc struct {
	inst  *pdfInstance
	doc   references.FPDF_DOCUMENT
	pages int
	// probed: a page was measured in full; spaced: it showed words set
	// apart without spaces, so every page is (respace).
	probed, spaced bool
}

func openPDF(ctx context.Context, raw []byte) (*pdfDoc, error) {
	return openPDFIn(ctx, ctx, raw)
}

// openPDFIn opens raw in an instance acquired while acquire lasts.
func openPDFIn(ctx, acquire context.Context, raw []byte) (*pdfDoc, error) {
	inst, err := acquirePDFInstance(ctx, acquire)
	if err != nil {
		return nil, err
	}
	opened, err := inst.OpenDocument(&requests.OpenDocument{File: &raw})
	if err != nil {
		inst.discard()
		switch {
		case errors.Is(err, pdfiumerr.ErrPassword):
			return nil, passwordProtected()
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
	return d.respace(tp.TextPage, t.Text, n.Count)
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

// passwordProtected is the refusal of a PDF that needs a password to open.
func passwordProtected() error {
	return Fail(CodeEncrypted, "the PDF is password-protected; remove the password and upload it again")
}
