package extract

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// corpusCase is one document and what extracting it must give: text
// containing want in order (and none of not), or the error code.
type corpusCase struct {
	name      string
	raw       []byte
	lim       Limits
	want      []string
	not       []string
	pages     int
	code      string
	truncated bool
	// peakMB, when set, bounds the heap the extraction may add.
	peakMB uint64
}

// TestCorpus runs every supported format and every malformed kind through
// Extract: the documents LibreOffice and pandoc made (testdata/docs, see
// gen-documents.sh) and hostile ones built here.
func TestCorpus(t *testing.T) {
	doc := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "docs", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases := []corpusCase{
		{name: "report.docx", raw: doc("report.docx"), want: []string{
			"Quarterly report header", "# Quarterly results", "Revenue grew in every region[^2], and the café in Zürich opened.",
			"Text box: key takeaway", "| Region | Sales |", "| North | 120 |", "第二点：中文内容",
			"[^2]: Figures are unaudited.", "Confidential footer"}},
		{name: "report.odt", raw: doc("report.odt"), want: []string{
			"Quarterly report header", "# Quarterly results", "region[^1], and the café", "Text box: key takeaway",
			"| Region | Sales |", "- 第二点：中文内容", "[^1]: Figures are unaudited.", "Confidential footer"}},
		{name: "report.rtf", raw: doc("report.rtf"), want: []string{
			"Quarterly report header", "Quarterly results", "region [footnote: \tFigures are unaudited.], and the café in Zürich",
			"Text box: key takeaway", "| Region | Sales |", "第二点：中文内容"}, not: []string{"Liberation", "\\"}},
		{name: "slides.pptx", raw: doc("slides.pptx"), pages: 3, want: []string{
			"## Slide 1\nProduct launch", "## Slide 2\nGoals\nShip the knowledge workspace\n支持中文文档",
			"Notes: Speaker note: thank the team.", "## Slide 3\nTimeline\nBeta in March"}},
		{name: "table.xlsx", raw: doc("table.xlsx"), pages: 1, want: []string{
			"## Sheet: table\n| Name | City | Amount |\n| Alice | Paris | 12.5 |\n| Bob | 東京 | 7 |"}},
		{name: "book.epub", raw: doc("book.epub"), pages: 3, want: []string{
			"# Chapter one\n\nIt was a bright cold day in April.", "# Chapter two",
			"a [link](https://example.org) and a list:\n\n- alpha\n- beta"}, not: []string{"xhtml"}},
		{name: "page.html", raw: doc("page.html"), want: []string{
			"Release notes", "# Knowspace 1.2", "This release adds [new docs](https://example.org/docs) and faster search.",
			"- HTML import\n- RTF import", "1. Upload\n2. Compile", "| Format | Status |", "| EPUB | done |",
			"  code   stays\n  as is"}, not: []string{"hidden", "color"}},
		{name: "page-gbk.html", raw: doc("page-gbk.html"), want: []string{"# 知识库 1.2", "faster search"}},
		{name: "legacy.rtf", raw: []byte(`{\rtf1\ansi\ansicpg936{\fonttbl{\f0\fnil\fcharset134 SimSun;}{\f1\fcharset0 Arial;}}` +
			`{\*\generator Hand}{\info{\title hidden}}\f0\'d6\'d0\'ce\'c4\par\f1 caf\'e9 \u8364?5\par{\pict 0102}` +
			`\uc2\u27700**\tab done\line next\par}`),
			want: []string{"中文\ncafé €5\n水\tdone\nnext"}, not: []string{"SimSun", "hidden", "0102", "*"}},
		{name: "sheets.xlsx", raw: buildXLSX(5), pages: 2, want: []string{
			"## Sheet: Plan\n| Task | Done |\n| write | TRUE |\n| inline |  | far |",
			"## Sheet: 数据\n| row 0 |\n| row 1 |", "| row 4 |"}},
		{name: "long.xlsx", raw: buildXLSX(maxSheetRows + 5), pages: 2, truncated: true,
			want: []string{fmt.Sprintf("| row %d |", maxSheetRows-1), "rows after 20000 of this sheet are not shown"},
			not:  []string{fmt.Sprintf("| row %d |", maxSheetRows)}},
		{name: "cut.docx", raw: minimalDOCX(strings.Split(strings.Repeat("paragraph text ", 400), " ")...),
			lim: Limits{MaxTextBytes: 1000}, truncated: true, want: []string{"paragraph"}},
		{name: "nested.docx", raw: nestedDOCX(500_000), code: CodeParseFailed, peakMB: 64},
		// One text node of 32 MB (a 32 KB zip): the run guard stops it at 8 MB.
		{name: "bomb.docx", raw: bombZIP(1, 32<<20), code: CodeTooLarge, peakMB: 96},
		// Markup without text: the per-part inflate budget stops it.
		{name: "markup-bomb.docx", raw: zipOfDeflated("word/document.xml", "<w:document><w:body>", "<w:r/>", 4<<20), lim: Limits{MaxInflateBytes: 8 << 20}, code: CodeTooLarge, peakMB: 32},
		{name: "bombs.pptx", raw: bombZIP(8, 700<<10), lim: Limits{MaxInflateBytes: 4 << 20}, code: CodeTooLarge, peakMB: 64},
		{name: "entries.xlsx", raw: manyEntries(maxZipEntries + 1), code: CodeTooLarge},
		{name: "notzip.pptx", raw: []byte("PK\x03\x04 broken"), code: CodeParseFailed},
		{name: "empty.epub", raw: zipOf(map[string]string{"mimetype": "application/epub+zip"}), code: CodeParseFailed},
		{name: "noslides.pptx", raw: zipOf(map[string]string{"ppt/presentation.xml": "<p:presentation/>"}), code: CodeParseFailed},
		{name: "bad.rtf", raw: []byte("not rtf at all"), code: CodeParseFailed},
		{name: "deep.rtf", raw: []byte(`{\rtf1 ` + strings.Repeat("{", 5000) + "x}"), code: CodeParseFailed},
	}
	for _, s := range encodedSamples {
		cases = append(cases, corpusCase{name: s.file, raw: sampleBytes(t, s.file), want: []string{original(t, s.file)}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func (c corpusCase) run(t *testing.T) {
	var res Result
	var err error
	peak := peakHeap(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err = Extract(ctx, c.name, c.raw, c.lim)
	})
	if c.peakMB > 0 {
		t.Logf("heap peak +%.1f MB (ceiling %d MB)", float64(peak)/(1<<20), c.peakMB)
	}
	if c.peakMB > 0 && peak > c.peakMB<<20 {
		t.Errorf("heap grew by %d MB, more than %d MB", peak>>20, c.peakMB)
	}
	if c.code != "" {
		var e *Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Fatalf("got %v (text %.80q); want code %s", err, res.Text, c.code)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	rest := res.Text
	for _, w := range c.want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("missing %q (in order) in:\n%s", w, res.Text)
		}
		rest = rest[i+len(w):]
	}
	for _, n := range c.not {
		if strings.Contains(res.Text, n) {
			t.Errorf("text contains %q:\n%s", n, res.Text)
		}
	}
	if res.Pages != c.pages || res.Truncated != c.truncated {
		t.Errorf("pages %d, truncated %v; want %d, %v", res.Pages, res.Truncated, c.pages, c.truncated)
	}
	if res.Truncated && (res.TruncatedAt <= 0 || res.TruncatedAt > int64(len([]rune(res.Text)))) {
		t.Errorf("truncated at %d of %d code points", res.TruncatedAt, len([]rune(res.Text)))
	}
	if c.lim.MaxTextBytes > 0 && len(res.Text) > c.lim.MaxTextBytes {
		t.Errorf("text of %d bytes passes the %d-byte limit", len(res.Text), c.lim.MaxTextBytes)
	}
}

func TestExtractCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, name := range []string{"a.docx", "a.xlsx", "a.html"} {
		raw := minimalDOCX("text")
		if name == "a.html" {
			raw = []byte("<p>text</p>")
		}
		if _, err := Extract(ctx, name, raw, Limits{}); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: got %v, want context.Canceled", name, err)
		}
	}
}

