package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// OCR configures reading text from pixels with Tesseract, run as a child
// process of the extraction child, so the job's deadline, cancel and memory
// ceiling (the parent watches the whole process tree) hold for it too.
type OCR struct {
	// Tesseract is the binary's path. The extraction child has an empty
	// environment, so the parent resolves it on its PATH; empty and not on
	// the PATH means OCR is unavailable.
	Tesseract string `json:"tesseract,omitempty"`
	// Pdftoppm is poppler's renderer, found like Tesseract; it draws a
	// scanned PDF page about five times faster than PDFium in WebAssembly,
	// which renders it when poppler is absent.
	Pdftoppm string `json:"pdftoppm,omitempty"`
	// Languages are Tesseract's language codes, tried together (config
	// ocr.languages).
	Languages []string `json:"languages,omitempty"`
	// MaxPages caps the pages of one document that are OCRed (ocr.max_pages);
	// the rest are listed as lost with code ocr_page_cap.
	MaxPages int `json:"max_pages,omitempty"`
	// PageTimeout is one page's budget; a page past it is lost alone.
	PageTimeout time.Duration `json:"page_timeout,omitempty"`
	// MinConfidence is the floor (0–100) under which a page's mean word
	// confidence marks it low_confidence.
	MinConfidence float64 `json:"min_confidence,omitempty"`
	// Until is when OCR stops starting pages, so that a long scan ends
	// with the pages read so far rather than killed at the job's deadline
	// with nothing; the parent sets it from parse_timeout.
	Until time.Time `json:"until,omitzero"`
	// Disabled turns OCR off even when Tesseract is installed.
	Disabled bool `json:"disabled,omitempty"`
}

// toolIODelay is how long the output of an OCR tool (tesseract,
// pdftoppm) that has exited may take to drain: a pipe holds 64 KB at most,
// yet on a loaded machine the reading goroutine waited past 1 s.
const toolIODelay = 3 * time.Second

// Defaults of OCR.
const (
	DefaultOCRMaxPages      = 200
	DefaultOCRPageTimeout   = 60 * time.Second
	DefaultOCRMinConfidence = 60
	// ocrDPI is the resolution pages are rendered and read at: Tesseract's
	// models are trained on text of about 10 pixels x-height, which 12-point
	// type reaches near 300 dpi.
	ocrDPI = 300
	// maxOCRPixels refuses images larger than this before decoding them: a
	// 600 dpi A3 scan is 70 Mpx; a decompression bomb declares billions.
	maxOCRPixels = 100_000_000
	// usableTextRunes is how much text a PDF page's text layer must hold to
	// be read as is; below it the page is a scan (perhaps with a stamped
	// page number) and is OCRed.
	usableTextRunes = 20
)

// DefaultOCRLanguages is ocr.languages when unset.
var DefaultOCRLanguages = []string{"eng", "chi_sim"}

// OCRInstallHint names the packages that make OCR work on Debian/Ubuntu.
const OCRInstallHint = "apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim"

// Page error codes of OCR.
const (
	CodeOCRPageCap = "ocr_page_cap"
	CodeOCRTimeout = "ocr_timeout"
	CodeOCRFailed  = "ocr_failed"
)

// OCRInfo says how OCR made a Result's text; it is part of the L2 body's
// provenance.
type OCRInfo struct {
	Engine    string    `json:"engine"` // e.g. "tesseract 5.3.0"
	Languages []string  `json:"languages"`
	Pages     []OCRPage `json:"pages"`
	// Confidence is the mean word confidence (0–100) over all OCRed words.
	Confidence float64 `json:"confidence"`
	// MinConfidence is the floor pages were judged against.
	MinConfidence float64 `json:"min_confidence"`
}

// OCRPage is one page read by OCR.
type OCRPage struct {
	Page       int     `json:"page"`
	Confidence float64 `json:"confidence"`
	Words      int     `json:"words"`
	// LowConfidence marks a page under the floor: its text is kept but is
	// likely wrong in places.
	LowConfidence bool `json:"low_confidence,omitempty"`
}

func (o OCR) withDefaults() OCR {
	if len(o.Languages) == 0 {
		o.Languages = DefaultOCRLanguages
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultOCRMaxPages
	}
	if o.PageTimeout <= 0 {
		o.PageTimeout = DefaultOCRPageTimeout
	}
	if o.MinConfidence <= 0 {
		o.MinConfidence = DefaultOCRMinConfidence
	}
	return o
}

