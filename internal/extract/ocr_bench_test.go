package extract

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// BenchmarkOCRPage reads 300 dpi letter pages of English, one extraction
// (one worker) at a time: a PNG, a one-page scanned PDF (rendered by
// pdftoppm, or PDFium without it), and a four-page one whose pages are
// OCRed side by side, one per core. It reports pages per second.
func BenchmarkOCRPage(b *testing.B) {
	needOCR(b)
	p := page(b, "en", 300)
	for _, f := range []struct {
		name  string
		raw   []byte
		pages int
	}{
		{"png-300dpi.png", p.PNG(), 1},
		{"scan-300dpi.pdf", extracttest.ScannedPDF([]extracttest.Page{p}, ""), 1},
		{"scan-4-pages-300dpi.pdf", extracttest.ScannedPDF([]extracttest.Page{p, p, p, p}, ""), 4},
	} {
		b.Run(f.name, func(b *testing.B) {
			if _, err := Extract(context.Background(), f.name, f.raw, Limits{}); err != nil { // engine start-up is not a page
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				res, err := Extract(context.Background(), f.name, f.raw, Limits{})
				if err != nil || res.OCR == nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(f.pages*b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}
