package extract

import (
	"context"
	"encoding/xml"
	"net/url"
	"path"
	"strings"
)

const epubExtractor = "knowspace-epub/1"

// extractEPUB reads an e-book's XHTML documents in spine (reading) order
// through the HTML extractor. Pages is the number of spine documents.
func extractEPUB(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openZip(raw, lim, "EPUB")
	if err != nil {
		return Result{}, err
	}
	opf, err := epubPackage(ctx, d)
	if err != nil {
		return Result{}, err
	}
	items := map[string]string{}
	var spine []string
	err = d.walkPart(ctx, opf, func(tok xml.Token, _ int) error {
		t, ok := tok.(xml.StartElement)
		if !ok {
			return nil
		}
		switch t.Name.Local {
		case "item":
			href, err := url.PathUnescape(attr(t, "href"))
			if err != nil {
				href = attr(t, "href")
			}
			items[attr(t, "id")] = resolvePart(opf, href)
		case "itemref":
			if attr(t, "linear") != "no" {
				spine = append(spine, attr(t, "idref"))
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	out := newSink(lim)
	pages := 0
	for _, id := range spine {
		part := items[id]
		if part == "" || !d.has(part) {
			continue
		}
		pages++
		b, err := d.readSmall(part)
		if err != nil {
			return Result{}, err
		}
		text, _, err := decodeHTML(b)
		if err != nil {
			continue // a binary spine item is not text
		}
		if err := out.blankLine(); err != nil {
			break
		}
		if err := htmlText(ctx, text, out, false); stopped(err) {
			return Result{}, err
		} else if err != nil {
			break
		}
	}
	if pages == 0 {
		return Result{}, Fail(CodeParseFailed, "the e-book's reading order names no document inside it")
	}
	res := out.result("epub", epubExtractor)
	res.Pages = pages
	return res, nil
}

// epubPackage finds the package document (content.opf) through
// META-INF/container.xml, or the first .opf part.
func epubPackage(ctx context.Context, d *zipDoc) (string, error) {
	const container = "META-INF/container.xml"
	var opf string
	if d.has(container) {
		err := d.walkPart(ctx, container, func(tok xml.Token, _ int) error {
			if t, ok := tok.(xml.StartElement); ok && t.Name.Local == "rootfile" && opf == "" {
				opf = strings.TrimPrefix(attr(t, "full-path"), "/")
			}
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	if opf != "" && d.has(opf) {
		return opf, nil
	}
	for _, name := range d.order {
		if path.Ext(name) == ".opf" {
			return name, nil
		}
	}
	return "", Fail(CodeParseFailed, "not an EPUB: it has no package document (.opf)")
}
