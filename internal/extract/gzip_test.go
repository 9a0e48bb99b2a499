package extract

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/extract/extracttest"
)

// The gzip testdata are real files of a Debian system: man pages of
// coreutils (GPL-3+), OpenSSH (BSD), OpenSSL (Apache-2.0) and
// libhtml-form-perl (Perl's terms), and the file package's Debian
// changelog.

func gzipped(t testing.TB, raw []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readGz(t *testing.T, name string) []byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/gz/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func wantCode(t *testing.T, err error, code string, says ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("err %v, want code %s", err, code)
	}
	for _, s := range says {
		if !strings.Contains(e.Message, s) {
			t.Errorf("message %q does not say %q", e.Message, s)
		}
	}
}

// A gzipped man page reads as the manual's text: the roff requests,
// comments and font escapes gone, a sentence of it whole on one line.
func TestGzipManPages(t *testing.T) {
	cases := []struct {
		file, name string
		want       []string
	}{
		{"ls.1.gz", "ls.1.gz", []string{"NAME", "ls - list directory contents",
			"List information about the FILEs (the current directory by default). Sort entries alphabetically if none of -cftuvSUX nor --sort is specified.",
			"-a, --all", "do not ignore entries starting with ."}},
		{"ssh.1.gz", "ssh.1.gz", []string{"NAME", "OpenSSH remote login client", "-B bind_interface",
			"ssh (SSH client) is a program for logging into a remote machine and for executing commands on a remote machine."}},
		{"openssl-errstr.1ssl.gz", "openssl-errstr.1ssl.gz", []string{"NAME", "openssl-errstr - lookup error codes"}},
		{"HTML-Form-SubmitInput.3pm.gz", "HTML::Form::SubmitInput.3pm.gz", []string{"NAME",
			"HTML::Form::SubmitInput - An HTML form submit input element for use with HTML::Form",
			"This is free software; you can redistribute it and/or modify it under the same terms as the Perl 5 programming language system itself."}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res, err := Extract(context.Background(), c.name, readGz(t, c.file), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Format != "man" {
				t.Errorf("format %q, want man", res.Format)
			}
			for _, w := range c.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("text lacks %q:\n%s", w, head(res.Text, 3000))
				}
			}
			for _, bad := range []string{`\f`, `\-`, `\(`, `\*`, "\n.", `.\"`, "DO NOT MODIFY", "Copyright (c) 1999 Theo"} {
				if strings.Contains(res.Text, bad) {
					t.Errorf("text keeps %q:\n%s", bad, head(res.Text, 3000))
				}
			}
		})
	}
}

func head(s string, n int) string { return s[:min(n, len(s))] }

func TestGzipText(t *testing.T) {
	res, err := Extract(context.Background(), "changelog.Debian.gz", readGz(t, "changelog.Debian.gz"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Format != "text" || !strings.Contains(res.Text, "Cherry-pick fixes related to APK file detection") {
		t.Fatalf("format %q, text %q", res.Format, head(res.Text, 500))
	}
	// A legacy encoding is decoded as a plain file's would be.
	gbk := []byte{0xd6, 0xd0, 0xce, 0xc4, 0xce, 0xc4, 0xb1, 0xbe, 0xa3, 0xac, 0xd5, 0xe2, 0xca, 0xc7, 0xd2, 0xbb, 0xb6, 0xce, 0xd6, 0xd0, 0xce, 0xc4}
	res, err = Extract(context.Background(), "NEWS.gz", gzipped(t, gbk), Limits{})
	if err != nil || !strings.Contains(res.Text, "中文") || res.Encoding == EncUTF8 {
		t.Fatalf("gbk: %q %q %v", res.Text, res.Encoding, err)
	}
}

// An inner document goes through its own extractor; the parser check
// follows the inner name.
func TestGzipInnerDocument(t *testing.T) {
	res, err := Extract(context.Background(), "paper.pdf.gz", gzipped(t, extracttest.MinimalPDF("Hello gzipped PDF")), Limits{})
	if err != nil || res.Format != "pdf" || !strings.Contains(res.Text, "Hello gzipped PDF") {
		t.Fatalf("pdf.gz: %q %q %v", res.Format, res.Text, err)
	}
	page := []byte("<html><head><title>T</title><style>p{}</style></head><body><p>Gzipped <b>page</b> text</p></body></html>")
	res, err = Extract(context.Background(), "page.html.gz", gzipped(t, page), Limits{})
	if err != nil || res.Format != "html" || !strings.Contains(res.Text, "Gzipped page text") || strings.Contains(res.Text, "<b>") {
		t.Fatalf("html.gz: %q %q %v", res.Format, res.Text, err)
	}
	for name, want := range map[string]bool{"paper.pdf.gz": true, "page.HTML.GZ": true, "ls.1.gz": false, "NEWS.gz": false, "notes.txt": false} {
		if got := HasParser(name); got != want {
			t.Errorf("HasParser(%q) = %v, want %v", name, got, want)
		}
	}
	for _, name := range []string{"ls.1.gz", "NEWS.gz", "paper.pdf.gz"} {
		if !Supported(name) || !IsDocument(name) {
			t.Errorf("%s: Supported %v, IsDocument %v; want both", name, Supported(name), IsDocument(name))
		}
	}
}

// A gzip bomb — 1 GiB of zeros in ~1 MB — fails as too_large once the
// ratio gives it away, having inflated a few megabytes at most.
func TestGzipBomb(t *testing.T) {
	member := gzipped(t, make([]byte, 1<<20)) // 1 MiB of zeros, ~1 KB
	bomb := bytes.Repeat(member, 1024)        // concatenated members: 1 GiB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Extract(context.Background(), "zeros.txt.gz", bomb, Limits{})
	runtime.ReadMemStats(&after)
	wantCode(t, err, CodeTooLarge, "zeros.txt.gz", "gzip bomb")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("the bomb allocated %d MB before it was refused", grew>>20)
	}

	// One member of 64 MiB of zeros, a single stream.
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for range 64 {
		zw.Write(zero)
	}
	zw.Close()
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = Extract(context.Background(), "ls.1.gz", b.Bytes(), Limits{})
	runtime.ReadMemStats(&after)
	wantCode(t, err, CodeTooLarge, "gzip bomb")
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("the bomb allocated %d MB before it was refused", grew>>20)
	}
}

