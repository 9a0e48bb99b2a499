package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzFormats calls the extractors of this package directly, without
// Extract's recover, so a panic on hostile input fails the fuzz run: every
// input ends with text or an *Error, and the text is valid UTF-8 within
// the limit.
func FuzzFormats(f *testing.F) {
	files, _ := filepath.Glob("testdata/docs/*")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Ext(name), b)
	}
	f.Add(".rtf", []byte(`{\rtf1\ansi\ansicpg932 \'82\'a0\u-10179?\u-8704?{\*\footnote x}}`))
	lim := Limits{MaxTextBytes: 4096, MaxInflateBytes: 8 << 20}.withDefaults()
	f.Fuzz(func(t *testing.T, ext string, raw []byte) {
		fn := formats[strings.ToLower(ext)]
		if fn == nil || ext == ".pdf" {
			return
		}
		res, err := fn(context.Background(), raw, lim)
		var e *Error
		switch {
		case err != nil && !errors.As(err, &e):
			t.Fatalf("%s: unclassified error %v", ext, err)
		case err == nil && len(res.Text) > lim.MaxTextBytes:
			t.Fatalf("%s: %d bytes of text", ext, len(res.Text))
		case err == nil && ext != ".rtf" && !utf8.ValidString(res.Text):
			t.Fatalf("%s: invalid UTF-8", ext)
		}
	})
}
