package tools

import (
	"context"
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/knowledge"
)

// maxReadOffset bounds offsets in the schema; real bodies are far shorter.
const maxReadOffset = 1 << 40

// ReadResult is one page of a file's text body (SPEC §6): the same fields
// as GET /resources/content plus prev_offset, the start of the page before.
type ReadResult struct {
	knowledge.Page
	PrevOffset *int64 `json:"prev_offset"`
}

var readTool = toolDef{
	name: "read",
	description: fmt.Sprintf("Read a page of a file's text: at most %d characters (default %d), never cutting a character. "+
		"Offsets and lengths count Unicode code points. body says which text you got: l2 (parsed text), raw (the upload is text) or none (no text yet); "+
		"text_state text_pending means the text is still being extracted (read again shortly; say so rather than that the file lacks it), text_failed that it could not be (note says why). "+
		"total is the length of the whole text; next_offset starts the next page (null at the end), prev_offset the page before (null at the start). "+
		"Reading a folder's overview (overview_uri from ls) or a file's summary (summary_uri) first is cheaper than paging through raw files; "+
		"quote only from the raw file you read, not from a summary. "+
		"source \"ocr\" means the text was recognized from a scan or image (ocr_confidence is the mean word confidence, 0-100) and may contain recognition errors: say so when you quote it.",
		knowledge.MaxPageLimit, knowledge.DefaultPageLimit),
	tooBig: "read fewer characters with a smaller limit",
	args: []argSpec{
		uriArg("The file to read."),
		{Name: "offset", Kind: argInteger, Min: 0, Max: maxReadOffset, Description: "First character to read (default 0); pass next_offset or prev_offset of a page, or a search hit's offset."},
		{Name: "limit", Kind: argInteger, Min: 1, Max: knowledge.MaxPageLimit, Description: fmt.Sprintf("How many characters to read (default %d, at most %d).", knowledge.DefaultPageLimit, knowledge.MaxPageLimit)},
	},
	run:    (*Service).runRead,
	result: reflect.TypeFor[*ReadResult](),
}

func (t *Service) runRead(ctx context.Context, call toolCall) (any, string, error) {
	offset := call.args.integer("offset", 0)
	limit := call.args.integer("limit", knowledge.DefaultPageLimit)
	p, err := t.PageOf(ctx, call.uri, call.node, offset, limit)
	if err != nil {
		return nil, "", err
	}
	out := &ReadResult{Page: p}
	if offset > 0 && p.Body != "none" {
		prev := max(0, offset-limit)
		out.PrevOffset = &prev
	}
	switch {
	case p.Body == "none" && p.TextState != "":
		return out, p.TextState, nil
	case p.Body == "none":
		return out, "no text body", nil
	case p.Total == 0:
		return out, "empty file", nil
	case offset == p.Total:
		return out, fmt.Sprintf("end of text (%d characters)", p.Total), nil
	}
	end := offset + int64(utf8.RuneCountInString(p.Text))
	return out, fmt.Sprintf("characters %d–%d of %d (%s)", offset, end, p.Total, p.Body), nil
}
