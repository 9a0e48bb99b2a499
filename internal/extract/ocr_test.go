package extract

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

func TestOCRReadsScannedCorpusPDF(t *testing.T) {
	needOCR(t)
	res, err := Extract(context.Background(), "scanned.pdf", readCorpus(t, "scanned.pdf"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "Only OCR could read it.") || res.Source != SourceOCR ||
		!strings.Contains(res.Extractor, "pdfium") && !strings.Contains(res.Extractor, "pdftotext") || !strings.Contains(res.Extractor, "tesseract 5") {
		t.Fatalf("got %+v", res)
	}
	if res.OCR.Languages[0] != "eng" || len(res.OCR.Pages) != 1 || res.OCR.Pages[0].LowConfidence || res.OCR.Confidence < 80 {
		t.Fatalf("ocr info %+v", res.OCR)
	}
}

// A page under the confidence floor is kept but marked.
func TestOCRMarksLowConfidence(t *testing.T) {
	needOCR(t)
	res, err := Extract(context.Background(), "letter.png", page(t, "en", 150).PNG(), Limits{OCR: OCR{MinConfidence: 99.5}})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.OCR.Pages[0]; !p.LowConfidence || p.Confidence >= 99.5 || res.OCR.MinConfidence != 99.5 {
		t.Fatalf("a page at confidence %v is not marked under a floor of 99.5: %+v", p.Confidence, res.OCR)
	}
	res, err = Extract(context.Background(), "letter.png", page(t, "en", 150).PNG(), Limits{})
	if err != nil || res.OCR.Pages[0].LowConfidence {
		t.Fatalf("a clean page is marked: %+v %v", res.OCR, err)
	}
}

func TestOCRMissingTesseract(t *testing.T) {
	if _, err := extracttest.RenderText("x", 72); err != nil {
		t.Skip(err)
	}
	t.Setenv("PATH", t.TempDir())
	png := page(t, "en", 150).PNG()
	for _, run := range []struct {
		name string
		f    func() (Result, error)
	}{
		{"in process", func() (Result, error) { return Extract(context.Background(), "scan.png", png, Limits{}) }},
		{"isolated", func() (Result, error) { return testIsolation().Run(context.Background(), "scan.png", png) }},
	} {
		_, err := run.f()
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeNoText || !strings.Contains(e.Message, OCRInstallHint) || !strings.Contains(e.Message, "scan.png") {
			t.Fatalf("%s: got %v; want no_text naming the packages", run.name, err)
		}
	}
	if st := (OCR{}).Status(); st.Available || !strings.Contains(st.Hint, OCRInstallHint) {
		t.Fatalf("status %+v", st)
	}
}

func TestOCRStatusNamesMissingLanguages(t *testing.T) {
	needOCR(t)
	st := OCR{Languages: []string{"eng", "klingon_x"}}.Status()
	if !st.Available || len(st.Languages) != 1 || st.Missing[0] != "klingon_x" || !strings.Contains(st.Hint, "tesseract-ocr-klingon-x") ||
		!strings.HasPrefix(st.Engine, "tesseract 5") {
		t.Fatalf("status %+v", st)
	}
}

func ocrIsolation() Isolation {
	iso := testIsolation()
	// The race detector multiplies the child's memory as it does its time;
	// the ceiling has its own test, these are about pages and budgets.
	iso.Timeout, iso.MemoryBytes = slowdown*30*time.Second, slowdown<<30
	return iso
}

// The sandbox holds for OCR: a bomb is refused before decoding, a long scan
// stops at the page cap or at its time budget, a cancel ends a run within
// 5 s, and a normal scan after them all is read.
func TestOCRIsolation(t *testing.T) {
	needOCR(t)
	ctx := context.Background()
	small := page(t, "en", 150)
	long := extracttest.RepeatedScanPDF(small, 2000)

	t.Run("image bomb", func(t *testing.T) {
		// Against a child that reads a text file, in the same load.
		start := time.Now()
		if _, err := ocrIsolation().Run(ctx, "note.md", []byte("a note")); err != nil {
			t.Fatal(err)
		}
		child := time.Since(start)
		bomb := extracttest.PNGBomb(200_000, 200_000)
		start = time.Now()
		_, err := ocrIsolation().Run(ctx, "bomb.png", bomb)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTooLarge || time.Since(start) > child+5*time.Second {
			t.Fatalf("got %v after %v (a text file: %v); want too_large at once", err, time.Since(start), child)
		}
		t.Logf("bomb refused in %v: %s", time.Since(start).Round(time.Millisecond), e.Message)
	})
	t.Run("2000 pages past the cap", func(t *testing.T) {
		iso := ocrIsolation()
		iso.Limits.OCR.MaxPages = 3
		start := time.Now()
		res, err := iso.Run(ctx, "book.pdf", long)
		if err != nil {
			t.Fatal(err)
		}
		if res.Pages != 2000 || len(res.OCR.Pages) != 3 || len(res.PageErrors) == 0 {
			t.Fatalf("pages %d, ocr %+v, errors %+v", res.Pages, res.OCR, res.PageErrors)
		}
		capped := 0
		for _, pe := range res.PageErrors {
			if pe.Code != CodeOCRPageCap {
				t.Fatalf("page error %+v", pe)
			}
			capped += max(pe.Last, pe.Page) - pe.Page + 1
		}
		if capped != 1997 || len(res.PageErrors) > 4 {
			t.Fatalf("%d pages capped in %d entries: %+v", capped, len(res.PageErrors), res.PageErrors)
		}
		t.Logf("2000 pages, cap 3: %v, %+v", time.Since(start).Round(time.Millisecond), res.PageErrors)
	})
	t.Run("2000 pages past the time budget", func(t *testing.T) {
		iso := ocrIsolation()
		iso.Timeout = slowdown * 12 * time.Second
		iso.Limits.OCR.MaxPages = 2000
		start := time.Now()
		res, err := iso.Run(ctx, "book.pdf", long)
		took := time.Since(start)
		var e *Error
		if took > iso.Timeout {
			t.Fatalf("got %v after %v", err, took)
		}
		if errors.As(err, &e) && e.Code == CodeTimeout && strings.Contains(e.Message, "before it read a page") {
			t.Logf("the machine is too slow to OCR one page in the budget: %s", e.Message)
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		last := res.PageErrors[len(res.PageErrors)-1]
		if len(res.OCR.Pages) == 0 || last.Code != CodeOCRTimeout || max(last.Last, last.Page) != 2000 {
			t.Fatalf("ocr %d pages, errors %+v", len(res.OCR.Pages), res.PageErrors)
		}
		t.Logf("2000 pages, 12 s budget: %d pages OCRed in %v, the rest %s", len(res.OCR.Pages), took.Round(time.Millisecond), last.Code)
	})
	t.Run("cancel", func(t *testing.T) {
		iso := ocrIsolation()
		iso.Limits.OCR.MaxPages = 2000
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(3*time.Second, cancel)
		start := time.Now()
		_, err := iso.Run(cctx, "book.pdf", long)
		if !errors.Is(err, context.Canceled) || time.Since(start) > 8*time.Second {
			t.Fatalf("got %v after %v; want canceled within 5 s of the cancel", err, time.Since(start))
		}
		t.Logf("cancelled 3 s into OCR; the run ended %v after", (time.Since(start) - 3*time.Second).Round(time.Millisecond))
	})
	t.Run("memory ceiling counts Tesseract", func(t *testing.T) {
		// Tesseract reading a 300 dpi page holds about 140 MB, more than
		// the extraction child itself: the ceiling is on the process tree.
		iso := ocrIsolation()
		iso.MemoryBytes = 100 << 20
		_, err := iso.Run(ctx, "page.png", page(t, "zh", 300).PNG())
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTooLarge {
			t.Fatalf("got %v; want too_large past a 100 MB ceiling", err)
		}
	})
	t.Run("normal scan after", func(t *testing.T) {
		res, err := ocrIsolation().Run(ctx, "letter.png", small.PNG())
		if err != nil || cer(res.Text, ocrEnglish) > 0.02 || res.Source != SourceOCR {
			t.Fatalf("got %+v, %v", res, err)
		}
	})
}

// Without poppler, PDFium renders the scanned page.
func TestOCRRendersWithPDFiumWithoutPoppler(t *testing.T) {
	needOCR(t)
	bin, _ := exec.LookPath("tesseract")
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "tesseract")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if o := (OCR{}).Resolve(); o.Pdftoppm != "" || o.Tesseract == "" {
		t.Fatalf("resolved %+v", o)
	}
	raw := extracttest.ScannedPDF([]extracttest.Page{page(t, "en", 150)}, "")
	res, err := Extract(context.Background(), "scan.pdf", raw, Limits{})
	if err != nil || cer(res.Text, ocrEnglish) > 0.02 {
		t.Fatalf("got %q, %v", res.Text, err)
	}
}
