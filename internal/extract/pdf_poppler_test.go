package extract

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// needPdftotext skips a test of the poppler engine where poppler-utils is
// not installed; PDFium's tests run everywhere.
func needPdftotext(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not installed (apt-get install -y poppler-utils poppler-data): the poppler text engine is not tested")
	}
	return bin
}

// pageList is the pages a Result has text on, in order.
func pageList(res Result) []int {
	var out []int
	for _, ps := range res.PageStarts {
		out = append(out, ps.Page)
	}
	return out
}

// With poppler installed every text PDF of both corpora is read by
// pdftotext, with PDFium's pages, page starts and recall.
func TestPDFTextByPdftotext(t *testing.T) {
	needPdftotext(t)
	files := realPDFFiles(t)
	for _, c := range pdfCases {
		if c.golden {
			files = append(files, filepath.Join(pdfCorpus, c.file))
		}
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Extract(context.Background(), filepath.Base(f), raw, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.Extractor, "pdftotext") || res.Format != "pdf" {
				t.Fatalf("extractor %q format %q; want pdftotext's, pdf", res.Extractor, res.Format)
			}
			ref, err := Extract(context.Background(), filepath.Base(f), raw, Limits{PDFiumOnly: true})
			if err != nil || ref.Extractor != PDFExtractor {
				t.Fatalf("PDFium: %q, %v", ref.Extractor, err)
			}
			if res.Pages != ref.Pages || !slices.Equal(pageList(res), pageList(ref)) {
				t.Errorf("pages %d %v; PDFium %d %v", res.Pages, pageList(res), ref.Pages, pageList(ref))
			}
			want := realGoldenOrCorpus(t, f)
			if r := recall(want, res.Text); r < minRecall {
				t.Errorf("word recall against pdftotext %.4f; want ≥ %.2f", r, minRecall)
			}
			if r := recall(ref.Text, res.Text); r < minRecall {
				t.Errorf("word recall against PDFium's text %.4f; want ≥ %.2f", r, minRecall)
			}
			for k, ps := range res.PageStarts {
				if k > 0 && ps.Offset <= res.PageStarts[k-1].Offset || int(ps.Offset) > len([]rune(res.Text)) {
					t.Fatalf("page start %d at %d out of order or past the text", ps.Page, ps.Offset)
				}
			}
			if strings.ContainsAny(res.Text, "\f\r") {
				t.Error("text keeps form feeds or carriage returns")
			}
		})
	}
}

func realGoldenOrCorpus(t *testing.T, f string) string {
	if filepath.Dir(f) == realPDFs {
		return realGolden(t, f)
	}
	return golden(t, filepath.Base(f))
}

// The Chinese text of a font that is not embedded (STSong-Light, a CID
// font every reader is expected to have) comes out of pdftotext too.
func TestPdftotextReadsCIDFont(t *testing.T) {
	needPdftotext(t)
	res, err := Extract(context.Background(), "cjk.pdf", readCorpus(t, "reportlab-cjk-cid.pdf"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Extractor, "pdftotext") || !strings.Contains(res.Text, "知识工作区使用指南") {
		t.Fatalf("extractor %q text %q", res.Extractor, res.Text)
	}
}

// Without poppler on the PATH (the child gets the parent's resolution),
// PDFium reads the text, in process and in the extraction child.
func TestPDFWithoutPopplerUsesPDFium(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	raw := readCorpus(t, "merged.pdf")
	for _, run := range []struct {
		name string
		f    func() (Result, error)
	}{
		{"in process", func() (Result, error) { return Extract(context.Background(), "m.pdf", raw, Limits{}) }},
		{"isolated", func() (Result, error) { return testIsolation().Run(context.Background(), "m.pdf", raw) }},
	} {
		res, err := run.f()
		if err != nil || res.Extractor != PDFExtractor || res.Pages != 6 {
			t.Errorf("%s: extractor %q pages %d, %v; want PDFium's 6 pages", run.name, res.Extractor, res.Pages, err)
		}
	}
}

// The extraction child reads with pdftotext when the parent found it.
func TestIsolatedPDFByPdftotext(t *testing.T) {
	needPdftotext(t)
	res, err := testIsolation().Run(context.Background(), "m.pdf", readCorpus(t, "merged.pdf"))
	if err != nil || !strings.HasPrefix(res.Extractor, "pdftotext") || res.Pages != 6 {
		t.Fatalf("extractor %q pages %d, %v", res.Extractor, res.Pages, err)
	}
}

// fakePdftotext is a script standing for a pdftotext that misbehaves.
func fakePdftotext(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pdftotext")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A pdftotext that fails, or that complains of damage it read past, leaves
// the document to PDFium; one that hangs is stopped by the deadline.
func TestPdftotextFailureFallsBack(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	raw := readCorpus(t, "merged.pdf")
	for _, c := range []struct{ name, script string }{
		{"exit status", "echo 'I/O Error: out of luck' >&2; exit 3"},
		{"syntax error", "printf 'half a page\\f'; echo 'Syntax Error (42): Unknown compression method' >&2"},
		{"no pages", "exit 0"},
		{"killed", "kill -9 $$"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Extract(context.Background(), "m.pdf", raw, Limits{Pdftotext: fakePdftotext(t, c.script)})
			if err != nil || res.Extractor != PDFExtractor || res.Pages != 6 || !strings.Contains(res.Text, "notes") {
				t.Fatalf("extractor %q pages %d, %v; want PDFium's 6 pages", res.Extractor, res.Pages, err)
			}
		})
	}
	t.Run("hangs", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := Extract(ctx, "m.pdf", raw, Limits{Pdftotext: fakePdftotext(t, "exec sleep 30")})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 10*time.Second {
			t.Fatalf("after %v: %v; want the deadline", time.Since(start), err)
		}
	})
}

