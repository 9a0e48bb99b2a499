package knowledge

import (
	"fmt"
	"path"
	"strings"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// TextBody chooses the version whose text is the file's body: the parsed
// L2 text when there is one, else the upload when it is text. read,
// search and the search index all use it, so a search hit's offset is a
// read offset.
func TextBody(bodies map[string]store.FileVersion) (store.FileVersion, bool) {
	raw, hasRaw := bodies[store.BodyRaw]
	if l2, ok := bodies[store.BodyL2]; ok && (!hasRaw || parsedFrom(l2, raw)) {
		return l2, true
	}
	if hasRaw && raw.IsText {
		return raw, true
	}
	return store.FileVersion{}, false
}

// parsedFrom tells whether l2 was parsed from raw; rows written before the
// source was recorded count as current when they are newer.
func parsedFrom(l2, raw store.FileVersion) bool {
	if l2.SourceVersionID != nil {
		return *l2.SourceVersionID == raw.ID
	}
	return l2.ID > raw.ID
}

// noBodyNote explains a file without a text body, naming the job that would
// make one instead of inventing content.
func noBodyNote(name string, bodies map[string]store.FileVersion) string {
	raw, ok := bodies[store.BodyRaw]
	if !ok {
		return "this file has no stored content yet"
	}
	if _, parsed := bodies[store.BodyL2]; parsed {
		return "this file was uploaded again after its text was extracted; a new parse job (compile) extracts the text of this upload"
	}
	if ext := strings.ToLower(path.Ext(name)); ext == ".doc" || extract.Supported(name) {
		return "this file has no text body yet: a parse job (started by compile) extracts its text; status shows whether one ran"
	}
	return fmt.Sprintf("this file is binary (%s) and has no text body; no parse step extracts text from it", raw.MediaType)
}