// OCRStatus is whether OCR can run here and with what.
type OCRStatus struct {
	Available bool     `json:"available"`
	Engine    string   `json:"engine,omitempty"`
	Languages []string `json:"languages,omitempty"` // configured and installed
	Missing   []string `json:"missing_languages,omitempty"`
	Hint      string   `json:"hint,omitempty"`
}

var ocrProbe struct {
	mu    sync.Mutex
	cache map[string]probed
}

type probed struct {
	version string
	langs   []string
	err     error
}

// probeTesseract runs `tesseract --version` and `--list-langs` once per
// binary path.
func probeTesseract(bin string) probed {
	ocrProbe.mu.Lock()
	defer ocrProbe.mu.Unlock()
	if p, ok := ocrProbe.cache[bin]; ok {
		return p
	}
	var p probed
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--version").CombinedOutput()
	if err != nil {
		p.err = fmt.Errorf("tesseract --version: %w", err)
	} else {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		p.version = strings.TrimSpace(first)
		out, err = exec.CommandContext(ctx, bin, "--list-langs").CombinedOutput()
		if err != nil {
			p.err = fmt.Errorf("tesseract --list-langs: %w", err)
		}
		for _, l := range strings.Split(string(out), "\n")[1:] {
			if l = strings.TrimSpace(l); l != "" && l != "osd" {
				p.langs = append(p.langs, l)
			}
		}
	}
	if ocrProbe.cache == nil {
		ocrProbe.cache = map[string]probed{}
	}
	ocrProbe.cache[bin] = p
	return p
}

// Resolve fills Tesseract from the PATH when it is empty.
func (o OCR) Resolve() OCR {
	if o.Disabled {
		return o
	}
	if o.Tesseract == "" {
		if p, err := exec.LookPath("tesseract"); err == nil {
			o.Tesseract = p
		}
	}
	if o.Pdftoppm == "" {
		if p, err := exec.LookPath("pdftoppm"); err == nil {
			o.Pdftoppm = p
		}
	}
	return o
}

