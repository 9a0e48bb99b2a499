package tools

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// unicodeText mixes one-, two-, three- and four-byte characters so that
// pages and index checkpoints fall inside multi-byte sequences.
func unicodeText(chars int) string {
	parts := []string{"a", "é", "会", "🚀", "\n", "Ω", "z", "議"}
	var b strings.Builder
	for i := range chars {
		b.WriteString(parts[(i*7+i/3)%len(parts)])
	}
	return b.String()
}

func readPage(t testing.TB, e *toolEnv, uri string, offset, limit int64) *ReadResult {
	t.Helper()
	args := map[string]any{"uri": uri, "offset": offset}
	if limit > 0 {
		args["limit"] = limit
	}
	return e.mustRun(e.alice, "kb://me/", "read", args).Value.(*ReadResult)
}

func TestToolReadPagingToTheEndAndBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		text := unicodeText(10_000) // crosses the 4096-character index stride twice
		uri := e.put(e.alice, "kb://me/d/", "u.md", []byte(text))
		runes := []rune(text)

		var got strings.Builder
		var starts []int64
		offset := int64(0)
		for {
			p := readPage(t, e, uri, offset, 0)
			if p.Body != "raw" || p.Total != 10_000 || p.Limit != knowledge.DefaultPageLimit {
				t.Fatalf("page %+v", p.Page)
			}
			if !utf8.ValidString(p.Text) || string(runes[offset:min(int64(len(runes)), offset+3000)]) != p.Text {
				t.Fatalf("page at %d differs from the text", offset)
			}
			starts = append(starts, offset)
			got.WriteString(p.Text)
			if p.NextOffset == nil {
				break
			}
			offset = *p.NextOffset
		}
		if got.String() != text || fmt.Sprint(starts) != "[0 3000 6000 9000]" {
			t.Fatalf("forward pages at %v do not rebuild the text", starts)
		}
		// Back again with prev_offset.
		var back []int64
		for p := readPage(t, e, uri, 9000, 0); ; {
			back = append(back, p.Offset)
			if p.PrevOffset == nil {
				break
			}
			p = readPage(t, e, uri, *p.PrevOffset, 0)
			if p.Text != string(runes[p.Offset:p.Offset+3000]) {
				t.Fatalf("backward page at %d differs", p.Offset)
			}
		}
		if fmt.Sprint(back) != "[9000 6000 3000 0]" {
			t.Fatalf("backward pages %v", back)
		}
		// Odd sizes across the stride: every page is exactly limit characters.
		for _, tc := range []struct{ offset, limit int64 }{{4095, 2}, {4096, 1}, {8191, 6000}, {1, 6000}} {
			p := readPage(t, e, uri, tc.offset, tc.limit)
			want := string(runes[tc.offset:min(int64(len(runes)), tc.offset+tc.limit)])
			if p.Text != want {
				t.Errorf("offset %d limit %d: got %d chars", tc.offset, tc.limit, utf8.RuneCountInString(p.Text))
			}
		}
	})
}

func TestToolReadBoundaries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		uri := e.put(e.alice, "kb://me/d/", "s.txt", []byte("héllo 🚀"))

		last := readPage(t, e, uri, 6, 10) // offset at the last character
		if last.Text != "🚀" || last.NextOffset != nil || *last.PrevOffset != 0 {
			t.Fatalf("last character: %+v", last)
		}
		end := readPage(t, e, uri, 7, 0)
		if end.Text != "" || end.NextOffset != nil || end.Total != 7 || !strings.Contains(end.Note, "end of the text") {
			t.Fatalf("offset at the end: %+v", end)
		}
		_, err := e.run(e.alice, "kb://me/", "read", map[string]any{"uri": uri, "offset": 8})
		wantToolErr(t, err, "offset_out_of_range", "offset 8 is past the end", "has 7 characters")
		for _, limit := range []int{0, 6001, -1} {
			_, err := e.run(e.alice, "kb://me/", "read", map[string]any{"uri": uri, "limit": limit})
			wantToolErr(t, err, "invalid_arguments", "between 1 and 6000")
		}
		p := readPage(t, e, uri, 0, 6000)
		if p.Text != "héllo 🚀" || p.Limit != 6000 {
			t.Fatalf("limit 6000: %+v", p)
		}
		_, err = e.run(e.alice, "kb://me/", "read", `{"uri":"kb://me/d/"}`)
		wantToolErr(t, err, "not_a_file", "use ls")
	})
}

func TestToolReadBodies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		empty := e.put(e.alice, "kb://me/d/", "empty.md", nil)
		pdf := e.put(e.alice, "kb://me/d/", "paper.pdf", []byte("%PDF-1.7 binary"))
		png := e.put(e.alice, "kb://me/d/", "pic.png", []byte("\x89PNG\r\n\x1a\n\x00\x00"))
		parsed := e.put(e.alice, "kb://me/d/", "report.pdf", []byte("%PDF-1.4"))
		e.putL2(e.alice, parsed, "Extracted text of the report.")

		p := readPage(t, e, empty, 0, 0)
		if p.Body != "raw" || p.Total != 0 || p.Text != "" || p.Note != "the file is empty" || p.NextOffset != nil {
			t.Fatalf("empty: %+v", p)
		}
		p = readPage(t, e, pdf, 0, 0)
		if p.Body != "none" || p.Text != "" || !strings.Contains(p.Note, "parse job") {
			t.Fatalf("pdf without body: %+v", p)
		}
		_, err := e.run(e.alice, "kb://me/", "read", map[string]any{"uri": pdf, "offset": 1})
		wantToolErr(t, err, "offset_out_of_range", "no text body")
		p = readPage(t, e, png, 0, 0)
		if p.Body != "none" || !strings.Contains(p.Note, "parse job") { // images are read by OCR
			t.Fatalf("png: %+v", p)
		}
		p = readPage(t, e, parsed, 10, 4)
		if p.Body != "l2" || p.Text != "text" || p.Total != 29 {
			t.Fatalf("l2 body: %+v", p)
		}
	})
}
