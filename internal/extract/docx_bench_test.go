package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkDOCX measures the DOCX extractor against the one it replaced
// (legacyDOCX, kept here as the baseline) on a 2000-paragraph report and on
// a nested body, with allocations (-benchmem) and the heap peak of one run.
//
//	go test -run '^$' -bench DOCX -benchmem ./internal/extract/
func BenchmarkDOCX(b *testing.B) {
	report := reportDOCX(2000)
	nested := nestedDOCX(200_000)
	// The size of the 227 KB file; the baseline would take minutes.
	nested227 := nestedDOCX(2_000_000)
	for _, c := range []struct {
		name string
		raw  []byte
		fn   format
	}{
		{"report/streamed", report, extractDOCX},
		{"report/legacy", report, legacyDOCX},
		{"nested/streamed", nested, extractDOCX},
		{"nested/legacy", nested, legacyDOCX},
		{"nested227KB/streamed", nested227, extractDOCX},
	} {
		b.Run(c.name, func(b *testing.B) {
			lim := Limits{}.withDefaults()
			peak := peakHeap(func() { c.fn(context.Background(), c.raw, lim) })
			for b.Loop() {
				c.fn(context.Background(), c.raw, lim)
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			b.ReportMetric(float64(len(c.raw))/1024, "zip-KB")
		})
	}
}

// reportDOCX is a Word body of n paragraphs with runs, a table every 50
// paragraphs and a footnote reference, about 200 bytes of XML each.
func reportDOCX(n int) []byte {
	var doc strings.Builder
	doc.WriteString(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&doc, `<w:p><w:pPr><w:pStyle w:val="Normal"/></w:pPr><w:r><w:rPr><w:b/></w:rPr><w:t>Paragraph %d:</w:t></w:r>`+
			`<w:r><w:t xml:space="preserve"> the quick brown fox jumps over the lazy dog, 敏捷的棕色狐狸。</w:t></w:r></w:p>`, i)
		if i%50 == 0 {
			doc.WriteString(`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell a</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>cell b</w:t></w:r></w:p></w:tc></w:tr></w:tbl>`)
		}
	}
	doc.WriteString(`</w:body></w:document>`)
	return zipOf(map[string]string{"word/document.xml": doc.String(),
		"word/footnotes.xml": `<w:footnotes xmlns:w="x"><w:footnote w:id="1"><w:p><w:r><w:t>A note.</w:t></w:r></w:p></w:footnote></w:footnotes>`})
}

// legacyDOCX is the extractor before issue 11: word/document.xml only,
// through xml.Decoder.Token, with no depth bound. Kept as the benchmark's
// baseline.
func legacyDOCX(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return Result{}, err
	}
	var part *zip.File
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			part = f
		}
	}
	if part == nil {
		return Result{}, errors.New("no word/document.xml")
	}
	rc, err := part.Open()
	if err != nil {
		return Result{}, err
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, lim.MaxInflateBytes))
	var out strings.Builder
	inText := false
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "t":
				inText = true
			case "tab":
				out.WriteByte('\t')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				out.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				out.Write(t)
			}
		}
		if out.Len() > lim.MaxTextBytes {
			break
		}
	}
	return Result{Text: out.String()}, nil
}