// Status reports whether OCR is available with o (after Resolve).
func (o OCR) Status() OCRStatus {
	o = o.Resolve().withDefaults()
	if o.Disabled {
		return OCRStatus{Hint: "OCR is turned off (ocr.enabled: false)"}
	}
	if o.Tesseract == "" {
		return OCRStatus{Hint: "Tesseract is not installed: " + OCRInstallHint}
	}
	p := probeTesseract(o.Tesseract)
	if p.err != nil {
		return OCRStatus{Hint: "Tesseract does not run (" + p.err.Error() + "): " + OCRInstallHint}
	}
	s := OCRStatus{Engine: p.version}
	for _, l := range o.Languages {
		if contains(p.langs, l) {
			s.Languages = append(s.Languages, l)
		} else {
			s.Missing = append(s.Missing, l)
		}
	}
	s.Available = len(s.Languages) > 0
	if len(s.Missing) > 0 {
		pk := make([]string, len(s.Missing))
		for i, l := range s.Missing {
			pk[i] = "tesseract-ocr-" + strings.ReplaceAll(l, "_", "-")
		}
		s.Hint = "languages not installed: apt-get install -y " + strings.Join(pk, " ")
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// ocrReader reads the pages of one document, counting them against the
// page cap. It is safe for concurrent use by the PDF ranges.
type ocrReader struct {
	o      OCR
	status OCRStatus
	mu     sync.Mutex
	// pdf is the document in a temporary file for pdftoppm, written at the
	// first page that needs it.
	pdf     string
	pdfErr  error
	pdfOnce sync.Once
	// slots bounds the pages OCRed at once across the document's ranges.
	slots chan struct{}
	used  int
	pages []OCRPage
	words int
	confs float64
}

// newOCRReader returns nil when OCR is unavailable.
func newOCRReader(o OCR) *ocrReader {
	o = o.withDefaults()
	if o.Disabled || o.Tesseract == "" {
		return nil
	}
	st := o.Status()
	if !st.Available {
		return nil
	}
	o.Languages = st.Languages
	return &ocrReader{o: o, status: st, slots: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// take reserves one page of the cap, or says by its code why the page
// may not be read.
func (r *ocrReader) take() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.used >= r.o.MaxPages {
		return CodeOCRPageCap
	}
	if !r.o.Until.IsZero() && time.Now().After(r.o.Until) {
		return CodeOCRTimeout
	}
	r.used++
	return ""
}

// read OCRs one page image (1-based page number) and records its confidence.
func (r *ocrReader) read(ctx context.Context, page int, img image.Image, dpi int) (string, error) {
	pctx, cancel := context.WithDeadline(ctx, r.pageDeadline())
	defer cancel()
	gray, dpi, err := preprocess(pctx, img, dpi)
	if err == nil {
		var res ocrResult
		if res, err = r.tesseract(pctx, gray, dpi); err == nil {
			return r.record(page, res), nil
		}
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if pctx.Err() != nil {
		return "", r.pastBudget()
	}
	return "", &pageFailure{code: CodeOCRFailed, reason: SafeMessage("OCR failed on this page: " + err.Error())}
}

// pageDeadline is when work on a page started now must end: its own
// budget, or the document's (Until) when that comes first, so that pages
// in flight at Until stop too, rendering and preprocessing included, and
// the pages already read reach the parent before it kills the child.
func (r *ocrReader) pageDeadline() time.Time {
	budget := time.Now().Add(r.o.PageTimeout)
	if !r.o.Until.IsZero() && r.o.Until.Before(budget) {
		budget = r.o.Until
	}
	return budget
}

func (r *ocrReader) pastBudget() *pageFailure {
	return &pageFailure{code: CodeOCRTimeout, reason: fmt.Sprintf("OCR of this page passed its budget (%s, or the document's time budget) and was stopped", r.o.PageTimeout)}
}

// record keeps a read page's confidence and returns its text.
func (r *ocrReader) record(page int, res ocrResult) string {
	p := OCRPage{Page: page, Confidence: round1(res.conf), Words: res.words,
		LowConfidence: res.words > 0 && res.conf < r.o.MinConfidence}
	if res.words == 0 {
		return ""
	}
	r.mu.Lock()
	r.pages = append(r.pages, p)
	r.words += res.words
	r.confs += res.conf * float64(res.words)
	r.mu.Unlock()
	return res.text
}

// info is what the reader did, for the Result; nil when it read nothing.
func (r *ocrReader) info() *OCRInfo {
	if r == nil || len(r.pages) == 0 {
		return nil
	}
	pages := append([]OCRPage(nil), r.pages...)
	sortPages(pages)
	mean := 0.0
	if r.words > 0 {
		mean = r.confs / float64(r.words)
	}
	return &OCRInfo{Engine: r.status.Engine, Languages: r.o.Languages, Pages: pages,
		Confidence: round1(mean), MinConfidence: r.o.MinConfidence}
}

func sortPages(p []OCRPage) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && p[j].Page < p[j-1].Page; j-- {
			p[j], p[j-1] = p[j-1], p[j]
		}
	}
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }

// pageFailure is one page lost to OCR, with its code.
type pageFailure struct{ code, reason string }

func (e *pageFailure) Error() string { return e.reason }

type ocrResult struct {
	text  string
	conf  float64
	words int
}

// tesseract reads img with automatic page segmentation and orientation
// detection (--psm 1), so a page scanned sideways or upside down is read
// upright, and parses the TSV output for the text and word confidences.
// On a Chinese page, lines read as Latin with low confidence are read
// again as Chinese (retryLatinLines); headings in a margin are put back
// where they are read (readingOrder).
func (r *ocrReader) tesseract(ctx context.Context, img *image.Gray, dpi int) (ocrResult, error) {
	lines, err := r.runTesseract(ctx, img, dpi, r.o.Languages, "1")
	if err != nil {
		return ocrResult{}, err
	}
	if lines, err = r.retryLatinLines(ctx, img, dpi, lines); err != nil {
		return ocrResult{}, err
	}
	return assemble(readingOrder(lines)), nil
}

// runTesseract reads img in langs with page segmentation mode psm.
func (r *ocrReader) runTesseract(ctx context.Context, img *image.Gray, dpi int, langs []string, psm string) ([]ocrLine, error) {
	var in bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&in, img); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, r.o.Tesseract, "stdin", "stdout",
		"-l", strings.Join(langs, "+"), "--psm", psm, "--dpi", strconv.Itoa(dpi),
		// Keep Chinese characters apart from Latin spacing rules.
		"-c", "preserve_interword_spaces=1", "tsv")
	// One thread: pages are read in parallel by the PDF ranges, and
	// OpenMP threads on top of them only contend.
	cmd.Env = []string{"OMP_THREAD_LIMIT=1"}
	dieWithParent(cmd)
	cmd.Stdin = &in
	var out bytes.Buffer
	errs := &capped{max: 2 << 10}
	cmd.Stdout, cmd.Stderr = &out, errs
	cmd.WaitDelay = toolIODelay
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		msg := strings.TrimSpace(errs.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, errors.New(lastLine(msg))
	}
	return parseTSV(out.String()), nil
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// ocrWord is one word of Tesseract's TSV: its text, confidence and box.
type ocrWord struct {
	text string
	conf float64
	box  image.Rectangle
}

// ocrLine is a line of words, with the block and paragraph it is in.
type ocrLine struct {
	block, par int
	words      []ocrWord
}

// parseTSV groups the words of Tesseract's TSV (level 5 rows) by block,
// paragraph and line.
func parseTSV(tsv string) []ocrLine {
	var lines []ocrLine
	lastBlock, lastPar, lastLine := -1, -1, -1
	for i, row := range strings.Split(tsv, "\n") {
		f := strings.Split(strings.TrimRight(row, "\r"), "\t")
		if i == 0 || len(f) < 12 || f[0] != "5" {
			continue
		}
		word := strings.TrimSpace(f[11])
		conf, err := strconv.ParseFloat(f[10], 64)
		if word == "" || err != nil || conf < 0 {
			continue
		}
		var n [4]int // left, top, width, height
		block, _ := strconv.Atoi(f[2])
		par, _ := strconv.Atoi(f[3])
		ln, _ := strconv.Atoi(f[4])
		for k := range 4 {
			n[k], _ = strconv.Atoi(f[6+k])
		}
		if block != lastBlock || par != lastPar || ln != lastLine {
			lines = append(lines, ocrLine{block: block, par: par})
		}
		lastBlock, lastPar, lastLine = block, par, ln
		l := &lines[len(lines)-1]
		l.words = append(l.words, ocrWord{text: word, conf: conf, box: image.Rect(n[0], n[1], n[0]+n[2], n[1]+n[3])})
	}
	return lines
}

// assemble rebuilds the text from lines (blocks and paragraphs become
// blank-line breaks, lines newlines) and averages word confidences.
func assemble(lines []ocrLine) ocrResult {
	var b strings.Builder
	var res ocrResult
	for i, l := range lines {
		switch {
		case i > 0 && (l.block != lines[i-1].block || l.par != lines[i-1].par):
			b.WriteString("\n\n")
		case i > 0:
			b.WriteString("\n")
		}
		words := make([]string, len(l.words))
		for k, w := range l.words {
			words[k] = hyphenOptions(w.text)
			res.words++
			res.conf += w.conf
		}
		b.WriteString(joinWords(words))
	}
	if res.words > 0 {
		res.conf /= float64(res.words)
	}
	res.text = b.String()
	return res
}

// joinWords puts spaces between words except between two CJK ones, where
// Tesseract's word boxes are not word breaks of the language.
func joinWords(words []string) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			prev, _ := lastRune(words[i-1])
			next := []rune(w)[0]
			if !unspaced(prev) && !unspaced(next) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	return b.String()
}

func lastRune(s string) (rune, bool) {
	r := []rune(s)
	if len(r) == 0 {
		return 0, false
	}
	return r[len(r)-1], true
}

// unspaced is a character of a script written without spaces between
// words, or CJK/full-width punctuation.
func unspaced(r rune) bool {
	return unicode.Is(unicode.Han, r) || r >= 0x3040 && r <= 0x30ff || r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

// noOCRHint is the no_text message's tail when OCR could not run.
func noOCRHint(o OCR) string {
	st := o.Status()
	if st.Available {
		return "OCR found no text in it"
	}
	return "OCR is not available (" + st.Hint + ")"
}
