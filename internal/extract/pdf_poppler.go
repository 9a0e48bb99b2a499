package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// popplerDamage are the complaints with which pdftotext reads past damage
// (a page tree that loops, a stream that does not inflate): its text of
// such a file may lack pages PDFium would list as lost, so PDFium reads it.
var popplerDamage = [][]byte{[]byte("Syntax Error"), []byte("Internal Error"), []byte("I/O Error"), []byte("Permission Error")}

// progressFromBytes is the size from which a PDF's reading by pdftotext
// is reported page by page (its pages counted first by pdfinfo, one more
// process): a smaller one is read in a fraction of a second.
const progressFromBytes = 1 << 20

// extractPDFPoppler reads the text of every page with poppler's pdftotext,
// run as a child of this process (the extraction child, whose deadline,
// cancel and memory ceiling cover its whole process tree). Pages split at
// pdftotext's form feeds. A page with too little text to be read as is
// goes to PDFium, as it would have without poppler: it decides whether the
// page is a scan and has it OCRed. Any error leaves the file to PDFium.
func extractPDFPoppler(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	f, err := unlinkedPDF(raw)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	var prog *pageProgress
	if lim.Progress != nil && len(raw) >= progressFromBytes {
		if n := popplerPages(ctx, pdfinfoBeside(lim.Pdftotext), f); n > 0 {
			prog = newPageProgress(lim.Progress, n)
		}
	}
	out := &pageSplitter{max: lim.MaxTextBytes + 64<<10, prog: prog}
	errs := &damageWatch{capped: capped{max: 1 << 10}}
	cmd := popplerCommand(ctx, lim.Pdftotext, "-enc", "UTF-8", inheritedPDF, "-")
	cmd.ExtraFiles, cmd.Stdout, cmd.Stderr = []*os.File{f}, out, errs
	if err := cmd.Run(); err != nil {
		return Result{}, fmt.Errorf("pdftotext: %v %s", err, lastLine(strings.TrimSpace(errs.String())))
	}
	if errs.damaged {
		return Result{}, errors.New("pdftotext read past damage in the file")
	}
	n := out.pages
	if n == 0 {
		return Result{}, errors.New("pdftotext found no pages")
	}
	// The pages that end within what was kept, and one cut short.
	kept := bytes.Count(out.buf.Bytes(), []byte{'\f'})
	if out.over {
		kept++
	}
	texts := strings.Split(out.buf.String(), "\f")[:min(n, kept)]
	res := Result{Format: "pdf", Extractor: pdftotextName(ctx, lim.Pdftotext), Pages: n}
	ocr := newOCRReader(lim.OCR)
	defer ocr.close()
	var scans []int
	usable := 0
	for i, t := range texts {
		texts[i] = cleanPDFText(t)
		u := usableRunes(texts[i])
		usable += u
		if ocr != nil && u < usableTextRunes {
			scans = append(scans, i)
		}
	}
	if usable == 0 && len(scans) == 0 {
		// No scan to OCR, and no text: PDFium may know a font poppler
		// misread; if not, it ends in the same no_text.
		return Result{}, errors.New("pdftotext found no text")
	}
	if len(scans) > 0 {
		if err := readScans(ctx, raw, lim, &res, texts, scans, ocr, prog); err != nil {
			return Result{}, err
		}
	}
	var b pdfText
	for i, t := range texts {
		if b.Len() > lim.MaxTextBytes {
			break
		}
		b.add(&res, i+1, t)
	}
	res.Text = b.String()
	if out.over && len(res.Text) <= lim.MaxTextBytes {
		res.Truncated, res.TruncatedAt = true, b.runes
	}
	if res.OCR = ocr.info(); res.OCR != nil {
		res.Source, res.Extractor = SourceOCR, pdfExtractor(res.Extractor, res.OCR)
	}
	return res, nil
}

// inheritedPDF is the path under which poppler's tools open the document:
// the first of the descriptors they inherit (ExtraFiles). pdftotext reads
// a file twice as fast as the same bytes from its stdin.
const inheritedPDF = "/dev/fd/3"

