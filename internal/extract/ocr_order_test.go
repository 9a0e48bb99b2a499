package extract

import (
	"image"
	"strings"
	"testing"
)

// tl is a test line: its block and paragraph, and its text laid out from
// (x, y) at 20 px a character, 30 px high, one word box per word.
func tl(block, par, x, y int, text string) ocrLine {
	l := ocrLine{block: block, par: par}
	for _, w := range strings.Fields(text) {
		l.words = append(l.words, ocrWord{text: w, conf: 90, box: image.Rect(x, y, x+20*len(w), y+30)})
		x += 20*len(w) + 20
	}
	return l
}

func lineTexts(lines []ocrLine) string {
	var s []string
	for _, l := range lines {
		var w []string
		for _, x := range l.words {
			w = append(w, x.text)
		}
		s = append(s, strings.Join(w, " "))
	}
	return strings.Join(s, " | ")
}

// turned gives lines as Tesseract reports a page it turned: boxes in the
// image as scanned, so a page upside down lists its lines (and each
// line's words) from the bottom right.
func turned(lines []ocrLine, w, h int) []ocrLine {
	out := make([]ocrLine, len(lines))
	for i, l := range lines {
		out[i] = ocrLine{block: l.block, par: l.par}
		for _, x := range l.words {
			x.box = image.Rect(w-x.box.Max.X, h-x.box.Max.Y, w-x.box.Min.X, h-x.box.Min.Y)
			out[i].words = append(out[i].words, x)
		}
	}
	return out
}

// tilted is lines on a page turned by slope (down per pixel across)
// about its top left corner, as a scan lies crooked.
func tilted(lines []ocrLine, slope float64) []ocrLine {
	out := make([]ocrLine, len(lines))
	for i, l := range lines {
		out[i] = ocrLine{block: l.block, par: l.par}
		for _, x := range l.words {
			cx, cy := float64(x.box.Min.X+x.box.Max.X)/2, float64(x.box.Min.Y+x.box.Max.Y)/2
			x.box = x.box.Add(image.Pt(int(-slope*cy), int(slope*cx)))
			out[i].words = append(out[i].words, x)
		}
	}
	return out
}

// sideways is lines on a page turned a quarter: each line's box is tall.
func sideways(lines []ocrLine) []ocrLine {
	out := make([]ocrLine, len(lines))
	for i, l := range lines {
		out[i] = ocrLine{block: l.block, par: l.par}
		for _, x := range l.words {
			x.box = image.Rect(x.box.Min.Y, x.box.Min.X, x.box.Max.Y, x.box.Max.X)
			out[i].words = append(out[i].words, x)
		}
	}
	return out
}

func TestReadingOrder(t *testing.T) {
	// A manual page as Tesseract returned tar(1): the headings at the left
	// margin gathered into a column of their own, listed apart from the
	// body lines they stand above; the running head and foot split in two.
	manPage := []ocrLine{
		tl(1, 1, 300, 170, "TAR(1)"),
		tl(2, 1, 300, 320, "NAME"),
		tl(3, 1, 1100, 170, "GNU TAR Manual TAR(1)"),
		tl(4, 1, 450, 370, "tar - an archiving utility"),
		tl(5, 1, 300, 440, "SYNOPSIS"),
		tl(5, 1, 360, 490, "Traditional usage"),
		tl(6, 1, 450, 540, "tar {A|c|d|r|t|u|x} [ARG...]"),
		tl(7, 1, 300, 1350, "NOTE"),
		tl(8, 1, 300, 3170, "TAR"),
		tl(9, 1, 450, 1200, "tar --create [--file ARCHIVE] [OPTIONS] [FILE...]"),
		tl(9, 2, 450, 1250, "tar --update [--file ARCHIVE] [OPTIONS] [FILE...]"),
		tl(10, 1, 450, 1400, "This manpage is a short description of GNU tar. For a detailed discussion, including examples and usage"),
		tl(10, 1, 450, 1450, "recommendations, refer to the GNU Tar Manual available in texinfo format."),
		tl(11, 1, 1160, 3170, "July 13, 2020 1"),
	}
	manPageRead := "TAR(1) | GNU TAR Manual TAR(1) | NAME | tar - an archiving utility | SYNOPSIS | Traditional usage | " +
		"tar {A|c|d|r|t|u|x} [ARG...] | tar --create [--file ARCHIVE] [OPTIONS] [FILE...] | tar --update [--file ARCHIVE] [OPTIONS] [FILE...] | " +
		"NOTE | This manpage is a short description of GNU tar. For a detailed discussion, including examples and usage | " +
		"recommendations, refer to the GNU Tar Manual available in texinfo format. | TAR | July 13, 2020 1"
	// Two columns of like width under a title: column by column, as
	// Tesseract lists them, though their lines share rows.
	columns := []ocrLine{
		tl(1, 1, 300, 100, "A Title Across Both Columns"),
		tl(2, 1, 200, 200, "left column line one"),
		tl(2, 1, 200, 250, "left column line two"),
		tl(2, 1, 200, 300, "left column line three"),
		tl(3, 1, 800, 200, "right column line one"),
		tl(3, 1, 800, 250, "right column line two"),
		tl(3, 1, 800, 300, "right column line three"),
	}
	// A note of two lines in the margin beside a paragraph stays whole,
	// before the body line it starts beside.
	marginNote := []ocrLine{
		tl(1, 1, 300, 100, "The body of the page runs on for a good many words in each of its lines here"),
		tl(1, 1, 300, 150, "and this second line is where the note in the margin starts to its left side"),
		tl(1, 1, 300, 200, "and the third line of the body goes on beside the second line of the note"),
		tl(1, 1, 300, 250, "and the fourth line ends the paragraph of the body."),
		tl(2, 1, 40, 150, "a note"),
		tl(2, 1, 40, 200, "in two"),
	}
	cases := []struct {
		name  string
		lines []ocrLine
		want  string
	}{
		{"margin headings", manPage, manPageRead},
		{"two columns", columns, lineTexts(columns)},
		{"margin note", marginNote, "The body of the page runs on for a good many words in each of its lines here | a note | in two | " +
			"and this second line is where the note in the margin starts to its left side | " +
			"and the third line of the body goes on beside the second line of the note | and the fourth line ends the paragraph of the body."},
		// A page scanned 2° crooked: its lines' boxes overlap the next
		// row's at their ends, its margin slants.
		{"tilted", tilted(manPage, 0.035), manPageRead},
		{"tilted back", tilted(manPage, -0.035), manPageRead},
		// Pages Tesseract turned upright report boxes as scanned; their
		// order is its own.
		{"upside down", turned(manPage, 2480, 3510), lineTexts(manPage)},
		{"sideways", sideways(manPage), lineTexts(manPage)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lineTexts(readingOrder(append([]ocrLine(nil), c.lines...))); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", strings.ReplaceAll(got, " | ", "\n"), strings.ReplaceAll(c.want, " | ", "\n"))
			}
		})
	}
}

// The blank line between blocks and paragraphs follows the lines moved.
func TestReadingOrderKeepsParagraphBreaks(t *testing.T) {
	lines := readingOrder([]ocrLine{
		tl(1, 1, 300, 320, "NAME"),
		tl(2, 1, 1100, 170, "Manual"),
		tl(3, 1, 450, 370, "tar - an archiving utility"),
	})
	if got, want := assemble(lines).text, "Manual\n\nNAME\n\ntar - an archiving utility"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
