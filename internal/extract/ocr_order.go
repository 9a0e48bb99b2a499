package extract

import (
	"image"
	"math"
	"sort"
)

// Tesseract's page segmentation takes the headings of a page set with
// them in its left margin (a manual's "NAME", "SYNOPSIS"; a running head
// or foot split in two) for a column of their own, and lists them apart
// from the body lines they stand beside or above: tar(1)'s "NOTE" came out
// a page above its paragraph. On a page of one column, lines are read top
// to bottom, and lines sharing a row left to right, each block's lines
// in Tesseract's order; a narrow block beside a much wider one (a note in
// the margin) stays whole, placed where its first line stands. A page
// with columns — blocks side by side of like
// width, sharing rows over two lines or more — keeps Tesseract's order,
// which takes a column before the next.
const (
	// marginRatio is how many times wider than a block beside it a block
	// must be for the narrow one to be a margin's, not a column.
	marginRatio = 3
	// columnRows is how many lines of each of two blocks side by side make
	// them columns.
	columnRows = 2
)

// orderBlock is the lines of one Tesseract block, as items to place in
// its order, and its box.
type orderBlock struct {
	items []orderItem
	box   image.Rectangle
}

// orderItem is what is placed: one line, or a margin block whole; box is
// its first line's, turned level.
type orderItem struct {
	lines []ocrLine
	box   image.Rectangle
}

// readingOrder returns lines in the order they are read (see above). The
// boxes are turned level first: Tesseract follows a tilted page's lines
// but reports them in its tilted boxes, where a line's top is its
// neighbour's row at the other end.
func readingOrder(lines []ocrLine) []ocrLine {
	if len(lines) < 2 || !uprightLeftToRight(lines) {
		return lines
	}
	blocks := orderBlocks(lines, tilt(lines))
	if hasColumns(blocks) {
		return lines
	}
	for i := range blocks {
		if b := &blocks[i]; len(b.items) > 1 && inMargin(blocks, i) {
			whole := orderItem{box: b.items[0].box}
			for _, it := range b.items {
				whole.lines = append(whole.lines, it.lines...)
			}
			b.items = []orderItem{whole}
		}
	}
	// Each block's lines keep Tesseract's order; the next line read is the
	// first, by row and then from the left, of the blocks' next lines.
	out := make([]ocrLine, 0, len(lines))
	for {
		next := -1
		for i, b := range blocks {
			if len(b.items) > 0 && (next < 0 || before(b.items[0].box, blocks[next].items[0].box)) {
				next = i
			}
		}
		if next < 0 {
			return out
		}
		out = append(out, blocks[next].items[0].lines...)
		blocks[next].items = blocks[next].items[1:]
	}
}

// before is a line box read before another: a row above it, or in the
// same row and to its left.
func before(a, b image.Rectangle) bool {
	if sameRow(a, b) {
		return a.Min.X < b.Min.X
	}
	return a.Min.Y < b.Min.Y
}

// uprightLeftToRight is a page whose boxes read as they lie: lines wider
// than tall and words going right. Tesseract reports a page it turned
// upright (a quarter or half turn) in the boxes of the image as scanned,
// where its own order is the only one known; a right-to-left script's
// order is its own too.
func uprightLeftToRight(lines []ocrLine) bool {
	wide, tall, right, left := 0, 0, 0, 0
	for _, l := range lines {
		b := lineBox(l)
		wide += b.Dx()
		tall += b.Dy()
		for k := 1; k < len(l.words); k++ {
			if l.words[k].box.Min.X > l.words[k-1].box.Min.X {
				right++
			} else {
				left++
			}
		}
	}
	return wide > tall && right > 0 && left*10 <= right
}

// orderBlocks groups lines by their block, in Tesseract's order, with
// their boxes turned level by the page's tilt.
func orderBlocks(lines []ocrLine, tilt float64) []orderBlock {
	var blocks []orderBlock
	at := map[int]int{}
	for _, l := range lines {
		k, ok := at[l.block]
		if !ok {
			k = len(blocks)
			at[l.block] = k
			blocks = append(blocks, orderBlock{})
		}
		box := levelBox(l, tilt)
		blocks[k].items = append(blocks[k].items, orderItem{lines: []ocrLine{l}, box: box})
		blocks[k].box = blocks[k].box.Union(box)
	}
	return blocks
}

// tilt is the page's lines' slope (down per pixel across): the median of
// its long lines' slopes, each fitted through its words' middles.
func tilt(lines []ocrLine) float64 {
	var slopes []float64
	for _, l := range lines {
		if len(l.words) < 3 {
			continue
		}
		var n, sx, sy, sxx, sxy float64
		for _, w := range l.words {
			x, y := float64(w.box.Min.X+w.box.Max.X)/2, float64(w.box.Min.Y+w.box.Max.Y)/2
			n++
			sx += x
			sy += y
			sxx += x * x
			sxy += x * y
		}
		if d := n*sxx - sx*sx; d > 0 {
			slopes = append(slopes, (n*sxy-sx*sy)/d)
		}
	}
	if len(slopes) == 0 {
		return 0
	}
	sort.Float64s(slopes)
	return slopes[len(slopes)/2]
}

// levelBox is l's box with each word moved as the page turned level by
// tilt would move it.
func levelBox(l ocrLine, tilt float64) image.Rectangle {
	var box image.Rectangle
	for _, w := range l.words {
		x, y := float64(w.box.Min.X+w.box.Max.X)/2, float64(w.box.Min.Y+w.box.Max.Y)/2
		box = box.Union(w.box.Add(image.Pt(int(math.Round(tilt*y)), int(math.Round(-tilt*x)))))
	}
	return box
}

// hasColumns is a page with two blocks side by side, neither in the
// other's margin, each with columnRows lines or more beside the other.
func hasColumns(blocks []orderBlock) bool {
	for i, a := range blocks {
		for _, b := range blocks[i+1:] {
			if !sideBySide(a.box, b.box) {
				continue
			}
			narrow, wide := min(a.box.Dx(), b.box.Dx()), max(a.box.Dx(), b.box.Dx())
			if narrow*marginRatio >= wide && linesBeside(a, b.box) >= columnRows && linesBeside(b, a.box) >= columnRows {
				return true
			}
		}
	}
	return false
}

// inMargin is block i beside a block marginRatio times wider or more.
func inMargin(blocks []orderBlock, i int) bool {
	a := blocks[i].box
	for k, b := range blocks {
		if k != i && sideBySide(a, b.box) && a.Dx()*marginRatio < b.box.Dx() {
			return true
		}
	}
	return false
}

// sideBySide is two boxes apart across and sharing some height.
func sideBySide(a, b image.Rectangle) bool {
	apart := a.Max.X <= b.Min.X || b.Max.X <= a.Min.X
	return apart && a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y
}

// linesBeside counts the lines of b whose middle is within r's height.
func linesBeside(b orderBlock, r image.Rectangle) int {
	n := 0
	for _, it := range b.items {
		if mid := (it.box.Min.Y + it.box.Max.Y) / 2; mid >= r.Min.Y && mid < r.Max.Y {
			n++
		}
	}
	return n
}

// sameRow is two line boxes sharing half the height of the shorter one.
func sameRow(a, b image.Rectangle) bool {
	shared := min(a.Max.Y, b.Max.Y) - max(a.Min.Y, b.Min.Y)
	return shared*2 >= min(a.Dy(), b.Dy())
}

func lineBox(l ocrLine) image.Rectangle {
	var box image.Rectangle
	for _, w := range l.words {
		box = box.Union(w.box)
	}
	return box
}
