package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
)

// ocrOthers is testdata/ocr-others (its make.sh): real manual pages set
// by groff and Ghostscript or ImageMagick, not by this project's page
// generator, clean at 150 dpi and degraded at 300 dpi.
const ocrOthers = "testdata/ocr-others"

// TestOCRPagesByOthers holds pages drawn by other tools to the issue's
// character error rates: clean ≤ 2 % English and 3 % Chinese, noisy and
// skewed ≤ 6 % and 10 %. The English pages are manuals with headings in
// the left margin, which must come out in the order they are read.
func TestOCRPagesByOthers(t *testing.T) {
	needOCR(t)
	cases := []struct {
		file, truth string
		langs       []string
		maxCER      float64
	}{
		{"en-150.png", "en.txt", nil, 0.02},
		{"cat-150.png", "cat.txt", nil, 0.02},
		{"top-150.png", "top.txt", nil, 0.02},
		{"en-300-noisy.jpg", "en.txt", nil, 0.06},
		{"zh-150.png", "zh.txt", nil, 0.03},
		{"zh-300-noisy.jpg", "zh.txt", nil, 0.10},
		{"tw-150.png", "tw.txt", []string{"eng", "chi_tra"}, 0.03},
		{"tw-300-noisy.jpg", "tw.txt", []string{"eng", "chi_tra"}, 0.10},
	}
	var mu sync.Mutex
	rates := map[string]float64{}
	t.Run("pages", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.file, func(t *testing.T) {
				t.Parallel()
				if c.langs != nil && (OCR{Languages: c.langs}).Status().Missing != nil {
					t.Skip("the chi_tra model is missing (apt-get install -y tesseract-ocr-chi-tra)")
				}
				raw, err := os.ReadFile(filepath.Join(ocrOthers, c.file))
				if err != nil {
					t.Fatal(err)
				}
				truth, err := os.ReadFile(filepath.Join(ocrOthers, c.truth))
				if err != nil {
					t.Fatal(err)
				}
				res, err := Extract(context.Background(), c.file, raw, Limits{OCR: OCR{PageTimeout: 10 * time.Minute, Languages: c.langs}})
				if err != nil {
					t.Fatal(err)
				}
				r := cer(res.Text, string(truth))
				mu.Lock()
				rates[c.file] = r
				mu.Unlock()
				t.Logf("%-18s CER %5.2f%%", c.file, 100*r)
				if r > c.maxCER {
					t.Errorf("CER %.2f%% > %.0f%%; read:\n%s", 100*r, 100*c.maxCER, res.Text)
				}
				if strings.HasPrefix(c.truth, "zh") || strings.HasPrefix(c.truth, "tw") {
					latinLines(t, res.Text, string(truth))
				}
			})
		}
	})
	t.Logf("CER by page: %v", rates)
}

// latinLines fails a Chinese page's line that came out as Latin letters
// alone and shares no word with the truth: the Chinese line read as
// "MRL ERICSON MEH". A Latin word misread ("paSSWd") is not such a line.
func latinLines(t *testing.T, text, truth string) {
	t.Helper()
	known := map[string]bool{}
	for _, w := range latinWords(truth) {
		known[w] = true
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.IndexFunc(l, isCJK) >= 0 {
			continue
		}
		words := latinWords(l)
		noise := len(words) > 0
		for _, w := range words {
			noise = noise && !known[w]
		}
		if noise {
			t.Errorf("a line of a Chinese page read as Latin only: %q", l)
		}
	}
}

// latinWords are the runs of two or more Latin letters of s, lower-cased.
func latinWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.In(r, unicode.Latin) })
}

// Options read with em dashes become hyphens; dashes of prose stay.
func TestHyphenOptions(t *testing.T) {
	for in, want := range map[string]string{
		"—-create": "--create", "——update": "--update", "[—-file": "[--file", "{-—-extract|--get}": "{---extract|--get}",
		"—x": "-x", "—": "—", "well—known": "well—known", "1990—2000": "1990—2000", "—2": "—2",
	} {
		if got := hyphenOptions(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}
