package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// BenchmarkPDFSmallEngines reads small PDFs as the product does, through
// resident extraction children, with pdftotext (a process per document)
// and with PDFium (kept loaded in the child), the sides alternating each
// iteration, each with children of its own. One iteration is 32
// documents: "mixed" are the text PDFs of both corpora (1–36 pages, 3–260
// KB) and one-page PDFs, "one-page" only one-page PDFs of a line. It
// reports ms per document of each side and their ratio.
func BenchmarkPDFSmallEngines(b *testing.B) {
	needPdftotext(b)
	var mixed [][]byte
	var names []string
	files := realPDFFiles(b)
	for _, c := range pdfCases {
		if c.golden {
			files = append(files, filepath.Join(pdfCorpus, c.file))
		}
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		mixed, names = append(mixed, raw), append(names, filepath.Base(f))
	}
	var onePage [][]byte
	for i := range 32 {
		note := extracttest.MinimalPDF("A note of one page, number " + strings.Repeat("x", i))
		onePage = append(onePage, note)
		if len(mixed) < 32 {
			mixed, names = append(mixed, note), append(names, "note.pdf")
		}
	}
	b.Run("mixed", func(b *testing.B) { benchSmallPDFs(b, mixed, names) })
	b.Run("one-page", func(b *testing.B) { benchSmallPDFs(b, onePage, make([]string, 32)) })
}

func benchSmallPDFs(b *testing.B, docs [][]byte, names []string) {
	for i := range names {
		if names[i] == "" {
			names[i] = "note.pdf"
		}
	}
	type side struct {
		name string
		iso  Isolation
		took time.Duration
	}
	var sides []*side
	for _, name := range []string{"pdftotext", "pdfium"} {
		iso := testIsolation()
		iso.Timeout = time.Minute
		iso.Command = []string{os.Args[0], "-test.run=^$", "-resident=" + b.Name() + "-" + name}
		iso.Limits.PDFiumOnly = name == "pdfium"
		// A child's first document loads what it keeps (PDFium's code).
		if _, err := iso.Run(context.Background(), names[0], docs[0]); err != nil {
			b.Fatal(err)
		}
		sides = append(sides, &side{name: name, iso: iso})
	}
	b.ResetTimer()
	for i := range b.N {
		for k := range sides {
			s := sides[(k+i)%len(sides)]
			start := time.Now()
			for d, raw := range docs {
				res, err := s.iso.Run(context.Background(), names[d], raw)
				if err != nil {
					b.Fatalf("%s: %s: %v", s.name, names[d], err)
				}
				if strings.HasPrefix(res.Extractor, "pdftotext") != (s.name == "pdftotext") {
					b.Fatalf("%s: %s read by %s", s.name, names[d], res.Extractor)
				}
			}
			s.took += time.Since(start)
		}
	}
	b.StopTimer()
	per := float64(b.N * len(docs))
	for _, s := range sides {
		b.ReportMetric(float64(s.took.Milliseconds())/per, s.name+"-ms/doc")
	}
	b.ReportMetric(sides[0].took.Seconds()/sides[1].took.Seconds(), "pdftotext/pdfium")
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		b.Logf("load average %s", strings.TrimSpace(string(load)))
	}
}