// pdftotext runs with no environment, and the copy of the document it
// reads is removed after.
func TestPdftotextRunsClean(t *testing.T) {
	needPdftotext(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("KB_SECRET_FOR_TEST", "hunter2")
	envOut := filepath.Join(t.TempDir(), "env")
	script := fakePdftotext(t, "env > "+envOut+"; exec "+needPdftotext(t)+` "$@"`)
	res, err := Extract(context.Background(), "m.pdf", readCorpus(t, "merged.pdf"), Limits{Pdftotext: script})
	if err != nil || !strings.HasPrefix(res.Extractor, "pdftotext") {
		t.Fatalf("extractor %q, %v", res.Extractor, err)
	}
	env, err := os.ReadFile(envOut)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), "hunter2") || strings.Contains(string(env), "KB_") {
		t.Errorf("pdftotext's environment:\n%s", env)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}

// Text past the cap is cut as PDFium's is: truncated, every page counted.
func TestPdftotextTruncatesAtLimit(t *testing.T) {
	needPdftotext(t)
	res, err := Extract(context.Background(), "m.pdf", readCorpus(t, "merged.pdf"), Limits{MaxTextBytes: 1000})
	if err != nil || !strings.HasPrefix(res.Extractor, "pdftotext") {
		t.Fatalf("extractor %q, %v", res.Extractor, err)
	}
	if !res.Truncated || len(res.Text) > 1000 || res.Pages != 6 {
		t.Fatalf("truncated %v, %d bytes, %d pages; want true, ≤ 1000, 6", res.Truncated, len(res.Text), res.Pages)
	}
}

// pdftotext's output is kept up to the cap, and its pages are counted and
// reported to the end.
func TestPageSplitterCountsPastTheCap(t *testing.T) {
	prog := newPageProgress(func(Progress) {}, 3)
	s := &pageSplitter{max: 3, prog: prog}
	for _, chunk := range []string{"a\fb", "b\fcc", "c\f"} {
		if n, err := s.Write([]byte(chunk)); n != len(chunk) || err != nil {
			t.Fatalf("write %q: %d, %v", chunk, n, err)
		}
	}
	if s.buf.String() != "a\fb" || !s.over || s.pages != 3 || prog.read.Load() != 3 {
		t.Fatalf("kept %q, over %v, %d pages, %d reported", s.buf.String(), s.over, s.pages, prog.read.Load())
	}
}

// In the extraction child pdftotext is held to the child's deadline and
// memory ceiling: one that hangs ends in parse_timeout and is killed with
// the child, one that balloons ends in too_large.
func TestIsolatedPdftotextBounded(t *testing.T) {
	raw := readCorpus(t, "merged.pdf")
	t.Run("hangs", func(t *testing.T) {
		pidFile := filepath.Join(t.TempDir(), "pid")
		iso := residentIsolation(t)
		iso.Limits.Pdftotext = fakePdftotext(t, "echo $$ > "+pidFile+"; exec sleep 60")
		start := time.Now()
		_, err := iso.Run(context.Background(), "m.pdf", raw)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTimeout || time.Since(start) > iso.Timeout+5*time.Second {
			t.Fatalf("after %v: %v; want parse_timeout at %v", time.Since(start), err, iso.Timeout)
		}
		pid, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if _, err := os.Stat("/proc/" + strings.TrimSpace(string(pid))); err != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("pdftotext (pid %s) still runs after its child was killed", strings.TrimSpace(string(pid)))
			}
		}
	})
	t.Run("balloons", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("no python3 to stand for a pdftotext that balloons")
		}
		iso := residentIsolation(t)
		iso.Timeout = 20 * time.Second
		iso.Limits.Pdftotext = fakePdftotext(t, `exec python3 -c "import time; a = b'x' * (600 << 20); time.sleep(60)"`)
		_, err := iso.Run(context.Background(), "m.pdf", raw)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTooLarge {
			t.Fatalf("got %v; want too_large past the %d MB ceiling", err, iso.MemoryBytes>>20)
		}
	})
}
