package extract

import (
	"context"
	"encoding/xml"
	"fmt"
	"strings"
	"unicode/utf8"
)

const xlsxExtractor = "knowspace-xlsx/1"

// Bounds of one workbook: a sheet past them ends with a line saying what
// was left out, and the Result is marked truncated there.
const (
	maxSheetRows     = 20000
	maxRowCells      = 256
	maxSharedStrings = 2_000_000
	maxCellChars     = 2000
)

// extractXLSX reads a workbook sheet by sheet in tab order: a "## Sheet:
// name" marker, then each non-empty row as a pipe-separated line of cached
// cell values (numbers as stored, without their display format). Pages is
// the sheet count.
func extractXLSX(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	d, err := openZip(raw, lim, "XLSX")
	if err != nil {
		return Result{}, err
	}
	const book = "xl/workbook.xml"
	if !d.has(book) {
		return Result{}, Fail(CodeParseFailed, "not an Excel workbook: xl/workbook.xml is missing")
	}
	rels, err := relsOf(ctx, d, book)
	if err != nil {
		return Result{}, err
	}
	target, shared := map[string]string{}, ""
	for _, r := range rels {
		switch r.typ {
		case "worksheet":
			target[r.id] = r.target
		case "sharedStrings":
			shared = r.target
		}
	}
	type sheet struct{ name, part string }
	var sheets []sheet
	err = d.walkPart(ctx, book, func(tok xml.Token, _ int) error {
		if t, ok := tok.(xml.StartElement); ok && t.Name.Local == "sheet" {
			if p := target[relID(t)]; p != "" && d.has(p) {
				sheets = append(sheets, sheet{attr(t, "name"), p})
			}
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	var strs []string
	if shared != "" && d.has(shared) {
		if strs, err = sharedStrings(ctx, d, shared); err != nil {
			return Result{}, err
		}
	}
	out := newSink(lim)
	var cutAt int64 = -1
	for _, s := range sheets {
		if err := out.blankLine(); err != nil {
			break
		}
		if err := out.WriteString("## Sheet: " + s.name + "\n"); err != nil {
			break
		}
		w := &sheetWalker{out: out, strs: strs}
		err := d.walkPart(ctx, s.part, w.token)
		if w.cut && cutAt < 0 {
			cutAt = int64(utf8.RuneCountInString(out.b.String()))
		}
		if w.cut {
			err = out.WriteString(fmt.Sprintf("\n[rows after %d of this sheet are not shown]\n", maxSheetRows))
		}
		if stopped(err) {
			return Result{}, err
		} else if err != nil {
			break
		}
	}
	res := out.result("xlsx", xlsxExtractor)
	res.Pages = len(sheets)
	if cutAt >= 0 && !res.Truncated {
		res.Truncated, res.TruncatedAt = true, cutAt
	}
	return res, nil
}

// sharedStrings reads the workbook's string table: the text of each si,
// without phonetic runs.
func sharedStrings(ctx context.Context, d *zipDoc, part string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inT, inPh := false, false
	err := d.walkPart(ctx, part, func(tok xml.Token, _ int) error {
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				cur.Reset()
			case "t":
				inT = true
			case "rPh":
				inPh = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				if len(out) >= maxSharedStrings {
					return Fail(CodeTooLarge, "the workbook has more than %d shared strings", maxSharedStrings)
				}
				out = append(out, cur.String())
			case "t":
				inT = false
			case "rPh":
				inPh = false
			}
		case xml.CharData:
			if inT && !inPh && cur.Len() < maxCellChars*4 {
				cur.Write(t)
			}
		}
		return nil
	})
	return out, err
}

// sheetWalker renders one worksheet's rows.
type sheetWalker struct {
	out   *sink
	strs  []string
	rows  int
	cut   bool
	cells []string
	typ   string
	col   int
	val   strings.Builder
	inVal bool
}

func (w *sheetWalker) token(tok xml.Token, _ int) error {
	if w.cut {
		return errFull
	}
	switch t := tok.(type) {
	case xml.StartElement:
		switch t.Name.Local {
		case "row":
			w.cells = w.cells[:0]
		case "c":
			w.typ, w.col = attr(t, "t"), columnOf(attr(t, "r"), len(w.cells))
			w.val.Reset()
		case "v", "t":
			w.inVal = true
		}
	case xml.EndElement:
		switch t.Name.Local {
		case "v", "t":
			w.inVal = false
		case "c":
			w.cell()
		case "row":
			return w.row()
		}
	case xml.CharData:
		if w.inVal && w.val.Len() < maxCellChars*4 {
			w.val.Write(t)
		}
	}
	return nil
}

func (w *sheetWalker) cell() {
	if w.col >= maxRowCells {
		return
	}
	v := w.val.String()
	switch w.typ {
	case "s":
		var i int
		if _, err := fmt.Sscan(v, &i); err == nil && i >= 0 && i < len(w.strs) {
			v = w.strs[i]
		}
	case "b":
		v = map[string]string{"0": "FALSE", "1": "TRUE"}[v]
	}
	v = strings.Join(strings.Fields(v), " ")
	if utf8.RuneCountInString(v) > maxCellChars {
		v = string([]rune(v)[:maxCellChars]) + "…"
	}
	for len(w.cells) < w.col {
		w.cells = append(w.cells, "")
	}
	w.cells = append(w.cells, v)
}

func (w *sheetWalker) row() error {
	empty := true
	for _, c := range w.cells {
		if c != "" {
			empty = false
			break
		}
	}
	if empty {
		return nil
	}
	if w.rows++; w.rows > maxSheetRows {
		w.cut = true
		return errFull
	}
	return w.out.WriteString("| " + strings.Join(w.cells, " | ") + " |\n")
}

// columnOf is the zero-based column of a cell reference like "BC12", or
// next when the reference is missing.
func columnOf(ref string, next int) int {
	col := 0
	for i := 0; i < len(ref) && ref[i] >= 'A' && ref[i] <= 'Z'; i++ {
		col = col*26 + int(ref[i]-'A'+1)
		if col > maxRowCells {
			return maxRowCells
		}
	}
	if col == 0 {
		return next
	}
	return col - 1
}
