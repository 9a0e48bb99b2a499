package searchcorpus

import (
	"math/rand/v2"
	"unicode"
	"unicode/utf8"
)

// Languages of a file: most files are one language, some mix paragraphs
// of both and put English words inside Chinese sentences.
const (
	langEnglish = iota
	langChinese
	langMixed
)

// textWriter writes prose-like text: words drawn with Zipf frequencies,
// sentences, paragraphs and, now and then, a Markdown heading.
type textWriter struct {
	rng    *rand.Rand
	v      *vocabulary
	en, zh *rand.Zipf
	buf    []byte
	plants []plant
	size   int
}

func newTextWriter(rng *rand.Rand, v *vocabulary) *textWriter {
	return &textWriter{
		rng: rng, v: v,
		en: rand.NewZipf(rng, 1.1, 1, uint64(len(v.english)-1)),
		zh: rand.NewZipf(rng, 1.1, 1, uint64(len(v.chinese)-1)),
	}
}

// file returns about size bytes of text with every plant in it once.
func (w *textWriter) file(size int, plants []plant) []byte {
	w.buf = make([]byte, 0, size+512)
	w.plants, w.size = plants, size
	lang := langEnglish
	switch r := w.rng.IntN(20); {
	case r >= 16:
		lang = langMixed
	case r >= 9:
		lang = langChinese
	}
	for len(w.buf) < size {
		l := lang
		if l == langMixed {
			l = w.rng.IntN(2)
		}
		if w.rng.IntN(headingEvery) == 0 {
			w.heading(l)
		}
		if l == langChinese {
			w.chineseParagraph(lang == langMixed)
		} else {
			w.englishParagraph()
		}
	}
	for _, p := range w.plants { // the rest sit past the end of the text
		w.buf = append(w.buf, p.text...)
		w.buf = append(w.buf, '\n')
	}
	return w.buf
}

// plantDue writes the next plant when the text has reached its place.
func (w *textWriter) plantDue(sep string) {
	if len(w.plants) > 0 && float64(len(w.buf)) >= w.plants[0].at*float64(w.size) {
		w.buf = append(w.buf, w.plants[0].text...)
		w.buf = append(w.buf, sep...)
		w.plants = w.plants[1:]
	}
}

func (w *textWriter) heading(lang int) {
	w.buf = append(w.buf, "## "...)
	for i := range 2 + w.rng.IntN(3) {
		if lang == langChinese {
			w.buf = append(w.buf, w.v.chinese[w.zh.Uint64()]...)
			continue
		}
		if i > 0 {
			w.buf = append(w.buf, ' ')
		}
		w.appendTitle(w.v.english[w.en.Uint64()])
	}
	w.buf = append(w.buf, "\n\n"...)
}

func (w *textWriter) englishParagraph() {
	for range 2 + w.rng.IntN(5) {
		n := 5 + w.rng.IntN(14)
		for i := range n {
			w.plantDue(" ")
			word := w.v.english[w.en.Uint64()]
			if i == 0 {
				w.appendTitle(word)
			} else {
				w.buf = append(w.buf, word...)
			}
			switch {
			case i == n-1:
				w.buf = append(w.buf, '.')
			case w.rng.IntN(12) == 0:
				w.buf = append(w.buf, ", "...)
			default:
				w.buf = append(w.buf, ' ')
			}
		}
		if w.rng.IntN(5) < 2 {
			w.buf = append(w.buf, '\n')
		} else {
			w.buf = append(w.buf, ' ')
		}
	}
	w.buf = append(w.buf, "\n\n"...)
}

func (w *textWriter) chineseParagraph(mixed bool) {
	for range 2 + w.rng.IntN(4) {
		n := 6 + w.rng.IntN(20)
		for i := range n {
			w.plantDue("")
			if mixed && w.rng.IntN(20) == 0 {
				w.buf = append(w.buf, ' ')
				w.buf = append(w.buf, w.v.english[w.en.Uint64()]...)
				w.buf = append(w.buf, ' ')
			} else {
				w.buf = append(w.buf, w.v.chinese[w.zh.Uint64()]...)
			}
			if i < n-1 && w.rng.IntN(10) == 0 {
				w.buf = append(w.buf, "，"...)
			}
		}
		w.buf = append(w.buf, "。"...)
		if w.rng.IntN(2) == 0 {
			w.buf = append(w.buf, '\n')
		}
	}
	w.buf = append(w.buf, "\n\n"...)
}

// appendTitle appends word with its first letter upper-cased.
func (w *textWriter) appendTitle(word string) {
	r, size := utf8.DecodeRuneInString(word)
	w.buf = utf8.AppendRune(w.buf, unicode.ToUpper(r))
	w.buf = append(w.buf, word[size:]...)
}
