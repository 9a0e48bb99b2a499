package compile

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Extraction bounds: a document's text is capped well above what a prompt
// takes, and a DOCX part is never inflated past this.
const (
	maxExtractBytes = 20 << 20
	maxDocxXML      = 64 << 20
)

// textExts are formats whose bytes are their own text body when they are
// valid UTF-8 (SPEC §3: md, txt, csv, json, html, source code). A file of
// any other extension is text too if its bytes are valid UTF-8 without NUL.
var binaryExts = map[string]string{
	".doc": "Word 97-2003 document", ".xls": "Excel workbook", ".xlsx": "Excel workbook",
	".ppt": "PowerPoint presentation", ".pptx": "PowerPoint presentation", ".zip": "zip archive",
	".gz": "gzip archive", ".png": "PNG image", ".jpg": "JPEG image", ".jpeg": "JPEG image",
	".gif": "GIF image", ".webp": "WebP image", ".mp3": "audio file", ".mp4": "video file",
}

// extract returns the text body of a file from its name and raw bytes, or a
// permanent Failure saying why it has none.
func extract(name string, raw []byte) (string, error) {
	ext := strings.ToLower(path.Ext(name))
	var (
		text string
		err  error
	)
	switch {
	case ext == ".pdf":
		text, err = extractPDF(raw)
	case ext == ".docx":
		text, err = extractDOCX(raw)
	case binaryExts[ext] != "":
		return "", permanent("unsupported_format", "%s is a %s; only text, PDF and DOCX files can be compiled", name, binaryExts[ext])
	case utf8.Valid(raw) && bytes.IndexByte(raw, 0) < 0:
		text = strings.TrimPrefix(string(raw), "\ufeff")
	default:
		return "", permanent("unsupported_format", "%s is a binary file of an unknown type; only text, PDF and DOCX files can be compiled", name)
	}
	if err != nil {
		return "", permanent("parse_failed", "%s could not be read: %v", name, err)
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	if strings.TrimSpace(text) == "" {
		return "", permanent("no_text", "%s has no extractable text (a scanned document needs OCR first)", name)
	}
	return text, nil
}

// extractPDF reads the text of every page. The library panics on some
// malformed files; that is a parse failure of this file, not of the worker.
func extractPDF(raw []byte) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			text, err = "", fmt.Errorf("malformed PDF")
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return "", fmt.Errorf("not a readable PDF: %w", err)
	}
	var b strings.Builder
	fonts := map[string]*pdf.Font{}
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		for _, name := range p.Fonts() {
			if _, ok := fonts[name]; !ok {
				f := p.Font(name)
				fonts[name] = &f
			}
		}
		t, err := p.GetPlainText(fonts)
		if err != nil {
			return "", fmt.Errorf("page %d: %w", i, err)
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(strings.TrimSpace(t))
		if b.Len() > maxExtractBytes {
			break
		}
	}
	return b.String(), nil
}

// extractDOCX reads word/document.xml of a DOCX (a zip of XML parts):
// text runs, tabs and breaks, one line per paragraph.
func extractDOCX(raw []byte) (string, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return "", fmt.Errorf("not a DOCX (zip) file")
	}
	var part *zip.File
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			part = f
		}
	}
	if part == nil {
		return "", fmt.Errorf("no word/document.xml inside")
	}
	rc, err := part.Open()
	if err != nil {
		return "", err
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, maxDocxXML))
	var b strings.Builder
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("document.xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "t":
				inText = true
			case "tab":
				b.WriteByte('\t')
			case "br", "cr":
				b.WriteByte('\n')
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "t":
				inText = false
			case "p":
				b.WriteByte('\n')
			}
		case xml.CharData:
			if inText {
				b.Write(t)
			}
		}
		if b.Len() > maxExtractBytes {
			break
		}
	}
	return strings.TrimSpace(b.String()), nil
}
