package extract

import (
	"context"
	"encoding/xml"
	"strconv"
	"strings"
)

const odtExtractor = "knowspace-odt/1"

// extractODT reads an OpenDocument text: page headers and footers from
// styles.xml, then content.xml with headings, lists, tables and notes
// (collected after the body as [^N]: text).
func extractODT(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openZip(raw, lim, "ODT")
	if err != nil {
		return Result{}, err
	}
	if !d.has("content.xml") {
		return Result{}, Fail(CodeParseFailed, "not an OpenDocument file: content.xml is missing")
	}
	out := newSink(lim)
	notes := &sink{max: lim.MaxTextBytes}
	header, err := odfPageText(ctx, d, "header", lim)
	if err != nil {
		return Result{}, err
	}
	footer, err := odfPageText(ctx, d, "footer", lim)
	if err != nil {
		return Result{}, err
	}
	out.WriteString(header)
	w := &odfWalker{out: out, notes: notes}
	if err := out.blankLine(); err == nil {
		if err := d.walkPart(ctx, "content.xml", w.token); stopped(err) {
			return Result{}, err
		}
	}
	for _, t := range []string{strings.TrimSpace(notes.b.String()), footer} {
		if t != "" && out.blankLine() == nil {
			out.WriteString(t)
		}
	}
	return out.result("odt", odtExtractor), nil
}

// odfPageText is the text of the page headers or footers (elem "header"
// or "footer") of styles.xml.
func odfPageText(ctx context.Context, d *zipDoc, elem string, lim Limits) (string, error) {
	if !d.has("styles.xml") {
		return "", nil
	}
	hf := &sink{max: lim.MaxTextBytes}
	w := &odfWalker{out: hf, notes: &sink{max: lim.MaxTextBytes}, only: map[string]bool{elem: true}}
	if err := d.walkPart(ctx, "styles.xml", w.token); stopped(err) {
		return "", err
	}
	return strings.TrimSpace(hf.b.String()), nil
}

// odfWalker turns OpenDocument text elements into text.
type odfWalker struct {
	out, notes *sink
	// only, when set, keeps text solely inside elements of these names
	// (styles.xml holds headers and footers among much else).
	only    map[string]bool
	inside  int // depth of the enclosing kept element, when only is set
	noteAt  int // depth of an open note body, 0 if none
	skip    int
	cells   int
	lists   int
	inCite  bool
	paras   int // open text:p and text:h; text outside them is layout
	citeNum string
}

func (w *odfWalker) dst() *sink {
	if w.noteAt > 0 {
		return w.notes
	}
	return w.out
}

func (w *odfWalker) token(tok xml.Token, depth int) error {
	if w.skip > 0 {
		if _, ok := tok.(xml.EndElement); ok && depth == w.skip {
			w.skip = 0
		}
		return nil
	}
	switch t := tok.(type) {
	case xml.StartElement:
		if w.only != nil && w.inside == 0 {
			if w.only[t.Name.Local] {
				w.inside = depth
			}
			return nil
		}
		return w.start(t, depth)
	case xml.EndElement:
		if w.only != nil && (w.inside == 0 || depth == w.inside) {
			if w.inside == 0 {
				return nil
			}
			w.inside = 0
			return w.out.newline()
		}
		return w.end(t, depth)
	case xml.CharData:
		switch {
		case w.inCite:
			w.citeNum += strings.TrimSpace(string(t))
		case w.paras > 0 && (w.only == nil || w.inside > 0):
			return w.dst().Write(t)
		}
	}
	return nil
}

func (w *odfWalker) start(t xml.StartElement, depth int) error {
	out := w.dst()
	switch t.Name.Local {
	case "tracked-changes", "annotation", "sequence-decls", "forms":
		w.skip = depth
	case "note":
		w.citeNum = ""
	case "note-citation":
		w.inCite = true
	case "note-body":
		w.noteAt = depth
		id := w.citeNum
		return w.notes.WriteString("[^" + id + "]: ")
	case "p":
		w.paras++
	case "h":
		w.paras++
		if err := out.blankLine(); err != nil {
			return err
		}
		level, _ := strconv.Atoi(attr(t, "outline-level"))
		return out.WriteString(strings.Repeat("#", min(max(level, 1), 6)) + " ")
	case "list":
		w.lists++
	case "list-item":
		if err := out.newline(); err != nil {
			return err
		}
		return out.WriteString(strings.Repeat("  ", max(w.lists-1, 0)) + "- ")
	case "s":
		n, err := strconv.Atoi(attr(t, "c"))
		if err != nil || n < 1 {
			n = 1
		}
		return out.WriteString(strings.Repeat(" ", min(n, 64)))
	case "tab":
		return out.WriteString("\t")
	case "line-break":
		return out.WriteString("\n")
	case "table-row":
		if err := out.newline(); err != nil {
			return err
		}
		return out.WriteString("| ")
	case "table-cell":
		w.cells++
	}
	return nil
}

func (w *odfWalker) end(t xml.EndElement, _ int) error {
	out := w.dst()
	switch t.Name.Local {
	case "note-body":
		w.noteAt = 0
		return w.notes.newline()
	case "note-citation":
		w.inCite = false
		return out.WriteString("[^" + w.citeNum + "]")
	case "p", "h":
		w.paras--
		if w.cells > 0 {
			return out.WriteString(" ")
		}
		return out.newline()
	case "list":
		w.lists--
	case "table-cell":
		w.cells--
		return out.WriteString("| ")
	case "table-row":
		return out.WriteString("\n")
	}
	return nil
}
