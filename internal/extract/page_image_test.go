package extract

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// scanPair is a two-page scan: the English page, then the Chinese one,
// both letter-sized at 150 dpi.
func scanPair(t testing.TB) []byte {
	t.Helper()
	if _, err := extracttest.RenderText("x", 72); err != nil {
		t.Skip(err)
	}
	return extracttest.ScannedPDF([]extracttest.Page{page(t, "en", 150), page(t, "zh", 150)}, "")
}

// renderers are the two ways a page is drawn: poppler when installed, and
// PDFium, which is always there.
func renderers(t *testing.T) map[string]OCR {
	r := map[string]OCR{"pdfium": {}}
	if bin, err := exec.LookPath("pdftoppm"); err == nil {
		r["pdftoppm"] = OCR{Pdftoppm: bin}
	} else {
		t.Log("pdftoppm is not installed (apt-get install -y poppler-utils): only PDFium is tested")
	}
	return r
}

// ink is the share of dark pixels: text on a page, none on a blank one.
func ink(t *testing.T, img image.Image) float64 {
	t.Helper()
	b := img.Bounds()
	dark := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			if r, g, bl, _ := img.At(x, y).RGBA(); (r+g+bl)/3 < 0x8000 {
				dark++
			}
		}
	}
	return float64(dark) / float64(b.Dx()*b.Dy()/4)
}

func TestRenderPageDrawsEachPage(t *testing.T) {
	raw := scanPair(t)
	for name, o := range renderers(t) {
		t.Run(name, func(t *testing.T) {
			var inks []float64
			for _, n := range []int{1, 2} {
				start := time.Now()
				pi, err := RenderPage(context.Background(), raw, n, o)
				if err != nil {
					t.Fatalf("page %d: %v", n, err)
				}
				img, err := png.Decode(bytes.NewReader(pi.PNG))
				if err != nil {
					t.Fatalf("page %d: not a PNG: %v", n, err)
				}
				// A letter page at 150 dpi is 1275 × 1650 (±1 for rounding).
				w, h := img.Bounds().Dx(), img.Bounds().Dy()
				if w < 1274 || w > 1276 || h < 1649 || h > 1651 || pi.Width != w || pi.Height != h || pi.Page != n || pi.Pages != 2 {
					t.Fatalf("page %d: %d×%d, reported %+v", n, w, h, PageImage{Page: pi.Page, Pages: pi.Pages, Width: pi.Width, Height: pi.Height})
				}
				inks = append(inks, ink(t, img))
				t.Logf("page %d by %s: %d×%d, %d KB, ink %.2f%%, %v", n, pi.Renderer, w, h, len(pi.PNG)>>10, 100*inks[n-1], time.Since(start).Round(time.Millisecond))
			}
			// Both pages carry text, and not the same: page 2 is drawn, not
			// page 1 again.
			if inks[0] < 0.005 || inks[1] < 0.005 || inks[0] == inks[1] {
				t.Fatalf("ink per page %v", inks)
			}
		})
	}
}

// textPagePDF is a one-page PDF whose page has the given box entries and
// draws content in Helvetica.
func textPagePDF(box, content string) []byte {
	return extracttest.PDF(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R "+box+" /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		"<< /Length "+strconv.Itoa(len(content))+" >>\nstream\n"+content+"\nendstream",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
	)
}

// A page far wider than tall is drawn within the width bound.
func TestRenderPageBoundsItsSize(t *testing.T) {
	wide := textPagePDF("/MediaBox [0 0 4000 700]", "BT /F1 48 Tf 72 300 Td (A wide banner page) Tj ET")
	for name, o := range renderers(t) {
		pi, err := RenderPage(context.Background(), wide, 1, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(pi.PNG))
		if err != nil || cfg.Width > PageImageMaxWidth || cfg.Width < PageImageMaxWidth*9/10 || cfg.Height > 300 {
			t.Fatalf("%s: %d×%d (%v); want at most %d wide", name, cfg.Width, cfg.Height, err, PageImageMaxWidth)
		}
	}
}

// A page turned a quarter is drawn turned, within the bounds: a letter
// page on its side is 1650 pixels wide at 150 dpi, past the width bound.
func TestRenderPageTurnsRotatedPages(t *testing.T) {
	turned := textPagePDF("/MediaBox [0 0 612 792] /Rotate 90", "BT /F1 24 Tf 72 700 Td (A page on its side) Tj ET")
	for name, o := range renderers(t) {
		pi, err := RenderPage(context.Background(), turned, 1, o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(pi.PNG))
		if err != nil || cfg.Width <= cfg.Height || cfg.Width > PageImageMaxWidth || cfg.Width < PageImageMaxWidth*9/10 || pi.Width != cfg.Width {
			t.Fatalf("%s: %d×%d (reported %d×%d, %v); want landscape, at most %d wide", name, cfg.Width, cfg.Height, pi.Width, pi.Height, err, PageImageMaxWidth)
		}
	}
}

