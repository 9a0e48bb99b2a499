package knowledge

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A window names the PDF pages its text comes from, and the extraction it
// shows no longer lists where every page begins.
func TestPageNamesItsPDFPages(t *testing.T) {
	how := `{"format":"pdf","pages":4,"page_starts":[{"page":1,"offset":0},{"page":2,"offset":100},{"page":4,"offset":250}]}`
	cases := []struct {
		offset int64
		text   int
		want   []int
	}{
		{0, 100, []int{1}},
		{0, 101, []int{1, 2}},
		{99, 2, []int{1, 2}},
		{120, 100, []int{2}},
		{200, 100, []int{2, 4}},
		{260, 40, []int{4}},
		{300, 0, nil},
	}
	for _, c := range cases {
		p := Page{Offset: c.offset, Total: 300, Text: strings.Repeat("页", c.text), Extraction: json.RawMessage(how)}
		p.takePageStarts()
		p.markPages()
		if fmt.Sprint(p.Pages) != fmt.Sprint(c.want) {
			t.Errorf("window [%d, %d): pages %v, want %v", c.offset, c.offset+int64(c.text), p.Pages, c.want)
		}
		if strings.Contains(string(p.Extraction), "page_starts") || !strings.Contains(string(p.Extraction), `"pages":4`) {
			t.Errorf("extraction shown: %s", p.Extraction)
		}
	}
}
