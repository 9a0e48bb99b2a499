package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"

	"github.com/klippa-app/go-pdfium/requests"
)

// A page image is drawn for people, not for OCR: a preview beside the
// recognized text, small enough to send and decode at once.
const (
	// PageImageMaxWidth and PageImageMaxHeight bound a page image in
	// pixels; a letter or A4 page at PageImageDPI fits both.
	PageImageMaxWidth  = 1600
	PageImageMaxHeight = 2400
	// PageImageDPI is the resolution of an ordinary page: legible on a
	// high-density screen, a tenth of OCR's pixels.
	PageImageDPI = 150
	// minPageImageDPI refuses a page so large that even the bounded image
	// would show nothing legible (over 11,000 points, about 4 m, wide).
	minPageImageDPI = 10
)

// Codes of a failed page image, beside the extraction codes (parse_failed,
// encrypted, parse_timeout, too_large).
const (
	CodePageOutOfRange = "page_out_of_range"
	CodeNoRenderer     = "renderer_unavailable"
)

// PageImage is one page of a PDF drawn as a PNG.
type PageImage struct {
	PNG    []byte `json:"png,omitempty"`
	Page   int    `json:"page"`
	Pages  int    `json:"pages"` // the document's page count
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	// Renderer names what drew it: "pdftoppm" or PDFExtractor.
	Renderer string `json:"renderer,omitempty"`
}

// RenderPage draws page (1-based) of the PDF raw as a PNG of at most
// PageImageMaxWidth × PageImageMaxHeight pixels, with poppler (pdfinfo and
// pdftoppm) when o names pdftoppm (see OCR.Resolve) and PDFium otherwise:
// the renderers of OCR. A page past the end is an *Error with
// CodePageOutOfRange, returned with the PageImage that says how many pages
// there are. It runs in the calling goroutine; Isolation.RenderPage runs
// it in the extraction child.
func RenderPage(ctx context.Context, raw []byte, page int, o OCR) (img PageImage, err error) {
	defer func() {
		if r := recover(); r != nil {
			img, err = PageImage{}, Fail(CodeParseFailed, "the PDF could not be drawn: the engine failed on malformed content")
		}
	}()
	if page < 1 {
		return PageImage{}, Fail(CodePageOutOfRange, "page %d does not exist: pages count from 1", page)
	}
	if info := pdfinfoBeside(o.Pdftoppm); info != "" {
		img, err = popplerPage(ctx, info, o.Pdftoppm, raw, page)
	} else {
		img, err = pdfiumPage(ctx, raw, page)
	}
	var e *Error
	if err != nil && !errors.As(err, &e) {
		if ctx.Err() != nil {
			return PageImage{}, ctx.Err()
		}
		return img, Fail(CodeParseFailed, "page %d could not be drawn (%s)", page, SafeMessage(err.Error()))
	}
	return img, err
}

// pdfiumPage draws page with PDFium, inside this process.
func pdfiumPage(ctx context.Context, raw []byte, page int) (PageImage, error) {
	if _, err := pdfPool(); err != nil {
		return PageImage{}, Fail(CodeNoRenderer, "no PDF renderer: %v", err)
	}
	d, err := openPDF(ctx, raw)
	if err != nil {
		return PageImage{}, err
	}
	defer d.close()
	img := PageImage{Page: page, Pages: d.pages, Renderer: PDFExtractor}
	if page > d.pages {
		return img, pastTheEnd(page, d.pages)
	}
	ref := requests.Page{ByIndex: &requests.PageByIndex{Document: d.doc, Index: page - 1}}
	size, err := d.inst.GetPageSize(&requests.GetPageSize{Page: ref})
	if err != nil {
		return img, Fail(CodeParseFailed, "page %d cannot be loaded (%s)", page, pageReason(err))
	}
	dpi := pageImageDPI(size.Width, size.Height)
	if dpi < minPageImageDPI {
		return img, tooLargeToDraw(page, size.Width, size.Height)
	}
	g, err := d.renderRGBA(ref, dpi)
	if err != nil {
		return img, err
	}
	var b bytes.Buffer
	err = (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, g)
	img.PNG, img.Width, img.Height = b.Bytes(), g.Bounds().Dx(), g.Bounds().Dy()
	return img, err
}

// pastTheEnd and tooLargeToDraw are the refusals both renderers share.
func pastTheEnd(page, pages int) error {
	return Fail(CodePageOutOfRange, "page %d is past the end: the document has %d %s", page, pages, plural(pages, "page"))
}

func tooLargeToDraw(page int, wPt, hPt float64) error {
	return Fail(CodeTooLarge, "page %d is %.0f×%.0f points, too large to draw", page, wPt, hPt)
}

// RenderPage draws page (1-based) of the PDF src, named name, in a child
// process, to which src streams (the caller holds no copy of the file), under the extraction's memory ceiling, and within one page's
// budget (ocr.page_timeout, at most the whole parse_timeout); cancelling
// ctx kills the child and its renderer. Errors are as RenderPage's, plus
// the child's (CodeTimeout, CodeTooLarge, ctx's error).
func (iso Isolation) RenderPage(ctx context.Context, name string, src io.Reader, page int) (PageImage, error) {
	if page < 1 {
		return PageImage{}, Fail(CodePageOutOfRange, "%s: page %d does not exist: pages count from 1", name, page)
	}
	timeout := iso.Limits.OCR.withDefaults().PageTimeout
	if iso.Timeout > 0 {
		timeout = min(timeout, iso.Timeout)
	}
	rep, err := iso.exchange(ctx, request{Name: name, Limits: iso.Limits, CacheDir: iso.CacheDir, Page: page}, src, timeout)
	if err != nil {
		return PageImage{}, err
	}
	var img PageImage
	if rep.Image != nil {
		img = *rep.Image
	}
	if rep.Error != nil {
		return img, &Error{Code: rep.Error.Code, Message: SafeMessage(name + ": " + rep.Error.Message)}
	}
	if len(img.PNG) == 0 {
		return PageImage{}, Fail(CodeParseFailed, "%s: the renderer stopped unexpectedly on this file", name)
	}
	return img, nil
}

// pageImageDPI is PageImageDPI, or less for a page whose image would pass
// the pixel bounds. It rounds down, so the image never passes them.
func pageImageDPI(wPt, hPt float64) int {
	if wPt <= 0 || hPt <= 0 {
		return 0
	}
	dpi := min(PageImageDPI, PageImageMaxWidth*72/wPt, PageImageMaxHeight*72/hPt)
	return int(math.Floor(dpi))
}

// renderRGBA draws a page in colour with PDFium and copies it out of the
// engine's memory.
func (d *pdfDoc) renderRGBA(page requests.Page, dpi int) (*image.RGBA, error) {
	r, err := d.inst.RenderPageInDPI(&requests.RenderPageInDPI{Page: page, DPI: dpi})
	if err != nil {
		return nil, err
	}
	defer r.Cleanup()
	src, ok := r.Result.RenderedImage.(*image.RGBA)
	if !ok {
		return nil, fmt.Errorf("the engine rendered %T, not RGBA", r.Result.RenderedImage)
	}
	out := image.NewRGBA(image.Rect(0, 0, src.Rect.Dx(), src.Rect.Dy()))
	for y := range out.Rect.Dy() {
		copy(out.Pix[y*out.Stride:(y+1)*out.Stride], src.Pix[y*src.Stride:y*src.Stride+4*out.Rect.Dx()])
	}
	return out, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