func TestRenderPageRefuses(t *testing.T) {
	raw := scanPair(t)
	huge := extracttest.PDF(
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] >>",
	)
	cases := []struct {
		name     string
		raw      []byte
		page     int
		code     string
		says     string
		pages    int
		rendered bool
	}{
		{"page 0", raw, 0, CodePageOutOfRange, "pages count from 1", 0, false},
		{"past the end", raw, 3, CodePageOutOfRange, "the document has 2 pages", 2, false},
		{"not a PDF", page(t, "en", 150).PNG(), 1, CodeParseFailed, "not a readable PDF", 0, false},
		{"a page of 200 inches", huge, 1, CodeTooLarge, "too large to draw", 1, false},
	}
	locked, err := os.ReadFile("testdata/pdf/encrypted-user.pdf")
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, struct {
		name     string
		raw      []byte
		page     int
		code     string
		says     string
		pages    int
		rendered bool
	}{"a user password", locked, 1, CodeEncrypted, "password-protected", 0, false})
	for name, o := range renderers(t) {
		for _, c := range cases {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				pi, err := RenderPage(context.Background(), c.raw, c.page, o)
				var e *Error
				if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.says) || pi.Pages != c.pages || len(pi.PNG) > 0 {
					t.Fatalf("got %v (pages %d); want %s saying %q", err, pi.Pages, c.code, c.says)
				}
			})
		}
	}
}

// The hostile PDFs of the extraction corpus end at once with each
// renderer: drawn, or refused with a classified error.
func TestRenderPageEndsOnHostileFiles(t *testing.T) {
	for name, o := range renderers(t) {
		for _, f := range []string{"bad-stream", "cyclic-kids", "deep-tree", "huge-count", "parent-loop", "truncated", "xref-loop"} {
			t.Run(name+"/"+f, func(t *testing.T) {
				raw, err := os.ReadFile("testdata/pdf/" + f + ".pdf")
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), slowdown*10*time.Second)
				defer cancel()
				pi, err := RenderPage(ctx, raw, 1, o)
				var e *Error
				if ctx.Err() != nil || (err == nil && len(pi.PNG) == 0) || (err != nil && !errors.As(err, &e)) {
					t.Fatalf("got %d bytes, %v (context: %v)", len(pi.PNG), err, ctx.Err())
				}
			})
		}
	}
}

// In the extraction child: the page comes back whole, a page past the end
// says how many there are, and the time budget and a cancel end the child.
func TestIsolatedRenderPage(t *testing.T) {
	raw := scanPair(t)
	ctx := context.Background()
	iso := ocrIsolation()
	pi, err := iso.RenderPage(ctx, "scan.pdf", bytes.NewReader(raw), 2)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(pi.PNG)); err != nil || img.Bounds().Dx() != pi.Width || pi.Page != 2 || pi.Pages != 2 {
		t.Fatalf("page 2: %+v, %v", PageImage{Page: pi.Page, Pages: pi.Pages, Width: pi.Width}, err)
	}

	pi, err = iso.RenderPage(ctx, "scan.pdf", bytes.NewReader(raw), 5)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodePageOutOfRange || pi.Pages != 2 || !strings.HasPrefix(e.Message, "scan.pdf: page 5") {
		t.Fatalf("page 5: %v, pages %d", err, pi.Pages)
	}

	t.Run("time budget", func(t *testing.T) {
		short := ocrIsolation()
		short.Limits.OCR.PageTimeout = 50 * time.Millisecond
		start := time.Now()
		_, err := short.RenderPage(ctx, "scan.pdf", bytes.NewReader(raw), 1)
		if !errors.As(err, &e) || e.Code != CodeTimeout || time.Since(start) > 5*time.Second {
			t.Fatalf("got %v after %v; want parse_timeout past a 50 ms budget", err, time.Since(start))
		}
	})
	t.Run("cancel", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err := ocrIsolation().RenderPage(cctx, "scan.pdf", bytes.NewReader(raw), 1)
		if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
			t.Fatalf("got %v after %v; want canceled at once", err, time.Since(start))
		}
	})
}

// A PDF's text says where each page begins, so a window of it can show
// the page images it comes from; a cut text keeps only the pages it holds.
func TestPDFPageStarts(t *testing.T) {
	text := "Twelve pages of minutes, read from the text layer."
	raw := extracttest.ScannedPDF([]extracttest.Page{{}, {}}, text)
	res, err := Extract(context.Background(), "minutes.pdf", raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	second := int64(len([]rune(text))) + 2
	if len(res.PageStarts) != 2 || res.PageStarts[0] != (PageStart{1, 0}) || res.PageStarts[1] != (PageStart{2, second}) ||
		string([]rune(res.Text)[second:]) != text {
		t.Fatalf("starts %+v of %q", res.PageStarts, res.Text)
	}
	res, err = Extract(context.Background(), "minutes.pdf", raw, Limits{MaxTextBytes: len(text) + 1})
	if err != nil || !res.Truncated || len(res.PageStarts) != 1 {
		t.Fatalf("cut: starts %+v, %v", res.PageStarts, err)
	}
}
