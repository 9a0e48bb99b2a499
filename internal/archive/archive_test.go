package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
)

var testLimits = Limits{MaxEntries: 100, MaxBytes: 1 << 30}

type zipEntry struct {
	name    string
	body    []byte
	nonUTF8 bool
	mode    os.FileMode
}

func writeZip(t testing.TB, entries []zipEntry) *os.File {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, NonUTF8: e.nonUTF8}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(e.body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return tempFile(t, buf.Bytes())
}

func writeTarGz(t testing.TB, hs []*tar.Header, bodies [][]byte) *os.File {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for i, h := range hs {
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(bodies[i])
	}
	tw.Close()
	gz.Close()
	return tempFile(t, buf.Bytes())
}

func tempFile(t testing.TB, b []byte) *os.File {
	p := filepath.Join(t.TempDir(), "a")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func walkAll(f *os.File, format Format, lim Limits) (map[string]string, []Skip, error) {
	st, _ := f.Stat()
	got := map[string]string{}
	skips, err := Walk(context.Background(), f, st.Size(), format, lim, nil, func(e Entry, body io.Reader) error {
		if e.Dir {
			got[e.Name()+"/"] = ""
			return nil
		}
		b, err := io.ReadAll(body)
		got[e.Name()] = string(b)
		return err
	})
	return got, skips, err
}

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

func gbk(s string) string {
	b, _ := simplifiedchinese.GBK.NewEncoder().String(s)
	return b
}

func TestWalkNestedZipAndGBKNames(t *testing.T) {
	f := writeZip(t, []zipEntry{
		{name: "docs/", mode: os.ModeDir | 0o755},
		{name: "docs/a/b/deep.md", body: []byte("# deep")},
		{name: gbk("报告/季度总结.txt"), body: []byte("gbk"), nonUTF8: true},
		{name: "./top.txt", body: []byte("top")},
		{name: `win\path.txt`, body: []byte("win")},
	})
	got, skips, err := walkAll(f, Zip, testLimits)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"docs/": "", "docs/a/b/deep.md": "# deep", "报告/季度总结.txt": "gbk", "top.txt": "top", "win/path.txt": "win"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%q = %q, want %q (all: %q)", k, got[k], v, got)
		}
	}
	if len(got) != len(want) || len(skips) != 0 {
		t.Errorf("got %q skips %v", got, skips)
	}
}

func TestDecodeNameFallsBackToCP437(t *testing.T) {
	// 0x80 0xFF is invalid in UTF-8 and in GB18030; CP437 maps it.
	if got := DecodeName([]byte{'a', 0x80, 0xff}); got != "aÇ\u00a0" {
		t.Errorf("got %q", got)
	}
	if got := DecodeName([]byte("plain")); got != "plain" {
		t.Errorf("got %q", got)
	}
}

func TestWalkNestedTarGz(t *testing.T) {
	f := writeTarGz(t, []*tar.Header{
		{Name: "root/", Typeflag: tar.TypeDir, Mode: 0o755},
		{Name: "root/x/y/z.txt", Typeflag: tar.TypeReg, Size: 3, Mode: 0o644},
		{Name: "root/fifo", Typeflag: tar.TypeFifo},
	}, [][]byte{nil, []byte("zzz"), nil})
	got, skips, err := walkAll(f, TarGz, testLimits)
	if err != nil {
		t.Fatal(err)
	}
	if got["root/x/y/z.txt"] != "zzz" || len(got) != 2 {
		t.Errorf("got %q", got)
	}
	if len(skips) != 1 || skips[0].Name != "root/fifo" {
		t.Errorf("skips %v", skips)
	}
}

func TestWalkRefusals(t *testing.T) {
	zeros := make([]byte, 20<<20)
	many := make([]zipEntry, 21)
	for i := range many {
		many[i] = zipEntry{name: string(rune('a'+i)) + ".txt", body: []byte("x")}
	}
	cases := []struct {
		name string
		f    *os.File
		fmt  Format
		lim  Limits
		code string
	}{
		{"zip dotdot", writeZip(t, []zipEntry{{name: "a/../../etc/passwd", body: []byte("x")}}), Zip, testLimits, CodeUnsafePath},
		{"zip absolute", writeZip(t, []zipEntry{{name: "/etc/passwd", body: []byte("x")}}), Zip, testLimits, CodeUnsafePath},
		{"zip drive", writeZip(t, []zipEntry{{name: `C:\win.ini`, body: []byte("x")}}), Zip, testLimits, CodeUnsafePath},
		{"zip symlink", writeZip(t, []zipEntry{{name: "link", body: []byte("/etc/passwd"), mode: os.ModeSymlink | 0o777}}), Zip, testLimits, CodeLink},
		{"zip bomb", writeZip(t, []zipEntry{{name: "zeros.bin", body: zeros}}), Zip, testLimits, CodeBomb},
		{"zip too many", writeZip(t, many), Zip, Limits{MaxEntries: 20, MaxBytes: 1 << 20}, CodeTooMany},
		{"zip too large", writeZip(t, []zipEntry{{name: "a", body: []byte("0123456789")}}), Zip, Limits{MaxEntries: 10, MaxBytes: 5}, CodeEntryTooLarge},
		{"tar symlink", writeTarGz(t, []*tar.Header{{Name: "l", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}}, [][]byte{nil}), TarGz, testLimits, CodeLink},
		{"tar dotdot", writeTarGz(t, []*tar.Header{{Name: "../x", Typeflag: tar.TypeReg, Size: 1}}, [][]byte{[]byte("x")}), TarGz, testLimits, CodeUnsafePath},
		{"tar bomb", writeTarGz(t, []*tar.Header{{Name: "z", Typeflag: tar.TypeReg, Size: int64(len(zeros))}}, [][]byte{zeros}), TarGz, testLimits, CodeBomb},
		{"not a zip", tempFile(t, []byte("hello")), Zip, testLimits, CodeInvalid},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := walkAll(tc.f, tc.fmt, tc.lim)
			if code(err) != tc.code {
				t.Fatalf("code %q, want %q (%v)", code(err), tc.code, err)
			}
		})
	}
}

func TestFormatOf(t *testing.T) {
	for _, tc := range []struct {
		name, base string
		f          Format
	}{{"a.zip", "a", Zip}, {"B.TAR.GZ", "B", TarGz}, {"c.tgz", "c", TarGz}, {"d.tar", "d", Tar}} {
		f, base, ok := FormatOf(tc.name)
		if !ok || f != tc.f || base != tc.base {
			t.Errorf("%s: %v %q %v", tc.name, f, base, ok)
		}
	}
	if _, _, ok := FormatOf("notes.md"); ok || slices.Contains([]string{}, "") {
		t.Error("notes.md is not an archive")
	}
}
