package extract

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ledongthuc/pdf"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// The PDF benchmarks compare, in one run, PDFium (our engine where poppler
// is not installed), the engine it replaced (ledongthuc/pdf) and poppler's
// pdftotext, the reference:
// words/s and word recall per corpus file, a 40 MB merged PDF, and the
// engine's start-up per process. pdftotext and qpdf are Debian's
// poppler-utils and qpdf; without them those halves are skipped.

func BenchmarkPDFCorpus(b *testing.B) {
	for _, c := range pdfCases {
		if !c.golden {
			continue
		}
		raw, ref := readCorpus(b, c.file), golden(b, c.file)
		name := strings.TrimSuffix(c.file, ".pdf")
		b.Run(name+"/pdfium", func(b *testing.B) {
			benchEngine(b, ref, func() (string, error) {
				res, err := Extract(context.Background(), c.file, raw, Limits{PDFiumOnly: true})
				return res.Text, err
			})
		})
		b.Run(name+"/ledongthuc", func(b *testing.B) {
			benchEngine(b, ref, func() (string, error) { return ledongthucText(raw) })
		})
		b.Run(name+"/pdftotext", func(b *testing.B) {
			path := filepath.Join(pdfCorpus, c.file)
			benchEngine(b, ref, func() (string, error) { return pdftotext(b, path) })
		})
	}
	for _, path := range realPDFFiles(b) {
		raw, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		ref, name := realGolden(b, path), strings.TrimSuffix(filepath.Base(path), ".pdf")
		b.Run(name+"/pdfium", func(b *testing.B) {
			benchEngine(b, ref, func() (string, error) {
				res, err := Extract(context.Background(), name+".pdf", raw, Limits{PDFiumOnly: true})
				return res.Text, err
			})
		})
		b.Run(name+"/pdftotext", func(b *testing.B) {
			benchEngine(b, ref, func() (string, error) { return pdftotext(b, path) })
		})
	}
}

// BenchmarkPDFLarge reads a ~40 MB PDF merged by qpdf from distinct copies
// of the corpus's merged.pdf (so fonts are not shared, as in a real
// binder of papers).
func BenchmarkPDFLarge(b *testing.B) {
	if _, err := exec.LookPath("qpdf"); err != nil {
		b.Skip("qpdf not installed (apt-get install -y qpdf): no 40 MB PDF to read")
	}
	path := largePDF(b, 40<<20)
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	ref := ""
	if _, err := exec.LookPath("pdftotext"); err == nil {
		ref, _ = pdftotext(b, path)
	}
	b.Run("pdfium", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		benchEngine(b, ref, func() (string, error) {
			res, err := Extract(context.Background(), "large.pdf", raw, Limits{MaxTextBytes: 1 << 30, PDFiumOnly: true})
			return res.Text, err
		})
	})
	b.Run("pdftotext", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		benchEngine(b, ref, func() (string, error) { return pdftotext(b, path) })
	})
}

func largePDF(b *testing.B, size int) string {
	dir := b.TempDir()
	src := readCorpus(b, "merged.pdf")
	args := []string{"--empty", "--pages"}
	for i := 0; i*len(src) < size; i++ {
		p := filepath.Join(dir, fmt.Sprintf("part%d.pdf", i))
		if err := os.WriteFile(p, src, 0o600); err != nil {
			b.Fatal(err)
		}
		args = append(args, p)
	}
	out := filepath.Join(dir, "large.pdf")
	if msg, err := exec.Command("qpdf", append(args, "--", out)...).CombinedOutput(); err != nil {
		b.Fatalf("qpdf: %v: %s", err, msg)
	}
	return out
}

