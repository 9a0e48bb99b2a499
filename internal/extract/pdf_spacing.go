package extract

import (
	"unicode"

	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
)

// Some producers (Ghostscript behind groff, many print drivers) set words
// apart by moving the pen, not with space glyphs, and PDFium's guess from
// the font's space width misses the narrow gaps of justified lines
// ("anyother") and splits at wide kerning ("pa ttern"). Poppler decides
// from the gap itself; so does respace, with each character's advance box
// (origin to origin plus advance width, font ascent to descent).
const (
	// wordGap is the gap, as a share of the font size, that separates
	// words: letters of a word sit within a few hundredths, word spaces of
	// justified text measured 0.18 to 0.6.
	wordGap = 0.15
	// touchGap is the gap below which PDFium's generated space is wrong.
	touchGap = 0.05
	// probePairs is how many letter pairs of a later page are measured to
	// decide whether the whole page needs measuring.
	probePairs = 48
	// habitGaps is how many missed word spaces on the first page measured
	// in full make the whole document measured: one may be a quirk.
	habitGaps = 2
)

// advanceBox is a character's box from its origin to its advance.
type advanceBox struct{ left, right, bottom, top float64 }

func (b advanceBox) size() float64 { return b.top - b.bottom }

// gap is how far b starts after a ends, as a share of the larger font
// size, and whether both sit on one line (their boxes overlap vertically).
func gap(a, b advanceBox) (float64, bool) {
	size := max(a.size(), b.size())
	if size <= 0 || min(a.top, b.top)-max(a.bottom, b.bottom) < size/2 {
		return 0, false
	}
	return (b.left - a.right) / size, true
}

// respace returns a page's text (text is FPDFText_GetText's of n
// characters) with word spaces put where the glyphs' positions show them
// and PDFium's spaces dropped where the letters touch. A document's first
// page with words is measured in full; if PDFium missed spaces there, so
// is every page after it, and otherwise a page is measured only when a
// probe of some of its letter pairs finds a missed space. Pages from
// producers that place spaces PDFium reads right pay for one page.
func (d *pdfDoc) respace(tp references.FPDF_TEXTPAGE, text string, n int) (string, error) {
	rs := []rune(text)
	if len(rs) != n {
		return text, nil // no rune per character index to measure by
	}
	// Letters and digits only: a table of contents' dot leaders are spaced
	// wider than words and mean nothing.
	var pairs []int
	for i := 0; i+1 < len(rs); i++ {
		if wordRune(rs[i]) && wordRune(rs[i+1]) {
			pairs = append(pairs, i)
		}
	}
	if len(pairs) == 0 {
		return text, nil
	}
	m := glyphs{inst: d.inst, tp: tp, boxes: map[int]advanceBox{}}
	if d.probed && !d.spaced {
		missed, err := m.probe(pairs)
		if err != nil || !missed {
			return text, err
		}
	}
	out, missed, err := m.measure(rs)
	if err != nil {
		return "", err
	}
	if !d.probed {
		d.probed, d.spaced = true, missed >= habitGaps
	}
	return out, nil
}

// glyphs reads the advance boxes of one text page, each once.
type glyphs struct {
	inst  *pdfInstance
	tp    references.FPDF_TEXTPAGE
	boxes map[int]advanceBox
}

func (m glyphs) box(i int) (advanceBox, error) {
	if b, ok := m.boxes[i]; ok {
		return b, nil
	}
	r, err := m.inst.FPDFText_GetLooseCharBox(&requests.FPDFText_GetLooseCharBox{TextPage: m.tp, Index: i})
	if err != nil {
		return advanceBox{}, err
	}
	b := advanceBox{float64(r.Rect.Left), float64(r.Rect.Right), float64(r.Rect.Bottom), float64(r.Rect.Top)}
	m.boxes[i] = b
	return b, nil
}

// gapAt is the gap between characters i and j on one line (ok false when
// they are on two).
func (m glyphs) gapAt(i, j int) (g float64, ok bool, err error) {
	a, err := m.box(i)
	if err != nil {
		return 0, false, err
	}
	b, err := m.box(j)
	if err != nil {
		return 0, false, err
	}
	g, ok = gap(a, b)
	return g, ok, nil
}

// probe reports whether any of probePairs pairs spread over pairs is set
// apart like two words.
func (m glyphs) probe(pairs []int) (bool, error) {
	step := max(1, len(pairs)/probePairs)
	for k := 0; k < len(pairs); k += step {
		g, line, err := m.gapAt(pairs[k], pairs[k]+1)
		if err != nil || line && g > wordGap {
			return err == nil, err
		}
	}
	return false, nil
}

// measure rebuilds the text from every character's position and counts
// the word spaces it put between letters that PDFium had joined.
func (m glyphs) measure(rs []rune) (string, int, error) {
	out := make([]rune, 0, len(rs)+len(rs)/16)
	missed := 0
	for i, r := range rs {
		if r == ' ' && i > 0 && i+1 < len(rs) && joinable(rs[i-1]) && joinable(rs[i+1]) {
			g, line, err := m.gapAt(i-1, i+1)
			if err != nil {
				return "", 0, err
			}
			if line && g < touchGap {
				continue
			}
		}
		out = append(out, r)
		if i+1 < len(rs) && joinable(r) && joinable(rs[i+1]) {
			g, line, err := m.gapAt(i, i+1)
			if err != nil {
				return "", 0, err
			}
			if line && g > wordGap {
				out = append(out, ' ')
				if wordRune(r) && wordRune(rs[i+1]) {
					missed++
				}
			}
			delete(m.boxes, i)
		}
	}
	return string(out), missed, nil
}

// joinable reports whether r is part of a word that a space may split:
// not a space or line end, and not of a script written without spaces.
func joinable(r rune) bool {
	return !unicode.IsSpace(r) && r >= 0x20 && !isCJK(r)
}

// wordRune reports whether r is a letter or digit of a spaced script.
func wordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && joinable(r)
}
