package extract

import (
	"context"
	"testing"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// BenchmarkOCRPage reads one 300 dpi letter page of English per iteration,
// in one goroutine (one worker): as a PNG, and as a page of a scanned PDF
// (rendered by PDFium first). It reports pages per second per worker.
func BenchmarkOCRPage(b *testing.B) {
	needOCR(b)
	p := page(b, "en", 300)
	for _, f := range []struct {
		name string
		raw  []byte
	}{
		{"png-300dpi.png", p.PNG()},
		{"scan-300dpi.pdf", extracttest.ScannedPDF([]extracttest.Page{p}, "")},
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
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}
