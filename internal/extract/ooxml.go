package extract

import (
	"context"
	"encoding/xml"
	"path"
)

// rel is one relationship of an Office Open XML part.
type rel struct{ id, typ, target string }

// relsOf reads the relationships of part (its _rels/<name>.rels), with
// targets resolved to part names; a part without relationships has none.
func relsOf(ctx context.Context, d *zipDoc, part string) ([]rel, error) {
	name := path.Join(path.Dir(part), "_rels", path.Base(part)+".rels")
	if !d.has(name) {
		return nil, nil
	}
	var out []rel
	err := d.walkPart(ctx, name, func(tok xml.Token, _ int) error {
		if t, ok := tok.(xml.StartElement); ok && t.Name.Local == "Relationship" && attr(t, "TargetMode") != "External" {
			out = append(out, rel{id: attr(t, "Id"), typ: path.Base(attr(t, "Type")), target: resolvePart(part, attr(t, "Target"))})
			if len(out) > maxZipEntries {
				return Fail(CodeTooLarge, "part %s lists more than %d relationships", name, maxZipEntries)
			}
		}
		return nil
	})
	return out, err
}

// textFlow is what WordprocessingML and DrawingML share: text runs (t),
// paragraphs (p) and table rows and cells (tr, tc) as "| a | b |" lines.
type textFlow struct {
	out    *sink
	inText bool
	cells  int // open table cells
}

// endElement closes one of the shared elements; others are no-ops.
func (f *textFlow) endElement(name string) error {
	switch name {
	case "t":
		f.inText = false
	case "p":
		if f.cells > 0 {
			return f.out.WriteString(" ")
		}
		return f.out.newline()
	case "tc":
		f.cells--
		return f.out.WriteString("| ")
	case "tr":
		return f.out.WriteString("\n")
	}
	return nil
}

// drawingWalker turns DrawingML text (slides, notes, shapes) into text:
// a:p paragraphs, a:br breaks, a:tbl tables as rows of cells.
type drawingWalker struct {
	textFlow
	skip int // depth of a skipped subtree, 0 if none
	// skipFields drops a:fld (slide numbers, dates) in notes pages.
	skipFields bool
}

func (w *drawingWalker) token(tok xml.Token, depth int) error {
	if w.skip > 0 {
		if _, ok := tok.(xml.EndElement); ok && depth == w.skip {
			w.skip = 0
		}
		return nil
	}
	switch t := tok.(type) {
	case xml.StartElement:
		switch t.Name.Local {
		case "t":
			w.inText = true
		case "br":
			return w.out.WriteString("\n")
		case "tab":
			return w.out.WriteString("\t")
		case "fld":
			if w.skipFields {
				w.skip = depth
			}
		case "Fallback":
			w.skip = depth
		case "tr":
			if err := w.out.newline(); err != nil {
				return err
			}
			return w.out.WriteString("| ")
		case "tc":
			w.cells++
		}
	case xml.EndElement:
		return w.endElement(t.Name.Local)
	case xml.CharData:
		if w.inText {
			return w.out.Write(t)
		}
	}
	return nil
}

// relID is an element's r:id, the prefixed id that names a relationship
// (a slide's plain id attribute is something else).
func relID(t xml.StartElement) string {
	for _, a := range t.Attr {
		if a.Name.Local == "id" && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}
