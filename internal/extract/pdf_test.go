package extract

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// pdfCorpus is testdata/pdf, built by its make.sh; golden/ holds what
// pdftotext makes of each file.
const pdfCorpus = "testdata/pdf"

func readCorpus(tb testing.TB, name string) []byte {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(pdfCorpus, name))
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

func golden(tb testing.TB, name string) string {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(pdfCorpus, "golden", strings.TrimSuffix(name, ".pdf")+".txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(raw)
}

// pdfCase is the expected outcome of one corpus file.
type pdfCase struct {
	file       string
	code       string   // error code, or "" for text
	pages      int      // Result.Pages
	pageErrors []int    // pages listed in PageErrors
	golden     bool     // a text PDF: recall against pdftotext must reach minRecall
	contains   []string // text that must be there (malformed files pdftotext misreads)
	// With poppler installed: fallback, pdftotext complains of damage and
	// PDFium reads the file as above; popplerReads, pdftotext reads a file
	// PDFium refuses, and its text holds these.
	fallback     bool
	popplerReads []string
}

const minRecall = 0.98

var pdfCases = []pdfCase{
	{file: "pdftex-article.pdf", pages: 2, golden: true},
	{file: "pdftex-twocolumn.pdf", pages: 2, golden: true},
	{file: "libreoffice-docx.pdf", pages: 2, golden: true},
	{file: "reportlab.pdf", pages: 2, golden: true},
	{file: "reportlab-cjk-cid.pdf", pages: 1, golden: true, contains: []string{"知识工作区使用指南"}},
	{file: "reportlab-cjk-embedded.pdf", pages: 1, golden: true, contains: []string{"小文件胜过大文件"}},
	{file: "merged.pdf", pages: 6, golden: true},
	{file: "encrypted-owner.pdf", pages: 2, golden: true},
	{file: "encrypted-user.pdf", code: CodeEncrypted},
	{file: "scanned.pdf", code: CodeNoText},
	{file: "truncated.pdf", code: CodeParseFailed},
	{file: "not-a-pdf.pdf", code: CodeParseFailed},
	{file: "deep-tree.pdf", code: CodeParseFailed, popplerReads: []string{"Deep tree: the only page is fifteen hundred levels down."}},
	{file: "cyclic-kids.pdf", pages: 2, pageErrors: []int{2}, contains: []string{"Cyclic kids: this page is real."}, fallback: true},
	{file: "parent-loop.pdf", pages: 1, contains: []string{"Parent loop"}, fallback: true},
	{file: "huge-count.pdf", pages: 1, contains: []string{"Huge count"}, fallback: true},
	{file: "xref-loop.pdf", pages: 1, contains: []string{"Xref loop"}},
	// PDFium reads a page whose stream does not inflate as empty: the page
	// is lost, the others are not.
	{file: "bad-stream.pdf", pages: 3, contains: []string{"First page survives", "Third page survives"}, fallback: true},
}

// pdfEngines are the engines a test of PDF text runs with: PDFium always,
// and poppler's pdftotext (PDFium its fallback) when it is installed.
func pdfEngines() map[string]Limits {
	e := map[string]Limits{"pdfium": {PDFiumOnly: true}}
	if bin, err := exec.LookPath("pdftotext"); err == nil {
		e["pdftotext"] = Limits{Pdftotext: bin}
	}
	return e
}

func TestPDFCorpus(t *testing.T) {
	if _, err := pdfPool(); err != nil { // start-up is not the files' time
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(pdfCorpus, "*.pdf"))
	if len(files) != len(pdfCases) {
		t.Fatalf("corpus has %d files, the table %d: add the new ones", len(files), len(pdfCases))
	}
	for engine, lim := range pdfEngines() {
		for _, c := range pdfCases {
			t.Run(engine+"/"+c.file, func(t *testing.T) {
				testPDFCase(t, engine, lim, c)
			})
		}
	}
}

func testPDFCase(t *testing.T, engine string, lim Limits, c pdfCase) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	// The scan is read by OCR in ocr_test.go; here it stands for a PDF
	// without a text layer where OCR cannot run.
	lim.OCR.Disabled = c.file == "scanned.pdf"
	res, err := Extract(ctx, c.file, readCorpus(t, c.file), lim)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v; a file must end within seconds", d)
	}
	wantExtractor := PDFExtractor
	if engine == "pdftotext" {
		if c.popplerReads != nil {
			c = pdfCase{file: c.file, pages: 1, contains: c.popplerReads}
		}
		if !c.fallback {
			wantExtractor = pdftotextName(ctx, lim.Pdftotext)
		}
	}
	if c.code != "" {
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Fatalf("got %v (text %d bytes); want code %s", err, len(res.Text), c.code)
		}
		if !utf8.ValidString(e.Message) || !strings.Contains(e.Message, c.file) {
			t.Errorf("message %q: want valid UTF-8 naming the file", e.Message)
		}
		return
	}
	if err != nil {
		t.Fatalf("got %v; want text", err)
	}
	if res.Format != "pdf" || res.Extractor != wantExtractor || res.Pages != c.pages {
		t.Errorf("format %q extractor %q pages %d; want pdf, %q, %d", res.Format, res.Extractor, res.Pages, wantExtractor, c.pages)
	}
	var lost []int
	for _, pe := range res.PageErrors {
		lost = append(lost, pe.Page)
		if pe.Reason == "" {
			t.Errorf("page %d lost without a reason", pe.Page)
		}
	}
	if !slices.Equal(lost, c.pageErrors) {
		t.Errorf("pages lost %v; want %v", lost, c.pageErrors)
	}
	for _, s := range c.contains {
		if !strings.Contains(res.Text, s) {
			t.Errorf("text lacks %q:\n%s", s, res.Text)
		}
	}
	if c.golden {
		if r := recall(golden(t, c.file), res.Text); r < minRecall {
			t.Errorf("word recall against pdftotext %.3f; want ≥ %.2f", r, minRecall)
		}
	}
}

