package extract

import (
	"context"
	"encoding/xml"
	"sort"
	"strings"
)

const docxExtractor = "knowspace-docx/2"

// extractDOCX reads a Word document: its headers, the body (paragraphs,
// tables as rows of cells, text boxes once), footnotes, endnotes and
// footers, streamed part by part within the zip bounds.
func extractDOCX(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openZip(raw, lim, "DOCX")
	if err != nil {
		return Result{}, err
	}
	body := "word/document.xml"
	if !d.has(body) {
		return Result{}, Fail(CodeParseFailed, "not a Word document: word/document.xml is missing")
	}
	out := newSink(lim)
	parts := append(wordParts(d, "word/header"), body, "word/footnotes.xml", "word/endnotes.xml")
	parts = append(parts, wordParts(d, "word/footer")...)
	seen := map[string]bool{}
	for _, name := range parts {
		if !d.has(name) {
			continue
		}
		var part sink
		part.max = lim.MaxTextBytes
		err := d.walkPart(ctx, name, newWordWalker(&part).token)
		if stopped(err) {
			return Result{}, err
		}
		text := strings.TrimSpace(part.b.String())
		// Sections repeat the same header and footer; say them once.
		if text == "" || seen[text] && name != body {
			continue
		}
		seen[text] = true
		if out.blankLine() != nil || out.WriteString(text) != nil || part.full {
			out.full = true
			break
		}
	}
	return out.result("docx", docxExtractor), nil
}

// wordParts lists the parts named prefix*.xml (header1.xml, ...) in name
// order.
func wordParts(d *zipDoc, prefix string) []string {
	var out []string
	for _, name := range d.order {
		if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".xml") && !strings.Contains(name[len(prefix):], "/") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// wordWalker turns WordprocessingML tokens into text.
type wordWalker struct {
	textFlow
	skipUntil int // depth of a subtree being skipped (mc:Fallback), 0 if none
	noteRef   bool
}

func newWordWalker(out *sink) *wordWalker { return &wordWalker{textFlow: textFlow{out: out}} }

func (w *wordWalker) token(tok xml.Token, depth int) error {
	if w.skipUntil > 0 {
		if end, ok := tok.(xml.EndElement); ok && depth == w.skipUntil && end.Name.Local == "Fallback" {
			w.skipUntil = 0
		}
		return nil
	}
	switch t := tok.(type) {
	case xml.StartElement:
		return w.start(t, depth)
	case xml.EndElement:
		return w.end(t)
	case xml.CharData:
		if w.inText {
			return w.out.Write(t)
		}
	}
	return nil
}

func (w *wordWalker) start(t xml.StartElement, depth int) error {
	switch t.Name.Local {
	case "Fallback": // the same content as mc:Choice, for old readers
		w.skipUntil = depth
	case "t":
		w.inText, w.noteRef = true, false
	case "tab":
		if w.noteRef { // the gap Word puts after a note's own number
			w.noteRef = false
			return nil
		}
		if t.Name.Space == "w" || t.Name.Space == "" {
			return w.out.WriteString("\t")
		}
	case "br", "cr":
		if w.cells > 0 {
			return w.out.WriteString(" ")
		}
		return w.out.WriteString("\n")
	case "noBreakHyphen":
		return w.out.WriteString("-")
	case "tr":
		if err := w.out.newline(); err != nil {
			return err
		}
		return w.out.WriteString("| ")
	case "tc":
		w.cells++
	case "pStyle":
		if w.cells == 0 {
			return w.out.WriteString(headingMark(attr(t, "val")))
		}
	case "txbxContent":
		return w.out.newline()
	case "footnoteRef", "endnoteRef":
		w.noteRef = true
		return nil
	case "footnoteReference", "endnoteReference":
		return w.out.WriteString("[^" + attr(t, "id") + "]")
	case "footnote", "endnote":
		if attr(t, "type") == "" { // not a separator
			return w.out.WriteString("[^" + attr(t, "id") + "]: ")
		}
	}
	return nil
}

func (w *wordWalker) end(t xml.EndElement) error {
	switch t.Name.Local {
	case "footnote", "endnote", "txbxContent":
		return w.out.newline()
	}
	return w.endElement(t.Name.Local)
}

// headingMark renders Word's built-in heading styles as Markdown heading
// marks; other styles add nothing.
func headingMark(style string) string {
	s := strings.ToLower(style)
	switch {
	case s == "title":
		return "# "
	case strings.HasPrefix(s, "heading") && len(s) == len("heading")+1 && s[7] >= '1' && s[7] <= '6':
		return strings.Repeat("#", int(s[7]-'0')) + " "
	}
	return ""
}
