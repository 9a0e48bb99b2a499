package tools

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// ls page sizes: a page of 100 ordinary entries is about 17 KiB of JSON,
// comfortably under MaxToolResultBytes.
const (
	DefaultToolListLimit = 50
	MaxToolListLimit     = 100
	maxToolOffset        = 1 << 40
)

// LsResult is one page of a folder's real children (SPEC §6).
type LsResult struct {
	knowledge.Listing
	Note string `json:"note,omitempty"`
}

var lsTool = toolDef{
	name: "ls",
	description: "List the direct children of a folder in the scope: folders first, then files, each by name. " +
		"Each item has uri, name, kind (dir|file), size in bytes, updated_at and generated (a compile artifact). " +
		"A document whose text is still being extracted after its upload has text_state text_pending (read or search it again shortly), one whose text could not be extracted text_failed. " +
		"A compiled folder also has abstract (the first part of its generated one-paragraph digest) and overview_uri: " +
		"read that overview before opening the folder's raw files, and open only the files it points you to. " +
		"A compiled file has summary_uri (its summary) and stale (true when the file changed since): prefer summaries for orientation, " +
		"but read the raw file itself before quoting it. " +
		"next_cursor continues the listing: pass it as cursor to get the next page; it is null when this page reaches the end. " +
		"Pages by cursor never repeat or skip an entry when the folder changes between calls.",
	tooBig: "ask for fewer items with a smaller limit",
	args: []argSpec{
		uriArg("The folder to list."),
		{Name: "cursor", Kind: argString, MaxChars: 4 * kb.MaxURIBytes, Description: "Where the page starts: the next_cursor string of the previous page, unchanged. Omit it for the first page."},
		{Name: "offset", Kind: argInteger, Min: 0, Max: maxToolOffset, Description: "How many children to skip (default 0); prefer cursor, which does not shift when the folder changes."},
		{Name: "limit", Kind: argInteger, Min: 1, Max: MaxToolListLimit, Description: fmt.Sprintf("How many children to return (default %d).", DefaultToolListLimit)},
	},
	run:    (*Service).runLs,
	result: reflect.TypeFor[*LsResult](),
}

func (t *Service) runLs(ctx context.Context, call toolCall) (any, string, error) {
	offset := call.args.integer("offset", 0)
	pr := knowledge.PageRequest{Cursor: call.args.str("cursor"), Offset: int(offset), Limit: int(call.args.integer("limit", DefaultToolListLimit))}
	if pr.Cursor != "" && pr.Offset != 0 {
		return nil, "", knowledge.InvalidCursor("and offset cannot be used together")
	}
	if call.shared {
		l, err := t.ListShared(ctx, call.c, pr)
		if err != nil {
			return nil, "", err
		}
		return lsResult(l, pr)
	}
	if !call.node.IsDir() {
		return nil, "", apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file, not a folder; use read to see its text", call.uri).WithDetail("uri", call.uri.String())
	}
	l, err := t.ListTarget(ctx, call.c, call.tg, pr)
	if err != nil {
		return nil, "", err
	}
	return lsResult(l, pr)
}

// lsResult words a page for the model, which only reads: access is left out.
func lsResult(l knowledge.Listing, pr knowledge.PageRequest) (any, string, error) {
	offset := pr.Offset
	l.Access = ""
	out := &LsResult{Listing: l}
	dirs := 0
	for _, it := range l.Items {
		if it.Kind == store.KindDir {
			dirs++
		}
	}
	switch {
	case len(l.Items) == 0 && pr.Cursor != "":
		out.Note = "nothing after this cursor: the listing is complete"
	case len(l.Items) == 0 && offset == 0:
		out.Note = "the folder is empty"
	case len(l.Items) == 0:
		out.Note = fmt.Sprintf("nothing at offset %d: the folder has %d children or fewer; start again from offset 0", offset, offset)
	}
	if err := fitAbstracts(out); err != nil {
		return nil, "", err
	}
	summary := fmt.Sprintf("%s (%s, %s)", counted(len(out.Items), "item"), counted(dirs, "folder"), counted(len(out.Items)-dirs, "file"))
	switch {
	case out.NextOffset != nil:
		summary += fmt.Sprintf("; more from offset %d or next_cursor", *out.NextOffset)
	case out.NextCursor != nil:
		summary += "; more from next_cursor"
	}
	return out, summary, nil
}

// lsBudget leaves room below MaxToolResultBytes for the tool's envelope.
const lsBudget = MaxToolResultBytes - 2<<10

// fitAbstracts shortens the folders' abstracts evenly when a page of many
// compiled folders would pass the result ceiling (100 abstracts of 300
// characters are about 30 KiB alone, three times that in CJK), and says so
// in the note: the overview holds the whole digest.
func fitAbstracts(out *LsResult) error {
	js, err := encodeResult(out)
	if err != nil || len(js) <= lsBudget {
		return err
	}
	n, used := 0, 0
	for _, it := range out.Items {
		if it.Abstract != "" {
			n++
			used += len(it.Abstract)
		}
	}
	if n == 0 {
		return nil
	}
	for over := len(js) - lsBudget; over > 0; {
		per := max(0, (used-over)/n)
		used = 0
		for i := range out.Items {
			if a := out.Items[i].Abstract; a != "" {
				out.Items[i].Abstract = clipBytes(a, per)
				used += len(out.Items[i].Abstract)
			}
		}
		out.Note = "abstracts are shortened to fit this page; read a folder's overview_uri for its whole digest, or list fewer items"
		if js, err = encodeResult(out); err != nil {
			return err
		}
		if over = len(js) - lsBudget; over > 0 && used == 0 {
			return nil // the rest is names and uris: the tool's size check answers
		}
	}
	return nil
}

// clipBytes keeps at most max bytes of s, the … included: unlike a quote,
// an abstract spends a share of the listing's byte budget, so the mark
// counts against it (and under four bytes there is no room for one and
// the text goes). The cut itself is kb.Clip's.
func clipBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	if max < len("…")+1 {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(kb.Clip(s, max-len("…")), "…")) + "…"
}
