package extract

import (
	"context"
	"image"
	"image/color"
	"image/draw"
	"math"
)

// preprocess turns a page image into what Tesseract reads best: 8-bit
// gray, speckle and grain removed when the scan is noisy, and scaled to
// about 300 dpi when it is coarser. It returns the image with its new dpi
// (0 when unknown). Binarization and small skews Tesseract handles itself
// (Otsu), and pages turned by quarter turns its orientation detection;
// small skews are straightened here.
//
// Each stage takes a while on a large page: ctx ending between two stops
// it, so a page in flight when the document's budget runs out ends too.
func preprocess(ctx context.Context, src image.Image, dpi int) (*image.Gray, int, error) {
	g := toGray(src)
	if ctx.Err() != nil {
		return nil, 0, ctx.Err()
	}
	if noiseLevel(g) > noisyAbove {
		g = denoise(g)
	}
	if ctx.Err() != nil {
		return nil, 0, ctx.Err()
	}
	if a := skewAngle(g); math.Abs(a) >= minSkew {
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
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
		if ctx.Err() != nil {
			return nil, 0, ctx.Err()
		}
		g = upscale(g, f)
		if dpi > 0 {
			dpi = int(float64(dpi)*f + 0.5)
		}
	}
	return g, dpi, nil
}

// noisyAbove is the mean gray-level change a 3×3 median makes beyond which
// the page is grainy: on a clean page only glyph edges change (about 1–2).
const noisyAbove = 4

// noiseClamp is the most one pixel's change counts in noiseLevel.
const noiseClamp = 16

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
	var m medianRows
	for y := range h {
		m.row(g, y, out.Pix[y*out.Stride:y*out.Stride+w])
	}
	return out
}

// medianRows computes 3×3 medians a row at a time: each column of three
// is sorted once into lo, mid and hi, and a window's median is the median
// of the largest lo, the middle mid and the smallest hi of its columns.
type medianRows struct{ lo, mid, hi []uint8 }

func (m *medianRows) row(g *image.Gray, y int, out []uint8) {
	w, h := len(out), g.Bounds().Dy()
	if cap(m.lo) < w {
		m.lo, m.mid, m.hi = make([]uint8, w), make([]uint8, w), make([]uint8, w)
	}
	lo, mid, hi := m.lo[:w], m.mid[:w], m.hi[:w]
	r0 := g.Pix[max(y-1, 0)*g.Stride:][:w]
	r1 := g.Pix[y*g.Stride:][:w]
	r2 := g.Pix[min(y+1, h-1)*g.Stride:][:w]
	for x := range w {
		a, b, c := r0[x], r1[x], r2[x]
		a, b = min(a, b), max(a, b)
		b, c = min(b, c), max(b, c)
		a, b = min(a, b), max(a, b)
		lo[x], mid[x], hi[x] = a, b, c
	}
	for x := range w {
		l, r := max(x-1, 0), min(x+1, w-1)
		out[x] = med3(max(lo[l], lo[x], lo[r]), med3(mid[l], mid[x], mid[r]), min(hi[l], hi[x], hi[r]))
	}
}

func med3(a, b, c uint8) uint8 { return max(min(a, b), min(max(a, b), c)) }

// noiseLevel is the mean gray-level change a 3×3 median would make,
// sampled on every eighth row, each change counted up to noiseClamp. Grain
// changes most pixels a little; the thin strokes of small Chinese type at
// 150 dpi, which the median would erase, change few pixels a lot, and
// unclamped they made a clean page look grainy.
func noiseLevel(g *image.Gray) float64 {
	w, h := g.Bounds().Dx(), g.Bounds().Dy()
	var m medianRows
	med := make([]uint8, w)
	var sum, n int64
	for y := 0; y < h; y += 8 {
		m.row(g, y, med)
		row := g.Pix[y*g.Stride:][:w]
		for x := range w {
			d := int64(row[x]) - int64(med[x])
			if d < 0 {
				d = -d
			}
			sum += min(d, noiseClamp)
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
		if len(xs) < 100_000 || step > 8 {
			break
		}
		step *= 2
	}
	if len(xs) < 200 {
		return 0
	}
	// A bin is as tall as the sampling step: one pixel tall, the rows
	// sampled level would fill every step-th bin and those not between,
	// and no tilt could score as high as none.
	bin := float64(step)
	score := func(deg float64) float64 {
		sin, cos := math.Sincos(deg * math.Pi / 180)
		bins := make([]float64, (w+h)/step+2)
		off := float64(w)
		for i := range xs {
			b := int((ys[i]*cos - xs[i]*sin + off) / bin)
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
	for y := range h {
		o := out.Pix[y*out.Stride : y*out.Stride+w]
		dy := float64(y) - cy
		for x := range w {
			dx := float64(x) - cx
			sx, sy := cos*dx-sin*dy+cx, sin*dx+cos*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			if x0 < 0 || y0 < 0 || x0+1 >= w || y0+1 >= h {
				o[x] = 255 // the corners turned in from outside the page
				continue
			}
			fx, fy := sx-float64(x0), sy-float64(y0)
			r0, r1 := g.Pix[y0*g.Stride+x0:], g.Pix[(y0+1)*g.Stride+x0:]
			v := float64(r0[0])*(1-fx)*(1-fy) + float64(r0[1])*fx*(1-fy) + float64(r1[0])*(1-fx)*fy + float64(r1[1])*fx*fy
			o[x] = uint8(v + 0.5)
		}
	}
	return out
}
