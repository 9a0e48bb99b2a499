package knowledge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/store"
)

// markExtractions records, inside the write that changed them, which
// documents lack text parsed from their current upload: the extraction
// workers (internal/ingest) parse them after the write commits, with no
// model. A document whose current upload is parsed needs no row.
func (t *Tree) markExtractions(ctx context.Context, tx *store.Store, bodies map[int64]map[string]store.FileVersion, ids []int64) (int, error) {
	var unparsed, parsed []int64
	for _, id := range ids {
		raw, ok := bodies[id][store.BodyRaw]
		if !ok {
			continue
		}
		if l2, ok := bodies[id][store.BodyL2]; ok && parsedFrom(l2, raw) {
			parsed = append(parsed, id)
			continue
		}
		unparsed = append(unparsed, id)
	}
	if err := tx.DropExtractions(ctx, parsed); err != nil {
		return 0, err
	}
	if len(unparsed) == 0 {
		return 0, nil
	}
	nodes, err := tx.NodesByIDs(ctx, unparsed)
	if err != nil {
		return 0, err
	}
	var marks []store.ExtractionMark
	for _, n := range nodes {
		if extract.Supported(n.Name) {
			marks = append(marks, store.ExtractionMark{UserID: n.UserID, NodeID: n.ID, VersionID: bodies[n.ID][store.BodyRaw].ID})
		}
	}
	return len(marks), tx.MarkExtractions(ctx, marks)
}

// BackfillExtractions marks, once per database, the documents stored
// before automatic extraction was on that still lack text from their
// current upload, in small transactions; it returns how many it marked.
// A server runs it in the background after start.
func (t *Tree) BackfillExtractions(ctx context.Context) (int, error) {
	if t.extracted == nil {
		return 0, nil
	}
	if done, err := t.st.ExtractBackfillDone(ctx); err != nil || done {
		return 0, err
	}
	marked := 0
	var after int64
	for {
		ids, err := t.st.FileIDsAfter(ctx, after, 500)
		if err != nil {
			return marked, err
		}
		if len(ids) == 0 {
			break
		}
		err = t.st.InTx(ctx, func(tx *store.Store) error {
			bodies, err := tx.LatestBodies(ctx, ids)
			if err != nil {
				return err
			}
			n, err := t.markExtractions(ctx, tx, bodies, ids)
			marked += n
			return err
		})
		if err != nil {
			return marked, err
		}
		after = ids[len(ids)-1]
		if marked > 0 {
			t.extracted()
		}
	}
	return marked, t.st.MarkExtractBackfillDone(ctx)
}

// Text states of a file whose text is not there (yet), for read, ls and
// search.
const (
	TextPending = "text_pending"
	TextFailed  = "text_failed"
)

// textStates gives the text state of a listing's documents that wait for
// extraction or failed at it, and how far a running one has come. Only
// documents are looked up, so a page of notes costs no query.
func (t *Tree) textStates(ctx context.Context, nodes []store.Node) (map[int64]textState, error) {
	var ids []int64
	for _, n := range nodes {
		if !n.IsDir() && extract.Supported(n.Name) {
			ids = append(ids, n.ID)
		}
	}
	out := map[int64]textState{}
	if len(ids) == 0 || t.extracted == nil {
		return out, nil
	}
	es, err := t.st.ExtractionsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	for id, e := range es {
		out[id] = stateOf(e)
	}
	return out, nil
}

// textState is whether a document's text waits for extraction or failed
// at it (code), why it failed, and how far a running extraction has come.
type textState struct {
	code, reason string
	progress     *extract.Progress
}

func stateOf(e store.Extraction) textState {
	if e.State == store.ExtractionFailed {
		return textState{code: TextFailed, reason: e.ErrorMessage}
	}
	st := textState{code: TextPending}
	if e.State == store.ExtractionRunning && e.PagesOf > 0 {
		st.progress = &extract.Progress{Pages: e.PagesRead, Of: e.PagesOf}
	}
	return st
}

// textState says whether n's text is waiting for extraction or failed at
// it; the zero value when neither.
func (t *Tree) textState(ctx context.Context, n store.Node) (textState, error) {
	// Every page read asks: only documents, and only with automatic
	// extraction on, can have a row, so the others cost no query.
	if t.extracted == nil || !extract.Supported(n.Name) {
		return textState{}, nil
	}
	e, err := t.st.ExtractionOf(ctx, n.ID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return textState{}, nil
	case err != nil:
		return textState{}, err
	}
	return stateOf(e), nil
}

// ParsedResult returns the extraction of upload v that n's L2 body holds,
// when its current L2 was parsed from v: compile reuses what automatic
// extraction made instead of parsing the same bytes again.
func (t *Tree) ParsedResult(ctx context.Context, n store.Node, v store.FileVersion) (extract.Result, bool, error) {
	l2, err := t.st.LatestVersion(ctx, n.ID, store.BodyL2)
	if errors.Is(err, store.ErrNotFound) {
		return extract.Result{}, false, nil
	}
	if err != nil {
		return extract.Result{}, false, err
	}
	if l2.SourceVersionID == nil || *l2.SourceVersionID != v.ID || l2.ExtractionJSON == nil {
		return extract.Result{}, false, nil
	}
	var res extract.Result
	if json.Unmarshal([]byte(*l2.ExtractionJSON), &res) != nil {
		return extract.Result{}, false, nil // parse again rather than trust it
	}
	f, err := t.blobs.Open(l2.BlobHash)
	if err != nil {
		return extract.Result{}, false, fmt.Errorf("open l2 of %s: %w", n.Path, err)
	}
	defer f.Close()
	text, err := io.ReadAll(io.NewSectionReader(f, 0, l2.Size))
	if err != nil {
		return extract.Result{}, false, fmt.Errorf("read l2 of %s: %w", n.Path, err)
	}
	res.Text = string(text)
	col, err := t.st.PageStartsOf(ctx, l2.ID)
	if err != nil {
		return extract.Result{}, false, err
	}
	for ps := range store.PageStartsFrom(col, 0) {
		res.PageStarts = append(res.PageStarts, extract.PageStart{Page: ps.Page, Offset: ps.Offset})
	}
	return res, true, nil
}

// AutoExtracts tells whether documents get their text without a compile, so
// a search can count those still waiting instead of calling them textless.
func (t *Tree) AutoExtracts() bool { return t.extracted != nil }
