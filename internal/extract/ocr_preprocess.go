package extract

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
)

// preprocess turns a page image into what Tesseract reads best: 8-bit
// gray, speckle and grain removed when the scan is noisy, and scaled to
// about 300 dpi when it is coarser. It returns the image with its new dpi
// (0 when unknown). Binarization and small skews Tesseract handles itself
// (Otsu), and pages turned by quarter turns its orientation detection;
// small skews are straightened here.
func preprocess(src image.Image, dpi int) (*image.Gray, int) {
	g := toGray(src)
	if noiseLevel(g) > noisyAbove {
		g = denoise(g)
	}
	if a := skewAngle(g); math.Abs(a) >= minSkew {
		g = rotate(g, a)
	}
	f := 1.0
	switch {
	case dpi > 0 && dpi < ocrDPI*9/10:
		f = min(4, float64(ocrDPI)/float64(dpi))
	case dpi <= 0 && max(g.Bounds().Dx(), g.Bounds().Dy()) < 2000:
		// Unknown resolution and small: a phone shot or a low-dpi scan,
		// whose x-height is likely under Tesseract's best 20-30 pixels.
		f = 2
	}
	if f > 1.05 {
		g = upscale(g, f)
		if dpi > 0 {
			dpi = int(float64(dpi)*f + 0.5)
		}
	}
	return g, dpi
}

// noisyAbove is the mean gray-level change a 3×3 median makes beyond which
// the page is grainy: on a clean page only glyph edges change (about 1–2).
const noisyAbove = 4

// minSkew is the smallest tilt (degrees) worth turning a page for.
const minSkew = 0.3

func toGray(src image.Image) *image.Gray {
	if g, ok := src.(*image.Gray); ok && g.Rect.Min == (image.Point{}) {
		return g
	}
	b := src.Bounds()
	g := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(g, g.Bounds(), whiteUnder{src}, b.Min, draw.Src)
	return g
}

// whiteUnder composes a transparent image over white, so transparent
// screenshots do not turn black.
type whiteUnder struct{ image.Image }

func (w whiteUnder) At(x, y int) color.Color {
	r, g, b, a := w.Image.At(x, y).RGBA()
	bg := 0xffff - a
	return color.RGBA64{uint16(r + bg), uint16(g + bg), uint16(b + bg), 0xffff}
}

// denoise is a 3×3 median filter.
func denoise(g *image.Gray) *image.Gray {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			out.Pix[y*out.Stride+x] = median3(g, x, y, w, h)
		}
	}
	return out
}

func median3(g *image.Gray, x, y, w, h int) uint8 {
	var win [9]uint8
	n := 0
	for dy := -1; dy <= 1; dy++ {
		row := g.Pix[min(max(y+dy, 0), h-1)*g.Stride:]
		for dx := -1; dx <= 1; dx++ {
			win[n] = row[min(max(x+dx, 0), w-1)]
			n++
		}
	}
	slices.Sort(win[:])
	return win[4]
}

// noiseLevel is the mean gray-level change a 3×3 median would make,
// sampled on every eighth row.
func noiseLevel(g *image.Gray) float64 {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	var sum, n int64
	for y := 0; y < h; y += 8 {
		row := g.Pix[y*g.Stride:]
		for x := range w {
			d := int64(row[x]) - int64(median3(g, x, y, w, h))
			if d < 0 {
				d = -d
			}
			sum += d
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return float64(sum) / float64(n)
}

// upscale resizes g by f with bilinear interpolation.
func upscale(g *image.Gray, f float64) *image.Gray {
	sw, sh := g.Bounds().Dx(), g.Bounds().Dy()
	w, h := int(float64(sw)*f), int(float64(sh)*f)
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		sy := (float64(y)+0.5)/f - 0.5
		y0 := min(max(int(sy), 0), sh-1)
		y1 := min(y0+1, sh-1)
		fy := max(0, sy-float64(y0))
		r0, r1 := g.Pix[y0*g.Stride:], g.Pix[y1*g.Stride:]
		for x := range w {
			sx := (float64(x)+0.5)/f - 0.5
			x0 := min(max(int(sx), 0), sw-1)
			x1 := min(x0+1, sw-1)
			fx := max(0, sx-float64(x0))
			top := float64(r0[x0])*(1-fx) + float64(r0[x1])*fx
			bot := float64(r1[x0])*(1-fx) + float64(r1[x1])*fx
			out.Pix[y*out.Stride+x] = uint8(top*(1-fy) + bot*fy + 0.5)
		}
	}
	return out
}

// skewAngle estimates a page's tilt in degrees (positive: text rises to
// the right... in image coordinates, y down) from the projection profile
// of its dark pixels: rows of text line up with the projection axis at the
// true angle, where the profile is most peaked. Tesseract follows tilted
// lines of Latin text well but merges neighbouring lines of Chinese ones
// once a line drifts by more than its spacing across the page.
func skewAngle(g *image.Gray) float64 {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	var xs, ys []float64
	step := 1
	for {
		xs, ys = xs[:0], ys[:0]
		for y := 0; y < h; y += step {
			row := g.Pix[y*g.Stride:]
			for x := 0; x < w; x += step {
				if row[x] < 128 {
					xs = append(xs, float64(x))
					ys = append(ys, float64(y))
				}
			}
		}
		if len(xs) < 400_000 || step > 8 {
			break
		}
		step *= 2
	}
	if len(xs) < 200 {
		return 0
	}
	score := func(deg float64) float64 {
		sin, cos := math.Sincos(deg * math.Pi / 180)
		bins := make([]float64, w+h+2)
		off := float64(w)
		for i := range xs {
			b := int(ys[i]*cos - xs[i]*sin + off)
			if b >= 0 && b < len(bins) {
				bins[b]++
			}
		}
		s := 0.0
		for _, v := range bins {
			s += v * v
		}
		return s
	}
	best, bestScore := 0.0, score(0)
	for _, span := range []struct{ from, to, by float64 }{{-5, 5, 0.5}, {-0.5, 0.5, 0.1}} {
		c := best
		for d := c + span.from; d <= c+span.to+1e-9; d += span.by {
			if s := score(d); s > bestScore {
				best, bestScore = d, s
			}
		}
	}
	return best
}

// rotate turns g by deg degrees about its centre (bilinear, white outside).
func rotate(g *image.Gray, deg float64) *image.Gray {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	sin, cos := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(w)/2, float64(h)/2
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 255
		}
		return float64(g.Pix[y*g.Stride+x])
	}
	for y := range h {
		for x := range w {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cos*dx-sin*dy+cx, sin*dx+cos*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}
