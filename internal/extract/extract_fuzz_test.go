package extract

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// FuzzExtract feeds arbitrary bytes, under every name the package knows,
// to the whole Extract entry point: it must end (within its deadline)
// with text or a classified *Error whose message is safe to store, never
// a panic or a hang. Seeded with the PDF corpus and the other formats'
// minimal files.
func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(pdfCorpus, "*.pdf"))
	for _, p := range files {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(raw) < 64<<10 { // large seeds make every mutation slow
			f.Add("corpus.pdf", raw)
		}
	}
	f.Add("a.pdf", extracttest.MinimalPDF("Hello fuzz"))
	f.Add("a.docx", minimalDOCX("Hello fuzz"))
	f.Add("a.txt", []byte("hello fuzz"))
	f.Fuzz(func(t *testing.T, name string, raw []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		res, err := Extract(ctx, name, raw, Limits{MaxTextBytes: 1 << 20})
		if d := time.Since(start); d > 11*time.Second {
			t.Fatalf("took %v", d)
		}
		if err != nil {
			var e *Error
			if errors.Is(err, context.DeadlineExceeded) {
				return // the deadline did its job
			}
			if !errors.As(err, &e) || e.Code == "" {
				t.Fatalf("unclassified error %T %v", err, err)
			}
			if !utf8.ValidString(e.Message) || utf8.RuneCountInString(e.Message) > maxMessageChars {
				t.Fatalf("unsafe message %q", e.Message)
			}
			return
		}
		if !utf8.ValidString(res.Text) || strings.TrimSpace(res.Text) == "" || len(res.Text) > 1<<20 {
			t.Fatalf("bad text: valid %v, %d bytes", utf8.ValidString(res.Text), len(res.Text))
		}
		for _, pe := range res.PageErrors {
			if pe.Page < 1 || pe.Page > res.Pages {
				t.Fatalf("page error %d outside 1..%d", pe.Page, res.Pages)
			}
		}
	})
}
