package extract

import (
	"sync"
	"sync/atomic"
	"time"
)

// Progress is how far the reading of a long document has come: pages
// read of the document's pages. Only PDFs report it.
type Progress struct {
	Pages int `json:"pages"`
	Of    int `json:"of"`
}

// progressEvery spaces reports: a worker writes each to the database.
const progressEvery = 500 * time.Millisecond

// pageProgress counts a document's pages as they are read (a scanned
// page when its OCR ends) and reports at most every progressEvery.
type pageProgress struct {
	report func(Progress)
	of     int
	read   atomic.Int64
	mu     sync.Mutex
	last   time.Time
}

func newPageProgress(report func(Progress), of int) *pageProgress {
	if report == nil {
		return nil
	}
	return &pageProgress{report: report, of: of, last: time.Now()}
}

// page counts one page read.
func (p *pageProgress) page() {
	if p == nil {
		return
	}
	n := int(p.read.Add(1))
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) < progressEvery {
		return
	}
	p.last = time.Now()
	p.report(Progress{Pages: min(n, p.of), Of: p.of})
}
