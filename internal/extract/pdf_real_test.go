package extract

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// realPDFs is testdata/pdf-real: documents from Debian's packages, some
// through Ghostscript, built by its make.sh; golden/ is pdftotext's text.
const realPDFs = "testdata/pdf-real"

func realPDFFiles(tb testing.TB) []string {
	files, err := filepath.Glob(filepath.Join(realPDFs, "*.pdf"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no real PDFs in %s: %v", realPDFs, err)
	}
	return files
}

func realGolden(tb testing.TB, file string) string {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join(realPDFs, "golden", strings.TrimSuffix(filepath.Base(file), ".pdf")+".txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(raw)
}

// Every real document reads with pdftotext's words, those whose producer
// sets words apart by moving the pen (groff through Ghostscript) too.
func TestPDFRealDocuments(t *testing.T) {
	for engine, lim := range pdfEngines() {
		for _, f := range realPDFFiles(t) {
			t.Run(engine+"/"+filepath.Base(f), func(t *testing.T) {
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				res, err := Extract(context.Background(), filepath.Base(f), raw, lim)
				if err != nil {
					t.Fatal(err)
				}
				if r := recall(realGolden(t, f), res.Text); r < minRecall {
					t.Errorf("word recall against pdftotext %.4f; want ≥ %.2f", r, minRecall)
				}
			})
		}
	}
}

// The words a justified groff line sets apart without a space glyph are
// apart in PDFium's text, and the letters it split at a kerning are
// together.
func TestPDFSpacesFromGlyphPositions(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(realPDFs, "groff-ghostscript-tar.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Extract(context.Background(), "tar.pdf", raw, Limits{PDFiumOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(res.Text), " ")
	for _, s := range []string{"they specify the names", "two fields", "for example, if a com", "pattern"} {
		if !strings.Contains(text, s) {
			t.Errorf("text lacks %q", s)
		}
	}
	for _, s := range []string{"theyspecify", "twofields", "forexample", "pa ttern"} {
		if strings.Contains(strings.ToLower(text), s) {
			t.Errorf("text has %q", s)
		}
	}
}
