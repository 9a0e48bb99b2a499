package extract

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// pdfinfoBeside finds poppler's pdfinfo next to its pdftoppm (one package
// ships both); empty when either is missing.
func pdfinfoBeside(pdftoppm string) string {
	if pdftoppm == "" {
		return ""
	}
	p := filepath.Join(filepath.Dir(pdftoppm), "pdfinfo")
	if _, err := exec.LookPath(p); err != nil {
		return ""
	}
	return p
}

// popplerPage draws page of raw with poppler alone: pdfinfo counts the
// pages and measures the page, pdftoppm draws it. The child never starts
// PDFium for it, which costs about 0.4 s of CPU per process even from a
// warm compilation cache — as much as drawing the page.
func popplerPage(ctx context.Context, pdfinfo, pdftoppmBin string, raw []byte, page int) (PageImage, error) {
	path, err := tempPDF(raw)
	if err != nil {
		return PageImage{}, err
	}
	defer os.Remove(path)
	info, err := popplerInfo(ctx, pdfinfo, path, page)
	if err != nil {
		return PageImage{}, err
	}
	img := PageImage{Page: page, Pages: info.pages, Renderer: "pdftoppm"}
	if page > info.pages {
		return img, pastTheEnd(page, info.pages)
	}
	if info.width <= 0 || info.height <= 0 {
		return img, Fail(CodeParseFailed, "page %d cannot be loaded (it has no page box)", page)
	}
	dpi := pageImageDPI(info.width, info.height)
	if dpi < minPageImageDPI {
		return img, tooLargeToDraw(page, info.width, info.height)
	}
	img.PNG, err = pdftoppm(ctx, pdftoppmBin, path, page, dpi, "-cropbox", "-png")
	if err == nil && len(img.PNG) == 0 {
		err = fmt.Errorf("pdftoppm drew nothing")
	}
	if err == nil {
		cfg, derr := png.DecodeConfig(bytes.NewReader(img.PNG))
		img.Width, img.Height, err = cfg.Width, cfg.Height, derr
	}
	return img, err
}

// tempPDF writes raw where poppler's tools can open it; the caller removes
// the file.
func tempPDF(raw []byte) (string, error) {
	f, err := os.CreateTemp("", "knowspace-page-*.pdf")
	if err != nil {
		return "", err
	}
	if _, err = f.Write(raw); err == nil {
		err = f.Close()
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// pageInfo is what pdfinfo tells of a document and one of its pages: the
// crop box's size in points as the page is shown (turned when rotated).
type pageInfo struct {
	pages         int
	width, height float64
}

// popplerInfo runs pdfinfo for page; a page past the end makes pdfinfo
// refuse the range, so the count alone is asked for again.
func popplerInfo(ctx context.Context, bin, path string, page int) (pageInfo, error) {
	n := strconv.Itoa(page)
	out, err := runPoppler(ctx, "pdfinfo", bin, "-f", n, "-l", n, "-box", path)
	if err != nil && strings.Contains(err.Error(), "Wrong page range") {
		out, err = runPoppler(ctx, "pdfinfo", bin, path)
	}
	if err != nil {
		if strings.Contains(err.Error(), "Incorrect password") {
			return pageInfo{}, passwordProtected()
		}
		return pageInfo{}, Fail(CodeParseFailed, "not a readable PDF (%s)", SafeMessage(err.Error()))
	}
	var info pageInfo
	rot := 0
	prefix := fmt.Sprintf("Page %4d ", page)
	for line := range strings.Lines(string(out)) {
		key, val, _ := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch {
		case key == "Pages":
			info.pages, _ = strconv.Atoi(val)
		case key == prefix+"rot":
			rot, _ = strconv.Atoi(val)
		case key == prefix+"CropBox":
			var x1, y1, x2, y2 float64
			if _, err := fmt.Sscan(val, &x1, &y1, &x2, &y2); err == nil {
				info.width, info.height = max(x2-x1, x1-x2), max(y2-y1, y1-y2)
			}
		}
	}
	if rot%180 != 0 {
		info.width, info.height = info.height, info.width
	}
	if info.pages <= 0 {
		return pageInfo{}, Fail(CodeParseFailed, "not a readable PDF: its page tree is damaged")
	}
	return info, nil
}
