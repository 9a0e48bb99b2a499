package extract

import (
	"context"
	"strconv"
	"unicode/utf16"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

const (
	rtfExtractor = "knowspace-rtf/1"
	maxRTFDepth  = 1024
)

// rtfSkipped are destinations whose content is not document text.
var rtfSkipped = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true, "object": true,
	"listtable": true, "listoverridetable": true, "rsidtbl": true, "themedata": true, "generator": true,
	"colorschememapping": true, "datastore": true, "latentstyles": true, "xmlnstbl": true, "fldinst": true,
	"filetbl": true, "revtbl": true, "pgdsctbl": true, "bkmkstart": true, "bkmkend": true, "datafield": true,
	"objdata": true, "nonshppict": true, "shprslt": true, "sp": true, "template": true, "mmathPr": true, "pn": true,
	// List numbers and bullets: a symbol-font glyph and a tab that mean
	// nothing without the list's layout.
	"listtext": true, "pntext": true,
}

// rtfChars are control words that stand for text.
var rtfChars = map[string]string{
	"par": "\n", "line": "\n", "sect": "\n\n", "page": "\n\n", "tab": "\t", "cell": " | ", "nestcell": " | ",
	"row": "\n", "nestrow": "\n", "emdash": "—", "endash": "–", "lquote": "‘", "rquote": "’",
	"ldblquote": "“", "rdblquote": "”", "bullet": "•", "emspace": " ", "enspace": " ", "qmspace": " ",
}

// rtfGroup is the state a group inherits and restores.
type rtfGroup struct {
	skip  bool
	close string // text written when the group ends (a footnote's "]")
	uc    int    // bytes to skip after \uN
	font  int
	inFTB bool // inside the font table
}

// rtfReader walks RTF source; document text goes to out.
type rtfReader struct {
	src      []byte
	pos      int
	out      *sink
	stack    []rtfGroup
	g        rtfGroup
	docCP    encoding.Encoding
	fontCP   map[int]encoding.Encoding
	curFont  int // font being defined in the font table
	pending  []byte
	surr     rune // a high surrogate from \uN awaiting its pair
	skipNext int  // fallback bytes still to drop after \uN
	rowStart bool // a table row began and has no text yet
}

// extractRTF reads an RTF document: text with paragraphs, tables as rows of
// cells, \uN escapes and \'hh bytes in the font's or the document's code
// page; font tables, pictures, field codes and other destinations are
// skipped.
func extractRTF(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	if len(raw) < 5 || string(raw[:5]) != `{\rtf` {
		return Result{}, Fail(CodeParseFailed, "not an RTF document (it does not start with {\\rtf)")
	}
	r := &rtfReader{src: raw, out: newSink(lim), docCP: charmap.Windows1252, fontCP: map[int]encoding.Encoding{}, g: rtfGroup{uc: 1}}
	if err := r.run(ctx); stopped(err) {
		return Result{}, err
	}
	return r.out.result("rtf", rtfExtractor), nil
}

func (r *rtfReader) run(ctx context.Context) error {
	for n := 0; r.pos < len(r.src); n++ {
		if n%65536 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		c := r.src[r.pos]
		switch c {
		case '{':
			r.pos++
			if len(r.stack) >= maxRTFDepth {
				return Fail(CodeParseFailed, "groups nest more than %d deep", maxRTFDepth)
			}
			r.stack = append(r.stack, r.g)
			r.g.close = ""
		case '}':
			r.pos++
			if err := r.flush(); err != nil {
				return err
			}
			if len(r.stack) == 0 {
				return nil // the document's closing brace
			}
			closing := r.g.close
			r.g, r.stack = r.stack[len(r.stack)-1], r.stack[:len(r.stack)-1]
			if closing != "" {
				if err := r.emit(closing); err != nil {
					return err
				}
			}
		case '\\':
			if err := r.control(); err != nil {
				return err
			}
		case '\r', '\n':
			r.pos++
		default:
			r.pos++
			if r.skipNext > 0 {
				r.skipNext--
				continue
			}
			if !r.g.skip {
				r.pending = append(r.pending, c)
			}
		}
	}
	return r.flush()
}

func (r *rtfReader) control() error {
	r.pos++ // the backslash
	if r.pos >= len(r.src) {
		return nil
	}
	c := r.src[r.pos]
	if !isASCIILetter(c) {
		r.pos++
		return r.symbol(c)
	}
	start := r.pos
	for r.pos < len(r.src) && isASCIILetter(r.src[r.pos]) {
		r.pos++
	}
	word := string(r.src[start:r.pos])
	num, hasNum := 0, false
	if r.pos < len(r.src) && (r.src[r.pos] == '-' || isDigit(r.src[r.pos])) {
		s := r.pos
		r.pos++
		for r.pos < len(r.src) && isDigit(r.src[r.pos]) && r.pos-s < 11 {
			r.pos++
		}
		num, _ = strconv.Atoi(string(r.src[s:r.pos]))
		hasNum = true
	}
	if r.pos < len(r.src) && r.src[r.pos] == ' ' {
		r.pos++
	}
	return r.word(word, num, hasNum)
}