// benchEngine runs extract b.N times and reports words/s and, when there
// is a reference text, word recall against it.
func benchEngine(b *testing.B, ref string, extract func() (string, error)) {
	var text string
	var err error
	// Start-up is measured on its own (BenchmarkPDFStartup).
	if _, err := pdfPool(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if text, err = extract(); err != nil {
			b.Skip(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(wordCount(text))*float64(b.N)/b.Elapsed().Seconds(), "words/s")
	if ref != "" {
		b.ReportMetric(recall(ref, text), "recall")
	}
}

func pdftotext(b *testing.B, path string) (string, error) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		b.Skip("pdftotext not installed (apt-get install -y poppler-utils poppler-data): no reference figures")
	}
	var out bytes.Buffer
	cmd := exec.Command("pdftotext", "-enc", "UTF-8", path, "-")
	cmd.Stdout = &out
	err := cmd.Run()
	return out.String(), err
}

// ledongthucText is how the package read PDFs before PDFium, kept here
// only to measure it. It can loop forever on a malformed file, so it runs
// with a deadline (an abandoned goroutine is the price, in a benchmark).
func ledongthucText(raw []byte) (string, error) {
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("panic: %v", r)}
			}
		}()
		r, err := pdf.NewReader(bytes.NewReader(raw), int64(len(raw)))
		if err != nil {
			done <- result{err: err}
			return
		}
		var b strings.Builder
		fonts := map[string]*pdf.Font{}
		for i := 1; i <= r.NumPage(); i++ {
			p := r.Page(i)
			if p.V.IsNull() {
				continue
			}
			for _, name := range p.Fonts() {
				if _, ok := fonts[name]; !ok {
					f := p.Font(name)
					fonts[name] = &f
				}
			}
			if t, err := p.GetPlainText(fonts); err == nil {
				b.WriteString(t)
				b.WriteString("\n\n")
			}
		}
		done <- result{text: b.String()}
	}()
	select {
	case r := <-done:
		return r.text, r.err
	case <-time.After(20 * time.Second):
		return "", fmt.Errorf("ledongthuc/pdf did not finish in 20 s")
	}
}

// BenchmarkPDFStartup measures what each short-lived `knowspace extract`
// child pays before its first page: a fresh process that starts the
// engine and reads a one-page PDF, without a compilation cache and with a
// warm one (SetPDFCacheDir).
func BenchmarkPDFStartup(b *testing.B) {
	warm := b.TempDir()
	runChild(b, warm) // fills the cache
	for _, c := range []struct{ name, dir string }{{"no-cache", "-"}, {"cached", warm}} {
		b.Run(c.name, func(b *testing.B) {
			var engine, cpu time.Duration
			for range b.N {
				e, c := runChild(b, c.dir)
				engine, cpu = engine+e, cpu+c
			}
			b.ReportMetric(float64(engine.Milliseconds())/float64(b.N), "engine-ms/op")
			// CPU time is the figure that holds on a busy machine.
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
		})
	}
}

// runChild runs TestPDFStartupChild in a new process and returns the
// engine start-up it reports and the CPU time of the whole process.
func runChild(b *testing.B, cacheDir string) (time.Duration, time.Duration) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestPDFStartupChild$", "-test.v")
	cmd.Env = append(os.Environ(), "KNOWSPACE_PDF_STARTUP_CHILD="+cacheDir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v: %s", err, out)
	}
	_, after, ok := strings.Cut(string(out), "engine-startup=")
	d, err := time.ParseDuration(strings.Fields(after + " ")[0])
	if !ok || err != nil {
		b.Fatalf("child said %s", out)
	}
	return d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// TestPDFStartupChild is BenchmarkPDFStartup's child process.
func TestPDFStartupChild(t *testing.T) {
	dir, ok := os.LookupEnv("KNOWSPACE_PDF_STARTUP_CHILD")
	if !ok {
		t.Skip("run by BenchmarkPDFStartup")
	}
	SetPDFCacheDir(strings.TrimPrefix(dir, "-"))
	res, err := Extract(context.Background(), "a.pdf", extracttest.MinimalPDF("Hello startup"), Limits{PDFiumOnly: true})
	if err != nil || !strings.Contains(res.Text, "Hello startup") {
		t.Fatalf("%q %v", res.Text, err)
	}
	fmt.Printf("engine-startup=%v\n", PDFEngineStartup())
}
