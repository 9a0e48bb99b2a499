package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// minimalDOCX builds a DOCX (a zip with word/document.xml) of paragraphs.
func minimalDOCX(paras ...string) []byte {
	var doc strings.Builder
	doc.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	for _, p := range paras {
		fmt.Fprintf(&doc, `<w:p><w:r><w:t xml:space="preserve">%s</w:t></w:r><w:r><w:tab/><w:t>end</w:t></w:r></w:p>`, p)
	}
	doc.WriteString(`</w:body></w:document>`)
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("[Content_Types].xml")
	w.Write([]byte(`<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`))
	w, _ = zw.Create("word/document.xml")
	w.Write([]byte(doc.String()))
	zw.Close()
	return b.Bytes()
}

func TestExtract(t *testing.T) {
	cases := []struct {
		name    string
		raw     []byte
		want    string // substring of the text
		errCode string
	}{
		{"a.md", []byte("\ufeff# Title\nbody"), "# Title\nbody", ""},
		{"data.csv", []byte("a,b\n1,2"), "a,b\n1,2", ""},
		{"main.go", []byte("package main"), "package main", ""},
		{"paper.pdf", extracttest.MinimalPDF("Hello PDF world"), "Hello PDF world", ""},
		{"memo.docx", minimalDOCX("First paragraph", "Zweiter Absatz ü"), "First paragraph\tend\nZweiter Absatz ü\tend", ""},
		{"broken.pdf", []byte("%PDF-1.4 not really"), "", "parse_failed"},
		{"broken.docx", []byte("PK not a zip"), "", "parse_failed"},
		{"empty.md", []byte("  \n"), "", "no_text"},
		{"x.bin", []byte{0, 159, 146, 150}, "", "unsupported_format"},
		{"old.doc", []byte("whatever"), "", "unsupported_format"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Extract(context.Background(), c.name, c.raw, Limits{})
			text := res.Text
			if c.errCode != "" {
				var f *Error
				if !errors.As(err, &f) || f.Code != c.errCode || !strings.Contains(f.Message, c.name) {
					t.Fatalf("got %q, %v; want %s", text, err, c.errCode)
				}
				return
			}
			if err != nil || !strings.Contains(text, c.want) {
				t.Fatalf("got %q, %v; want %q", text, err, c.want)
			}
		})
	}
}
