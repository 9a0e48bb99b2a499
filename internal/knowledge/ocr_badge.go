package knowledge

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// ocrBodies tells which of a listing's files have a text body recognized
// by OCR. Only files OCR can read (images, PDFs) are looked up, so a page
// of notes costs no query.
func (t *Tree) ocrBodies(ctx context.Context, nodes []store.Node) (map[int64]bool, error) {
	var ids []int64
	for _, n := range nodes {
		if !n.IsDir() && extract.MayOCR(n.Name) {
			ids = append(ids, n.ID)
		}
	}
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	bodies, err := t.st.LatestBodies(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, b := range bodies {
		v, ok := TextBody(b)
		if !ok || v.Body != store.BodyL2 || v.ExtractionJSON == nil || !strings.Contains(*v.ExtractionJSON, `"source"`) {
			continue
		}
		var ex struct{ Source string }
		if json.Unmarshal([]byte(*v.ExtractionJSON), &ex) == nil && ex.Source == extract.SourceOCR {
			out[id] = true
		}
	}
	return out, nil
}