func (r *rtfReader) symbol(c byte) error {
	switch c {
	case '\'':
		if r.pos+2 > len(r.src) {
			r.pos = len(r.src)
			return nil
		}
		b, err := strconv.ParseUint(string(r.src[r.pos:r.pos+2]), 16, 8)
		r.pos += 2
		if r.skipNext > 0 {
			r.skipNext--
			return nil
		}
		if err == nil && !r.g.skip {
			r.pending = append(r.pending, byte(b))
		}
		return nil
	case '*':
		r.g.skip = true // an ignorable destination we do not know
		return nil
	}
	if r.skipNext > 0 {
		r.skipNext--
		return nil
	}
	switch c {
	case '\\', '{', '}':
		return r.emitByte(c)
	case '~':
		return r.emit(" ")
	case '_':
		return r.emit("-")
	case '\n', '\r':
		return r.emit("\n")
	}
	return nil
}

func (r *rtfReader) word(w string, num int, hasNum bool) error {
	switch {
	case w == "bin" && hasNum:
		r.pos = min(len(r.src), r.pos+max(num, 0))
		return nil
	case r.g.inFTB:
		switch w {
		case "f":
			r.curFont = num
		case "fcharset":
			if e := charsetEncoding(num); e != nil {
				r.fontCP[r.curFont] = e
			}
		case "cpg":
			if e := codePage(num); e != nil {
				r.fontCP[r.curFont] = e
			}
		}
		return nil
	case w == "footnote":
		// Often written as an ignorable destination (\*\footnote), yet it
		// is text: keep it inline where its mark is.
		r.g.skip = false
		if err := r.emit(" [footnote: "); err != nil {
			return err
		}
		r.g.close = "]"
		return nil
	case w == "shpinst" || w == "shptxt":
		r.g.skip = false // a shape's text box, often behind \*
		return nil
	case w == "trowd":
		r.rowStart = true
		return nil
	case w == "fonttbl":
		r.g.skip, r.g.inFTB = true, true
		return nil
	case rtfSkipped[w]:
		r.g.skip = true
		return nil
	case w == "ansicpg":
		if e := codePage(num); e != nil {
			r.docCP = e
		}
		return nil
	case w == "f" && hasNum:
		if err := r.flush(); err != nil {
			return err
		}
		r.g.font = num
		return nil
	case w == "uc":
		r.g.uc = max(num, 0)
		return nil
	case w == "u" && hasNum:
		if err := r.flush(); err != nil {
			return err
		}
		r.skipNext = r.g.uc
		if r.g.skip {
			return nil
		}
		return r.unicode(rune(int16(num)) & 0xFFFF)
	}
	if r.skipNext > 0 {
		r.skipNext--
		return nil
	}
	if w == "row" {
		r.rowStart = false
	}
	if s, ok := rtfChars[w]; ok {
		return r.emit(s)
	}
	return nil
}

func (r *rtfReader) unicode(u rune) error {
	switch {
	case utf16.IsSurrogate(u) && u < 0xDC00:
		r.surr = u
		return nil
	case utf16.IsSurrogate(u) && r.surr != 0:
		u, r.surr = utf16.DecodeRune(r.surr, u), 0
	case utf16.IsSurrogate(u):
		return nil
	}
	if err := r.startRow(); err != nil {
		return err
	}
	return r.out.WriteString(string(u))
}

func (r *rtfReader) emit(s string) error {
	if r.g.skip {
		return nil
	}
	if err := r.flush(); err != nil {
		return err
	}
	if s != "\n" {
		if err := r.startRow(); err != nil {
			return err
		}
	}
	return r.out.WriteString(s)
}

// startRow opens a table row's line once it has something to show.
func (r *rtfReader) startRow() error {
	if !r.rowStart {
		return nil
	}
	r.rowStart = false
	if err := r.out.newline(); err != nil {
		return err
	}
	return r.out.WriteString("| ")
}

func (r *rtfReader) emitByte(c byte) error {
	if !r.g.skip {
		r.pending = append(r.pending, c)
	}
	return nil
}

// flush decodes the bytes gathered since the last control word in the
// current font's code page, so double-byte characters split over two \'hh
// escapes come out whole.
func (r *rtfReader) flush() error {
	if len(r.pending) == 0 {
		return nil
	}
	e := r.docCP
	if f, ok := r.fontCP[r.g.font]; ok {
		e = f
	}
	out, err := e.NewDecoder().Bytes(r.pending)
	r.pending = r.pending[:0]
	if err != nil {
		return nil
	}
	if err := r.startRow(); err != nil {
		return err
	}
	return r.out.Write(out)
}

// codePage maps a Windows code page number to its decoder.
func codePage(cp int) encoding.Encoding {
	switch cp {
	case 936, 54936:
		return simplifiedchinese.GB18030
	case 950:
		return traditionalchinese.Big5
	case 932:
		return japanese.ShiftJIS
	case 949:
		return korean.EUCKR
	case 437:
		return charmap.CodePage437
	case 850:
		return charmap.CodePage850
	case 874:
		return charmap.Windows874
	case 1250, 1251, 1252, 1253, 1254, 1255, 1256, 1257, 1258:
		return []encoding.Encoding{charmap.Windows1250, charmap.Windows1251, charmap.Windows1252, charmap.Windows1253,
			charmap.Windows1254, charmap.Windows1255, charmap.Windows1256, charmap.Windows1257, charmap.Windows1258}[cp-1250]
	case 10000:
		return charmap.Macintosh
	case 65001:
		return encoding.Nop
	}
	return nil
}

// charsetEncoding maps an RTF \fcharset to its code page.
func charsetEncoding(cs int) encoding.Encoding {
	cp := map[int]int{0: 1252, 77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254,
		163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250}[cs]
	return codePage(cp)
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
