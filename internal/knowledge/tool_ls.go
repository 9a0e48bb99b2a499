package knowledge

import (
	"context"
	"fmt"

	"github.com/knowspace/knowspace/internal/apierr"
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
	Listing
	Note string `json:"note,omitempty"`
}

var lsTool = toolDef{
	name: "ls",
	description: "List the direct children of a folder in the scope: folders first, then files, each by name. " +
		"Each item has uri, name, kind (dir|file), size in bytes, updated_at and generated (a compile artifact). " +
		"next_offset is the offset of the next page, or null when this page reaches the end.",
	tooBig: "ask for fewer items with a smaller limit",
	args: []argSpec{
		uriArg("The folder to list."),
		{Name: "offset", Kind: argInteger, Min: 0, Max: maxToolOffset, Description: "How many children to skip (default 0); pass the previous page's next_offset."},
		{Name: "limit", Kind: argInteger, Min: 1, Max: MaxToolListLimit, Description: fmt.Sprintf("How many children to return (default %d).", DefaultToolListLimit)},
	},
	run: (*Tree).runLs,
}

func (t *Tree) runLs(ctx context.Context, call toolCall) (any, string, error) {
	offset := call.args.integer("offset", 0)
	limit := call.args.integer("limit", DefaultToolListLimit)
	if call.shared {
		l, err := t.listShared(ctx, call.c, int(offset), int(limit))
		if err != nil {
			return nil, "", err
		}
		return lsResult(l, offset)
	}
	if !call.node.IsDir() {
		return nil, "", apierr.BadRequest("not_a_folder", "%s is a file, not a folder; use read to see its text", call.uri)
	}
	l, err := t.listPage(ctx, call.c, call.tg, int(offset), int(limit))
	if err != nil {
		return nil, "", err
	}
	return lsResult(l, offset)
}

// lsResult words a page for the model, which only reads: access is left out.
func lsResult(l Listing, offset int64) (any, string, error) {
	l.Access = ""
	out := &LsResult{Listing: l}
	dirs := 0
	for _, it := range l.Items {
		if it.Kind == store.KindDir {
			dirs++
		}
	}
	switch {
	case len(l.Items) == 0 && offset == 0:
		out.Note = "the folder is empty"
	case len(l.Items) == 0:
		out.Note = fmt.Sprintf("nothing at offset %d: the folder has %d children or fewer; start again from offset 0", offset, offset)
	}
	summary := fmt.Sprintf("%d items (%d folders, %d files)", len(out.Items), dirs, len(out.Items)-dirs)
	if out.NextOffset != nil {
		summary += fmt.Sprintf("; more from offset %d", *out.NextOffset)
	}
	return out, summary, nil
}
