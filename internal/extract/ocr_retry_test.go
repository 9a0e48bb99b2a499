package extract

import (
	"image"
	"testing"
)

// A CJK page's line read as Latin gives way to the CJK model's reading
// where that one is surer: word by word when a word is weak, whole when
// the line holds no CJK at all.
func TestMergeRetry(t *testing.T) {
	w := func(text string, conf float64, x int) ocrWord {
		return ocrWord{text: text, conf: conf, box: image.Rect(x, 0, x+90, 30)}
	}
	line := func(words ...ocrWord) ocrLine { return ocrLine{words: words} }
	cases := []struct {
		name  string
		first ocrLine
		again []ocrWord
		want  string
	}{
		{"weak word", line(w("搜索", 96, 0), w("ARP", 40, 100)), []ocrWord{w("搜索", 95, 0), w("路径", 90, 100)}, "搜索 路径"},
		{"confident word kept", line(w("搜索", 96, 0), w("manpath", 91, 100)), []ocrWord{w("搜索", 95, 0), w("丽", 50, 100)}, "搜索 manpath"},
		{"Latin line read surer as CJK", line(w("ERT", 78, 0)), []ocrWord{w("它会将", 90, 0)}, "它会将"},
		{"Latin line read as Latin again", line(w("MANPATH_MAP", 86, 0)), []ocrWord{w("MANPATH_MAP", 85, 0)}, "MANPATH_MAP"},
		{"Latin line read less surely as CJK", line(w("cat", 96, 0)), []ocrWord{w("猫", 60, 0)}, "cat"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := lineTexts([]ocrLine{mergeRetry(c.first, c.again, image.Point{})}); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
