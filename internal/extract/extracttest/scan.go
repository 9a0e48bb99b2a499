package extracttest

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// CJKFont is Debian's fonts-noto-cjk collection; each of its faces has
// Latin glyphs as well as the CJK ones of its region.
const CJKFont = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

// Faces of CJKFont, by their index in the collection.
const (
	FaceSC = 2 // Noto Sans CJK SC: Simplified Chinese
	FaceTC = 3 // Noto Sans CJK TC: Traditional Chinese, Taiwan's glyph forms
)

// ErrNoFont says the scanned-page helpers cannot draw text here; tests skip.
var ErrNoFont = errors.New("the Noto CJK font is missing: apt-get install -y fonts-noto-cjk")

// Page is a rendered page: a letter-sized sheet in 8-bit gray.
type Page struct {
	*image.Gray
	DPI int
}

// RenderText lays out text on a US-letter page at dpi in 12-point Noto Sans
// CJK SC with one-inch margins, breaking lines between words (and between
// any two Chinese characters) and keeping the text's own paragraph breaks.
func RenderText(text string, dpi int) (Page, error) { return RenderTextIn(text, dpi, FaceSC) }

// RenderTextIn is RenderText in another face of CJKFont (FaceTC for
// Traditional Chinese, whose glyphs differ from the Simplified forms).
func RenderTextIn(text string, dpi, face int) (Page, error) {
	raw, err := os.ReadFile(CJKFont)
	if err != nil {
		return Page{}, ErrNoFont
	}
	coll, err := opentype.ParseCollection(raw)
	if err != nil {
		return Page{}, err
	}
	f, err := coll.Font(face)
	if err != nil {
		return Page{}, err
	}
	ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 12, DPI: float64(dpi), Hinting: font.HintingFull})
	if err != nil {
		return Page{}, err
	}
	defer ff.Close()
	w, h := dpi*17/2, dpi*11
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	d := &font.Drawer{Dst: img, Src: image.Black, Face: ff}
	margin := fixed.I(dpi)
	right := fixed.I(w - dpi)
	lineH := ff.Metrics().Height * 3 / 2
	y := margin + ff.Metrics().Ascent
	for _, para := range strings.Split(text, "\n") {
		x := margin
		for _, tok := range tokens(para) {
			adv := d.MeasureString(tok)
			// Closing punctuation never starts a line (kinsoku): it hangs
			// in the margin instead, as typesetters do.
			if x+adv > right && x > margin && !strings.Contains(closing, tok) {
				x, y = margin, y+lineH
				if tok == " " {
					continue
				}
			}
			d.Dot = fixed.Point26_6{X: x, Y: y}
			d.DrawString(tok)
			x += adv
		}
		y += lineH * 3 / 2
	}
	return Page{Gray: img, DPI: dpi}, nil
}

// closing is the CJK punctuation that may not begin a line.
const closing = "，。、；：！？）」』】》"

// tokens cuts a paragraph into the units a line may break between: words,
// single spaces and single Chinese characters.
func tokens(s string) []string {
	var out []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == ' ':
			flush()
			out = append(out, " ")
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.P, r) && r > 0x2000:
			flush()
			out = append(out, string(r))
		default:
			word.WriteRune(r)
		}
	}
	flush()
	return out
}

// Noisy returns a copy of p with Gaussian grain (sigma in gray levels) and
// a sprinkle of black and white specks, as a cheap scanner gives, from a
// fixed seed so every run sees the same page.
func (p Page) Noisy(sigma float64, specks float64) Page {
	rng := rand.New(rand.NewPCG(7, 11))
	out := image.NewGray(p.Bounds())
	for i, v := range p.Pix {
		n := float64(v) + rng.NormFloat64()*sigma
		switch r := rng.Float64(); {
		case r < specks/2:
			n = 0
		case r < specks:
			n = 255
		}
		out.Pix[i] = uint8(max(0, min(255, math.Round(n))))
	}
	return Page{Gray: out, DPI: p.DPI}
}

// Skewed returns p turned by deg degrees (counter-clockwise) about its
// centre, bilinear, white outside.
func (p Page) Skewed(deg float64) Page {
	b := p.Bounds()
	out := image.NewGray(b)
	sin, cos := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(b.Dx())/2, float64(b.Dy())/2
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cos*dx-sin*dy+cx, sin*dx+cos*dy+cy
			out.Pix[y*out.Stride+x] = p.bilinear(sx, sy)
		}
	}
	return Page{Gray: out, DPI: p.DPI}
}

