package knowledge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/store"
)

// A window names the PDF pages its text comes from.
func TestPageNamesItsPDFPages(t *testing.T) {
	starts := store.EncodePageStarts([]store.PageStart{{Page: 1, Offset: 0}, {Page: 2, Offset: 100}, {Page: 4, Offset: 250}})
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
		p := Page{Offset: c.offset, Total: 300, Text: strings.Repeat("页", c.text), starts: starts}
		p.markPages()
		if fmt.Sprint(p.Pages) != fmt.Sprint(c.want) {
			t.Errorf("window [%d, %d): pages %v, want %v", c.offset, c.offset+int64(c.text), p.Pages, c.want)
		}
	}
}