// unlinkedPDF writes raw to a temporary file whose name is removed at once:
// poppler's tools open it through an inherited descriptor, and nothing is
// left on disk even when the extraction child is killed mid-read.
func unlinkedPDF(raw []byte) (*os.File, error) {
	f, err := os.CreateTemp("", "knowspace-text-*.pdf")
	if err != nil {
		return nil, err
	}
	err = os.Remove(f.Name())
	if err == nil {
		_, err = f.Write(raw)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// popplerPages counts the pages of the PDF f with pdfinfo (bin); 0 when
// it cannot.
func popplerPages(ctx context.Context, bin string, f *os.File) int {
	if bin == "" {
		return 0
	}
	out := &capped{max: 16 << 10}
	cmd := popplerCommand(ctx, bin, inheritedPDF)
	cmd.ExtraFiles, cmd.Stdout = []*os.File{f}, out
	if cmd.Run() != nil {
		return 0
	}
	for line := range strings.Lines(out.String()) {
		if v, ok := strings.CutPrefix(line, "Pages:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	return 0
}

// readScans has PDFium read the pages (0-based) of scans, the pages with
// too little text to be read as is, and puts what it read, OCR included,
// in texts.
func readScans(ctx context.Context, raw []byte, lim Limits, res *Result, texts []string, scans []int, ocr *ocrReader, prog *pageProgress) error {
	d, err := openPDF(ctx, raw)
	if err != nil {
		return err
	}
	if d.pages != res.Pages {
		d.close()
		return fmt.Errorf("pdftotext read %d pages, PDFium %d", res.Pages, d.pages)
	}
	if prog == nil && lim.Progress != nil {
		// OCR takes seconds a page: its pages are reported, the others
		// counted as read.
		prog = newPageProgress(lim.Progress, d.pages)
		prog.read.Add(int64(d.pages - len(scans)))
	}
	p := pdfRange{only: scans, doc: d, ocr: ocr, prog: prog}
	p.read(ctx, raw, lim.MaxTextBytes)
	if err := ctx.Err(); err != nil {
		return err
	}
	if p.err != nil {
		return p.err
	}
	for k, page := range p.pages {
		texts[page-1] = p.texts[k]
	}
	res.PageErrors = p.errs
	return nil
}

// pageSplitter keeps the first max bytes of pdftotext's output and counts
// its pages (each ends in a form feed) to the end. Its buffer is a field,
// as capped's is, so that io.Copy writes through Write.
type pageSplitter struct {
	buf   bytes.Buffer
	max   int
	pages int
	over  bool
	prog  *pageProgress
}

func (s *pageSplitter) Write(p []byte) (int, error) {
	keep := p[:max(0, min(len(p), s.max-s.buf.Len()))]
	s.buf.Write(keep)
	s.over = s.over || len(keep) < len(p)
	ends := bytes.Count(p, []byte{'\f'})
	s.pages += ends
	for range ends {
		s.prog.page()
	}
	return len(p), nil
}

// damageWatch keeps the start of pdftotext's complaints and notes any
// that says the file is damaged.
type damageWatch struct {
	capped
	tail    []byte // the end of the last write: a complaint may span two
	damaged bool
}

func (w *damageWatch) Write(p []byte) (int, error) {
	_, _ = w.capped.Write(p)
	if !w.damaged {
		buf := append(w.tail, p...)
		for _, s := range popplerDamage {
			w.damaged = w.damaged || bytes.Contains(buf, s)
		}
		w.tail = append(w.tail[:0], buf[max(0, len(buf)-24):]...)
	}
	return len(p), nil
}

// pdftotextNames caches what each pdftotext binary calls itself.
var pdftotextNames sync.Map

// pdftotextName names the engine in a Result's provenance, with poppler's
// version ("pdftotext 22.12.0 (poppler)") when the binary tells it.
func pdftotextName(ctx context.Context, bin string) string {
	if v, ok := pdftotextNames.Load(bin); ok {
		return v.(string)
	}
	name := "pdftotext (poppler)"
	out := &capped{max: 256}
	cmd := popplerCommand(ctx, bin, "-v")
	cmd.Stdout, cmd.Stderr = out, out
	if cmd.Run() == nil {
		first, _, _ := strings.Cut(out.String(), "\n")
		if v, ok := strings.CutPrefix(strings.TrimSpace(first), "pdftotext version "); ok && v != "" {
			name = "pdftotext " + SafeMessage(v) + " (poppler)"
		}
	}
	pdftotextNames.Store(bin, name)
	return name
}
