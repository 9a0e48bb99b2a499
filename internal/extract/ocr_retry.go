package extract

import (
	"context"
	"image"
	"regexp"
	"strings"
)

// Tesseract given "eng+chi_sim" sometimes reads a stretch of a Chinese
// page as Latin letters ("添加至搜索路径。" as "ARP RE."), mostly where a
// Latin word comes first; the Chinese model alone reads the same line
// right, Latin words included. So on a page that is Chinese (or Japanese),
// a line with a Latin word below latinNoiseConf is read again, cropped, by
// the CJK models alone; each weak word of the first reading gives way to
// the CJK words of the second that lie over it, and confident words (a
// path, a command) stay as first read. A line with no CJK character at
// all is read again too, and gives way whole when the CJK models read it
// as CJK more surely: "它会将" came out as "ERT" at confidence 78.
const (
	latinNoiseConf = 65
	// cjkPageRunes is how many CJK characters make a page one whose Latin
	// lines are suspect.
	cjkPageRunes = 20
	// maxRetriedLines bounds the extra Tesseract runs of one page.
	maxRetriedLines = 24
	linePad         = 8
)

func (r *ocrReader) retryLatinLines(ctx context.Context, img *image.Gray, dpi int, lines []ocrLine) ([]ocrLine, error) {
	cjk := cjkLanguages(r.o.Languages)
	if len(cjk) == 0 || cjk[0] == strings.Join(r.o.Languages, "+") || cjkRunes(lines) < cjkPageRunes {
		return lines, nil
	}
	retried := 0
	for i, l := range lines {
		if !latinNoise(l) && !latinOnly(l) || retried == maxRetriedLines {
			continue
		}
		retried++
		box := image.Rectangle{}
		for _, w := range l.words {
			box = box.Union(w.box)
		}
		box = box.Inset(-linePad).Intersect(img.Bounds())
		if box.Empty() {
			continue
		}
		again, err := r.runTesseract(ctx, img.SubImage(box).(*image.Gray), dpi, cjk, "7")
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			continue // the first reading stands
		}
		var words []ocrWord
		for _, a := range again {
			words = append(words, a.words...)
		}
		lines[i] = mergeRetry(l, words, box.Min)
	}
	return lines, nil
}

// cjkLanguages are the Chinese, Japanese and Korean models of langs, as
// one Tesseract language argument.
func cjkLanguages(langs []string) []string {
	var out []string
	for _, l := range langs {
		if strings.HasPrefix(l, "chi_") || strings.HasPrefix(l, "jpn") || strings.HasPrefix(l, "kor") {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []string{strings.Join(out, "+")}
}

func cjkRunes(lines []ocrLine) int {
	n := 0
	for _, l := range lines {
		for _, w := range l.words {
			for _, r := range w.text {
				if isCJK(r) {
					n++
				}
			}
		}
	}
	return n
}

// latinNoise is a line with a word read weakly as Latin: a whole line of
// noise, or a stretch of one that was read right around it.
func latinNoise(l ocrLine) bool {
	for _, w := range l.words {
		if w.conf < latinNoiseConf && strings.IndexFunc(w.text, isCJK) < 0 {
			return true
		}
	}
	return false
}

// latinOnly is a line without a CJK character: on a CJK page, a line of
// Chinese read as Latin with some confidence ("它会将" as "ERT", 78) is one.
func latinOnly(l ocrLine) bool { return cjkRunes([]ocrLine{l}) == 0 }

// meanConf is the mean confidence of words.
func meanConf(words []ocrWord) float64 {
	if len(words) == 0 {
		return 0
	}
	sum := 0.0
	for _, w := range words {
		sum += w.conf
	}
	return sum / float64(len(words))
}

// mergeRetry replaces each weak word of l by the words of again (read
// from a crop at origin at) that overlap it most, when those hold a CJK
// character.
func mergeRetry(l ocrLine, again []ocrWord, at image.Point) ocrLine {
	if latinOnly(l) && cjkRunes([]ocrLine{{words: again}}) > 0 && meanConf(again) > meanConf(l.words) {
		// A whole line read as Chinese more surely than as Latin.
		for i := range again {
			again[i].box = again[i].box.Add(at)
		}
		l.words = again
		return l
	}
	over := make([][]ocrWord, len(l.words))
	for _, w := range again {
		w.box = w.box.Add(at)
		best, most := -1, 0
		for k, o := range l.words {
			if n := min(w.box.Max.X, o.box.Max.X) - max(w.box.Min.X, o.box.Min.X); n > most {
				best, most = k, n
			}
		}
		if best >= 0 {
			over[best] = append(over[best], w)
		}
	}
	var words []ocrWord
	for k, o := range l.words {
		if o.conf < latinNoiseConf && cjkRunes([]ocrLine{{words: over[k]}}) > 0 {
			words = append(words, over[k]...)
		} else {
			words = append(words, o)
		}
	}
	l.words = words
	return l
}

// optionDashes is a run of dashes that opens a word (or follows an
// opening bracket or a bar) and is followed by a Latin letter: a
// command-line option, which Tesseract reads with em dashes ("—-create",
// "——update", "[—-file"). Prose sets its dashes between words.
var optionDashes = regexp.MustCompile(`(^|[\[{(|])([-–—]+)([A-Za-z])`)

// hyphenOptions writes the dashes of options in w as hyphens.
func hyphenOptions(w string) string {
	if !strings.ContainsAny(w, "–—") {
		return w
	}
	return optionDashes.ReplaceAllStringFunc(w, func(m string) string {
		return strings.NewReplacer("–", "-", "—", "-").Replace(m)
	})
}