func sampleBytes(t testing.TB, file string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "enc", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// peakHeap runs f and returns how far the in-use heap rose above where it
// started, sampled every millisecond.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		peak := base
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	return <-done - base
}

// zipOf builds a zip of the given parts.
func zipOf(parts map[string]string) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, body := range parts {
		w, _ := zw.Create(name)
		io.WriteString(w, body)
	}
	zw.Close()
	return b.Bytes()
}

// nestedDOCX is a DOCX whose body nests n paragraphs in each other: a few
// hundred kilobytes that once took gigabytes to read.
func nestedDOCX(n int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) })
	w, _ := zw.Create("word/document.xml")
	io.WriteString(w, `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	open := []byte(`<w:p w:rsidR="00AB12CD"><w:r><w:t>x</w:t></w:r>`)
	for i := 0; i < n; i++ {
		w.Write(open)
	}
	zw.Close()
	return b.Bytes()
}

// bombZIP is a zip of document parts, each one text node of size bytes
// that deflate squeezes a thousandfold: one Word body, or that many slides.
func bombZIP(parts int, size int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	chunk := bytes.Repeat([]byte("a"), 1<<20)
	names := []string{"word/document.xml"}
	if parts > 1 {
		w, _ := zw.Create("ppt/presentation.xml")
		io.WriteString(w, `<p:presentation/>`)
		names = names[:0]
		for i := 0; i < parts; i++ {
			names = append(names, fmt.Sprintf("ppt/slides/slide%d.xml", i+1))
		}
	}
	for _, name := range names {
		w, _ := zw.Create(name)
		io.WriteString(w, `<w:document><w:body><w:p><w:r><w:t>`)
		for n := 0; n < size; n += len(chunk) {
			w.Write(chunk[:min(len(chunk), size-n)])
		}
		io.WriteString(w, `</w:t></w:r></w:p></w:body></w:document>`)
	}
	zw.Close()
	return b.Bytes()
}

// zipOfDeflated is a zip of one part: head, then unit repeated to size
// bytes.
func zipOfDeflated(name, head, unit string, size int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create(name)
	io.WriteString(w, head)
	chunk := []byte(strings.Repeat(unit, (1<<20)/len(unit)))
	for n := 0; n < size; n += len(chunk) {
		w.Write(chunk)
	}
	zw.Close()
	return b.Bytes()
}

func manyEntries(n int) []byte {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := 0; i < n; i++ {
		zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("x/%d", i), Method: zip.Store})
	}
	zw.Close()
	return b.Bytes()
}

// buildXLSX is a workbook of two sheets: "Plan" with shared strings, a
// boolean, an inline string and a sparse row, and "数据" with rows rows.
func buildXLSX(rows int) []byte {
	const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	var data strings.Builder
	data.WriteString(`<worksheet ` + ns + `><sheetData>`)
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&data, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>row %d</t></is></c></row>`, i+1, i+1, i)
	}
	data.WriteString(`</sheetData></worksheet>`)
	return zipOf(map[string]string{
		"xl/workbook.xml": `<workbook ` + ns + `><sheets><sheet name="Plan" sheetId="1" r:id="rId1"/>` +
			`<sheet name="数据" sheetId="2" r:id="rId2"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet2.xml"/>` +
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
		"xl/sharedStrings.xml": `<sst ` + ns + `><si><t>Task</t></si><si><r><t>Do</t></r><r><t>ne</t></r></si>` +
			`<si><t>write</t><rPh><t>ignored</t></rPh></si></sst>`,
		"xl/worksheets/sheet1.xml": `<worksheet ` + ns + `><sheetData>` +
			`<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` +
			`<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2" t="b"><f>TRUE()</f><v>1</v></c></row>` +
			`<row r="3"/>` +
			`<row r="4"><c r="A4" t="inlineStr"><is><t>inline</t></is></c><c r="C4" t="str"><v>far</v></c></row>` +
			`</sheetData></worksheet>`,
		"xl/worksheets/sheet2.xml": data.String(),
	})
}
