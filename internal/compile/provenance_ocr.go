package compile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/knowspace/knowspace/internal/extract"
)

// writeOCR adds to a source's front matter that its text was recognized
// from pixels, by what, and how surely, so a reader of the summary knows
// its quotes may carry recognition errors.
func writeOCR(b *strings.Builder, o *extract.OCRInfo) {
	pages := make([]string, len(o.Pages))
	confs := make([]string, len(o.Pages))
	var low []string
	for i, p := range o.Pages {
		pages[i] = strconv.Itoa(p.Page)
		confs[i] = strconv.FormatFloat(p.Confidence, 'f', 1, 64)
		if p.LowConfidence {
			low = append(low, pages[i])
		}
	}
	fmt.Fprintf(b, "    source: ocr # text recognized from pixels; it may contain recognition errors\n")
	fmt.Fprintf(b, "    ocr_engine: %q\n    ocr_languages: [%s]\n", o.Engine, strings.Join(o.Languages, ", "))
	fmt.Fprintf(b, "    ocr_pages: [%s]\n    ocr_confidence: [%s] # mean word confidence per page, 0-100; %.1f overall\n",
		strings.Join(pages, ", "), strings.Join(confs, ", "), o.Confidence)
	if len(low) > 0 {
		fmt.Fprintf(b, "    ocr_low_confidence_pages: [%s] # under %.0f\n", strings.Join(low, ", "), o.MinConfidence)
	}
}
