package extract

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// A scanned PDF read in a child reports its pages as their OCR ends,
// before the answer: what the tree shows while a long scan is read.
func TestChildReportsPages(t *testing.T) {
	needOCR(t)
	t.Parallel()
	p := page(t, "en", 150)
	raw := extracttest.ScannedPDF([]extracttest.Page{p, p, p, p}, "")
	var mu sync.Mutex
	var seen []Progress
	iso := residentIsolation(t)
	iso.Timeout, iso.MemoryBytes = slowdown*120*time.Second, 2<<30
	res, err := iso.RunReporting(context.Background(), "scan.pdf", raw, func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, p)
	})
	if err != nil || res.Pages != 4 || res.OCR == nil {
		t.Fatalf("got %d pages, OCR %v, %v", res.Pages, res.OCR, err)
	}
	if len(seen) == 0 {
		t.Fatal("no progress before the answer")
	}
	for i, p := range seen {
		if p.Of != 4 || p.Pages < 1 || p.Pages > 4 || i > 0 && p.Pages < seen[i-1].Pages {
			t.Fatalf("reports %v: want pages rising within 1..4 of 4", seen)
		}
	}
	t.Logf("reports: %v", seen)
}
