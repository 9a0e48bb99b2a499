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
)

// extractDOCX reads word/document.xml of a DOCX (a zip of XML parts):
// text runs, tabs and breaks, one line per paragraph.
func extractDOCX(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return Result{}, fmt.Errorf("not a DOCX (zip) file")
	}
	var part *zip.File
	for _, f := range zr.File {
		if f.Name == "word/document.xml" {
			part = f
		}
	}
	if part == nil {
		return Result{}, fmt.Errorf("no word/document.xml inside")
	}
	rc, err := part.Open()
	if err != nil {
		return Result{}, err
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, lim.MaxInflateBytes))
	var b strings.Builder
	inText := false
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return Result{}, ctx.Err()
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Result{}, fmt.Errorf("document.xml: %w", err)
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
		if b.Len() > lim.MaxTextBytes {
			break
		}
	}
	return Result{Text: strings.TrimSpace(b.String()), Format: "docx", Extractor: "knowspace-docx/1"}, nil
}
