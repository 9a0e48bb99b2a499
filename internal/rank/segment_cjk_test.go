package rank

import (
	"testing"
	"unicode"
)

// TestFirstCJK: no rune below firstCJK belongs to the scripts isCJK
// names, and the one at it does, so the shortcut changes no answer.
func TestFirstCJK(t *testing.T) {
	for r := rune(0); r < firstCJK; r++ {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			t.Fatalf("%U is CJK but below firstCJK", r)
		}
	}
	if !isCJK(firstCJK) || !isCJK('全') || !isCJK('ア') || isCJK('a') {
		t.Fatal("isCJK answers wrong")
	}
}
