package extract

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// encodedSamples are the iconv-made files of testdata/enc (see
// testdata/gen-encodings.sh) with the encoding DecodeText must name.
var encodedSamples = []struct{ file, want string }{
	{"zh-hans.gb18030.txt", EncGB18030},
	{"zh-hans.gbk.txt", EncGB18030},
	{"zh-hans.utf16le-bom.txt", EncUTF16LE},
	{"zh-hant.big5.txt", EncBig5},
	{"ja.sjis.txt", EncShiftJIS},
	{"ja.eucjp.txt", EncEUCJP},
	{"ja.utf8-bom.txt", EncUTF8},
	{"ko.euckr.txt", EncEUCKR},
	{"ko.utf16be-bom.txt", EncUTF16BE},
	{"fr-de.cp1252.txt", EncWindows1252},
	{"fr-de.utf16le.txt", EncUTF16LE},
	{"fr-de.utf16be.txt", EncUTF16BE},
	{"short-zh.gb18030.txt", EncGB18030},
	{"short-zh2.big5.txt", EncBig5},
	{"short-ja.sjis.txt", EncShiftJIS},
	{"short-ja.eucjp.txt", EncEUCJP},
	{"short-ko.euckr.txt", EncEUCKR},
	{"short-fr.cp1252.txt", EncWindows1252},
}

// original is the UTF-8 text a sample was made from.
func original(t testing.TB, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "enc", file[:strings.IndexByte(file, '.')]+".utf8"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDecodeTextSamples(t *testing.T) {
	for _, c := range encodedSamples {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", "enc", c.file))
			if err != nil {
				t.Fatal(err)
			}
			text, enc, ok := DecodeText(raw)
			if want := original(t, c.file); !ok || enc != c.want || text != want {
				t.Fatalf("got %q as %s (ok=%v); want %q as %s", text, enc, ok, want, c.want)
			}
		})
	}
}

func TestDecodeTextBinary(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat("compressible text ", 200)))
	zw.Close()
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	cases := map[string][]byte{
		"png":          {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0x0d, 'I', 'H', 'D', 'R'},
		"gzip":         gz.Bytes(),
		"random":       random,
		"utf-8 + NUL":  []byte("text\x00more text"),
		"odd controls": []byte("\x81\x01\x02\x03\x04abc\x05\x06"),
	}
	for name, raw := range cases {
		if text, enc, ok := DecodeText(raw); ok {
			t.Errorf("%s: decoded as %s: %q", name, enc, text)
		}
	}
	// MayBeText never rules out what DecodeText accepts.
	for _, s := range encodedSamples {
		raw := sampleBytes(t, s.file)
		if !MayBeText(raw[:min(len(raw), 512)], bytes.IndexByte(raw, 0) >= 0) {
			t.Errorf("%s ruled out as binary", s.file)
		}
	}
	if MayBeText(cases["png"], true) {
		t.Error("a PNG head may be text")
	}
	// Text with few non-ASCII bytes is still text, not binary.
	for _, raw := range [][]byte{[]byte(""), []byte("plain ascii\n"), []byte("na\xefve\r\n")} {
		if _, _, ok := DecodeText(raw); !ok {
			t.Errorf("%q called binary", raw)
		}
	}
}

// FuzzDecodeText: any bytes decode to valid UTF-8 or are called binary,
// and UTF-8 text without NUL always decodes to itself.
func FuzzDecodeText(f *testing.F) {
	for _, s := range encodedSamples {
		f.Add(sampleBytes(f, s.file))
	}
	f.Add([]byte("\xff\xfe\x00"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		text, enc, ok := DecodeText(raw)
		if ok && (!utf8.ValidString(text) || enc == "") {
			t.Fatalf("%q: %q as %q", raw, text, enc)
		}
		if utf8.Valid(raw) && bytes.IndexByte(raw, 0) < 0 && !bytes.HasPrefix(raw, []byte("\ufeff")) && (!ok || text != string(raw)) {
			t.Fatalf("UTF-8 %q came out %q (%v)", raw, text, ok)
		}
	})
}