func (p Page) bilinear(x, y float64) uint8 {
	x0, y0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(x0), y-float64(y0)
	at := func(x, y int) float64 {
		if !(image.Point{x, y}.In(p.Bounds())) {
			return 255
		}
		return float64(p.Pix[y*p.Stride+x])
	}
	v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
	return uint8(math.Round(v))
}

// Rotated90 returns p turned a quarter clockwise: a page scanned sideways.
func (p Page) Rotated90() Page {
	b := p.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			out.Pix[x*out.Stride+(b.Dy()-1-y)] = p.Pix[y*p.Stride+x]
		}
	}
	return Page{Gray: out, DPI: p.DPI}
}

// PNG encodes the page.
func (p Page) PNG() []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, p.Gray); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ScannedPDF writes pages as a PDF whose pages are each one full-page gray
// image and no text at all, as a scanner makes. A nil entry of pages is a
// text page instead, showing text in Helvetica (a mixed document).
func ScannedPDF(pages []Page, text string) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids []string
	font := 0
	for _, p := range pages {
		page := len(objs) + 1
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
		if p.Gray == nil {
			if font == 0 {
				font = page + 2
			}
			content := "BT /F1 12 Tf 72 720 Td 14 TL"
			for _, line := range wrap(text, 90) {
				content += fmt.Sprintf(" (%s) '", pdfEscape(line))
			}
			content += " ET"
			objs = append(objs,
				fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", page+1, font),
				fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
			if font == page+2 {
				objs = append(objs, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
			}
			continue
		}
		objs = append(objs, imagePage(page, p)...)
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	return PDF(objs...)
}

// RepeatedScanPDF is a PDF of n pages that all show one scanned image
// object: a long scan at the size of one page.
func RepeatedScanPDF(p Page, n int) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	img := imagePage(3, p) // objects 3 (page), 4 (contents), 5 (image)
	objs = append(objs, img...)
	kids := []string{"3 0 R"}
	for range n - 1 {
		kids = append(kids, fmt.Sprintf("%d 0 R", len(objs)+1))
		objs = append(objs, img[0])
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return PDF(objs...)
}

// imagePage is the page object numbered page, its contents and its image.
func imagePage(page int, p Page) []string {
	b := p.Bounds()
	wPt, hPt := float64(b.Dx())*72/float64(p.DPI), float64(b.Dy())*72/float64(p.DPI)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	for y := 0; y < b.Dy(); y++ {
		_, _ = zw.Write(p.Pix[y*p.Stride : y*p.Stride+b.Dx()])
	}
	_ = zw.Close()
	content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im1 Do Q", wPt, hPt)
	return []string{
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Contents %d 0 R /Resources << /XObject << /Im1 %d 0 R >> >> >>", wPt, hPt, page+1, page+2),
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream",
			b.Dx(), b.Dy(), z.Len(), z.Bytes()),
	}
}

func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if len(line)+len(w)+1 > n && line != "" {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`).Replace(s)
}

// PNGBomb is a small PNG whose header declares width×height pixels of a
// single colour: a few kilobytes that decode to gigabytes.
func PNGBomb(width, height int) []byte {
	// An honest encoder would need the pixels in memory, so write the
	// chunks by hand: IHDR, one IDAT of zlib'd zero rows, IEND.
	var idat bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	row := make([]byte, width/8+2) // 1-bit gray, filter byte first
	for range min(height, 4096) {
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk(&b, "IHDR", []byte{byte(width >> 24), byte(width >> 16), byte(width >> 8), byte(width),
		byte(height >> 24), byte(height >> 16), byte(height >> 8), byte(height), 1, 0, 0, 0, 0})
	chunk(&b, "IDAT", idat.Bytes())
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, kind string, data []byte) {
	n := len(data)
	b.Write([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	b.WriteString(kind)
	b.Write(data)
	c := crc(append([]byte(kind), data...))
	b.Write([]byte{byte(c >> 24), byte(c >> 16), byte(c >> 8), byte(c)})
}

func crc(p []byte) uint32 {
	var table [256]uint32
	for i := range table {
		c := uint32(i)
		for range 8 {
			if c&1 == 1 {
				c = 0xedb88320 ^ c>>1
			} else {
				c >>= 1
			}
		}
		table[i] = c
	}
	c := ^uint32(0)
	for _, x := range p {
		c = table[byte(c)^x] ^ c>>8
	}
	return ^c
}