// The words pdfTeX places by position, with no space glyphs, come out as
// words: the failure of the old engine (recall 0.11–0.31).
func TestPDFTeXHasSpaces(t *testing.T) {
	res, err := Extract(context.Background(), "a.pdf", readCorpus(t, "pdftex-article.pdf"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Most notes are written once and never read again.", "A good note carries its context with it"} {
		if !strings.Contains(strings.Join(strings.Fields(res.Text), " "), s) {
			t.Errorf("text lacks %q", s)
		}
	}
}

func TestPDFTruncatesAtLimit(t *testing.T) {
	res, err := Extract(context.Background(), "m.pdf", readCorpus(t, "merged.pdf"), Limits{MaxTextBytes: 1000, PDFiumOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Text) > 1000 || res.Pages != 6 {
		t.Fatalf("truncated %v, %d bytes, %d pages; want true, ≤ 1000, 6", res.Truncated, len(res.Text), res.Pages)
	}
}

// A context that ends while an engine is working stops it (PDFium's
// instance, pdftotext's process is killed), and the engine serves the next
// file as before.
func TestPDFHonoursContext(t *testing.T) {
	raw := readCorpus(t, "merged.pdf")
	for engine, lim := range pdfEngines() {
		t.Run(engine, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := Extract(ctx, "m.pdf", raw, lim); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled before: got %v; want context.Canceled", err)
			}
			cancelled := 0
			for i := range 20 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*time.Millisecond)
				res, err := Extract(ctx, "m.pdf", raw, lim)
				cancel()
				switch {
				case errors.Is(err, context.DeadlineExceeded):
					cancelled++
				case err != nil || res.Pages != 6:
					t.Fatalf("deadline %d ms: got %d pages, %v; want the text or DeadlineExceeded", i, res.Pages, err)
				}
			}
			if cancelled == 0 {
				t.Error("no deadline fell inside an extraction; the test proves nothing")
			}
			res, err := Extract(context.Background(), "m.pdf", raw, lim)
			if err != nil || res.Pages != 6 {
				t.Fatalf("after cancellations: %d pages, %v", res.Pages, err)
			}
		})
	}
}
