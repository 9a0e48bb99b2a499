package extract

import (
	"bytes"
	"context"
	"image"
	_ "image/gif" // a GIF's first frame
	_ "image/jpeg"
	_ "image/png"
	"path"
	"slices"
	"strings"

	_ "golang.org/x/image/bmp"
	_ "golang.org/x/image/tiff" // a TIFF's first page
	_ "golang.org/x/image/webp"
)

// imageFormats are the raster images read by OCR.
var imageFormats = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".tif", ".tiff", ".bmp"}

// extractImage reads a picture's text with OCR. Its header is checked
// before any pixel is decoded, so a decompression bomb (a few kilobytes
// declaring billions of pixels) is refused, not unpacked.
func extractImage(ctx context.Context, raw []byte, lim Limits) (Result, error) {
	cfg, kind, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return Result{}, Fail(CodeParseFailed, "not a readable image (%s)", imageReason(err))
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > maxOCRPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return Result{}, Fail(CodeTooLarge, "the image declares %d×%d pixels, more than the %d million OCR reads; scale it down and upload it again",
			cfg.Width, cfg.Height, maxOCRPixels/1_000_000)
	}
	r := newOCRReader(lim.OCR)
	if r == nil {
		return Result{}, Fail(CodeNoText, "it is a %s image and has no text layer; %s", strings.ToUpper(kind), noOCRHint(lim.OCR))
	}
	img, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return Result{}, Fail(CodeParseFailed, "not a readable image (%s)", imageReason(err))
	}
	text, err := r.read(ctx, 1, img, 0)
	res := Result{Format: kind, Extractor: r.status.Engine, Pages: 1, Source: SourceOCR}
	if pf, ok := err.(*pageFailure); ok {
		return Result{}, Fail(CodeParseFailed, "%s", pf.reason)
	} else if err != nil {
		return Result{}, err
	}
	res.Text, res.OCR = text, r.info()
	return res, nil
}

// imageReason names a decoder's complaint without quoting the file.
func imageReason(err error) string {
	s := err.Error()
	if s == image.ErrFormat.Error() {
		return "unknown or damaged image format"
	}
	return SafeMessage(s)
}

// MayOCR reports whether name is a format whose text may come from OCR:
// an image or a PDF.
func MayOCR(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == ".pdf" || slices.Contains(imageFormats, ext)
}