// Text that is simply long, not a bomb, is cut at the text limit like a
// plain file's.
func TestGzipLongTextIsCut(t *testing.T) {
	var text bytes.Buffer
	for i := 0; text.Len() < 3<<20; i++ {
		text.WriteString("line ")
		text.WriteString(strings.Repeat(string(rune('a'+i%26)), 1+i%40))
		text.WriteString(" of a long log with varied words\n")
	}
	res, err := Extract(context.Background(), "big.log.gz", gzipped(t, text.Bytes()), Limits{MaxTextBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || len(res.Text) > 1<<20 || len(res.Text) < 1<<19 {
		t.Fatalf("truncated %v, %d bytes", res.Truncated, len(res.Text))
	}
}

func TestGzipDamaged(t *testing.T) {
	good := readGz(t, "ls.1.gz")
	_, err := Extract(context.Background(), "ls.1.gz", good[:len(good)/2], Limits{})
	wantCode(t, err, CodeParseFailed, "ls.1.gz", "damaged")

	corrupt := bytes.Clone(good)
	for i := len(corrupt) / 3; i < len(corrupt)/3+64; i++ {
		corrupt[i] ^= 0x5a
	}
	_, err = Extract(context.Background(), "ls.1.gz", corrupt, Limits{})
	wantCode(t, err, CodeParseFailed, "damaged")

	_, err = Extract(context.Background(), "NEWS.gz", []byte("plain text, not gzip at all"), Limits{})
	wantCode(t, err, CodeParseFailed, "not a gzip file")
}

func TestGzipNotText(t *testing.T) {
	noise := make([]byte, 64<<10)
	rand.Read(noise)
	noise[10] = 0
	_, err := Extract(context.Background(), "blob.bin.gz", gzipped(t, noise), Limits{})
	wantCode(t, err, CodeUnsupported, "blob.bin.gz", "not text")

	// A tarball stays an archive: import it, it is no text.
	for _, name := range []string{"src.tar.gz", "src.tgz"} {
		_, err = Extract(context.Background(), name, gzipped(t, []byte("ustar-ish")), Limits{})
		wantCode(t, err, CodeUnsupported, name, "archive")
	}
	_, err = Extract(context.Background(), "twice.txt.gz.gz", gzipped(t, gzipped(t, []byte("hi"))), Limits{})
	wantCode(t, err, CodeUnsupported, "gzip")
}

// FuzzRenderRoff: any source renders without a panic.
func FuzzRenderRoff(f *testing.F) {
	for _, name := range []string{"ls.1.gz", "ssh.1.gz", "openssl-errstr.1ssl.gz", "HTML-Form-SubmitInput.3pm.gz"} {
		raw, err := os.ReadFile("testdata/gz/" + name)
		if err != nil {
			f.Fatal(err)
		}
		text, err := zcatBytes(raw)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add(`.de X` + "\n" + `\fB\s+2\(em\*[lq]\[u00E9]\h'1i'\c`)
	f.Fuzz(func(t *testing.T, src string) {
		_ = renderRoff(src)
	})
}

func zcatBytes(raw []byte) (string, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	_, err = b.ReadFrom(zr)
	return b.String(), err
}
