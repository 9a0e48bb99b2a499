package knowledge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/blob"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// Page limits, in code points (SPEC §6).
const (
	DefaultPageLimit = 3000
	MaxPageLimit     = 6000
)

// Page is one window of a file's text body (SPEC §4).
type Page struct {
	URI        string `json:"uri"`
	Offset     int64  `json:"offset"`
	Limit      int64  `json:"limit"`
	NextOffset *int64 `json:"next_offset"`
	Total      int64  `json:"total"`
	Body       string `json:"body"` // "l2", "raw" or "none"
	Text       string `json:"text"`
	Note       string `json:"note,omitempty"`
	// TextState is text_pending while the upload's text is being
	// extracted (Body is none, or raw for a web page's source) and
	// text_failed when extraction failed (Note says why).
	TextState string `json:"text_state,omitempty"`
	// TextProgress is how far a running extraction has come.
	TextProgress *extract.Progress `json:"text_progress,omitempty"`
	// Extraction says, for an L2 body, how the text was extracted
	// (extractor, pages, pages lost, truncation).
	Extraction json.RawMessage `json:"extraction,omitempty"`
	// Encoding is the text encoding of the uploaded bytes (e.g. "gb18030"),
	// absent for documents and binary files; Text is always UTF-8.
	Encoding string `json:"encoding,omitempty"`
	// Source is "ocr" when the text was recognized from pixels (a scan or
	// an image) and may hold recognition errors; OCRConfidence is its mean
	// word confidence (0–100) and OCRLowPages the pages under the floor.
	Source        string   `json:"source,omitempty"`
	OCRConfidence *float64 `json:"ocr_confidence,omitempty"`
	OCRLowPages   []int    `json:"ocr_low_confidence_pages,omitempty"`
	// Pages are the document's pages (1-based) whose text this window
	// shows, for a PDF whose extraction recorded where its pages begin.
	Pages []int `json:"pages,omitempty"`
	// starts is where each page begins in the body (the version's
	// page_starts column), kept out of the answer: one entry per page would
	// weigh on every read of a long document.
	starts string
}

// markPages names the pages whose text the window [Offset, Offset+len(Text))
// holds: each page runs from its start to the next page's. The scan starts
// at the page holding Offset and stops at the first page past the window.
func (p *Page) markPages() {
	end := p.Offset + int64(utf8.RuneCountInString(p.Text))
	prev, seen := store.PageStart{}, false
	for s := range store.PageStartsFrom(p.starts, p.Offset) {
		if seen && prev.Offset < end && s.Offset > p.Offset {
			p.Pages = append(p.Pages, prev.Page)
		}
		if s.Offset >= end {
			return
		}
		prev, seen = s, true
	}
	if seen && prev.Offset < end && p.Total > p.Offset {
		p.Pages = append(p.Pages, prev.Page)
	}
}

// markExtraction copies what the extraction says of OCR onto the page, and
// returns the format the extraction names.
func (p *Page) markExtraction() (format string) {
	var ex struct {
		Format string           `json:"format"`
		Source string           `json:"source"`
		OCR    *extract.OCRInfo `json:"ocr"`
	}
	if json.Unmarshal(p.Extraction, &ex) != nil || ex.Source != extract.SourceOCR || ex.OCR == nil {
		return ex.Format
	}
	p.Source, p.OCRConfidence = ex.Source, &ex.OCR.Confidence
	for _, pg := range ex.OCR.Pages {
		if pg.LowConfidence {
			p.OCRLowPages = append(p.OCRLowPages, pg.Page)
		}
	}
	return ex.Format
}

// ReadPage returns limit code points of the file's text body from offset:
// the parsed L2 text when there is one, else the raw bytes when they are
// text. limit 0 means the default.
func (t *Tree) ReadPage(ctx context.Context, c kb.Caller, raw string, offset, limit int64) (Page, error) {
	if limit == 0 {
		limit = DefaultPageLimit
	}
	if limit < 1 || limit > MaxPageLimit {
		return Page{}, apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d characters", MaxPageLimit).WithDetail("max", MaxPageLimit)
	}
	if offset < 0 {
		return Page{}, apierr.BadRequest(apierr.CodeInvalidOffset, "offset must be 0 or more")
	}
	u, n, err := t.Resolve(ctx, c, raw)
	if err != nil {
		return Page{}, err
	}
	return t.PageOf(ctx, u, n, offset, limit)
}

// PageOf reads one page of a resolved file; the API and the read tool share
// it so their offsets, notes and errors agree.
func (t *Tree) PageOf(ctx context.Context, u kb.URI, n store.Node, offset, limit int64) (Page, error) {
	if n.IsDir() {
		return Page{}, apierr.BadRequest(apierr.CodeNotAFile, "%s is a folder; use ls to list it instead of reading it", u).WithDetail("uri", u.String())
	}
	all, err := t.st.LatestBodies(ctx, []int64{n.ID})
	if err != nil {
		return Page{}, apierr.Internal("read page: latest body", err)
	}
	if len(all[n.ID]) == 0 && t.Gone(ctx, n.ID) {
		return Page{}, NotFound(u.String())
	}
	p := Page{URI: u.String(), Offset: offset, Limit: limit, Encoding: encodingOf(all[n.ID])}
	state, err := t.textState(ctx, n)
	if err != nil {
		return Page{}, apierr.Internal("read page: text state", err)
	}
	p.TextState, p.TextProgress = state.code, state.progress
	v, ok := TextBody(all[n.ID])
	if !ok {
		if offset > 0 {
			return Page{}, apierr.BadRequest(apierr.CodeOffsetOutOfRange, "offset %d is past the end of %s, which has no text body", offset, u)
		}
		p.Body, p.Note = "none", noBodyNote(n.Name, all[n.ID])
		switch state.code {
		case TextPending:
			p.Note = "the text of this file is being extracted; read it again in a few seconds"
			if pr := state.progress; pr != nil {
				p.Note = fmt.Sprintf("the text of this file is being extracted (%d of %d pages read); read it again later", pr.Pages, pr.Of)
			}
		case TextFailed:
			p.Note = "extracting the text of this file failed: " + state.reason
		}
		return p, nil
	}
	p.Body, p.Total = v.Body, v.CharCount
	if v.ExtractionJSON != nil {
		p.Extraction = json.RawMessage(*v.ExtractionJSON)
		if p.markExtraction() == "pdf" {
			if p.starts, err = t.st.PageStartsOf(ctx, v.ID); err != nil {
				return Page{}, apierr.Internal("read page: page starts", err)
			}
		}
	}
	switch {
	case offset > p.Total:
		return Page{}, apierr.BadRequest(apierr.CodeOffsetOutOfRange,
			"offset %d is past the end of %s, which has %d characters; the last page starts at %d",
			offset, u, p.Total, max(0, p.Total-limit))
	case p.Total == 0:
		p.Note = "the file is empty"
		return p, nil
	case offset == p.Total:
		p.Note = fmt.Sprintf("offset %d is the end of the text; nothing follows", offset)
		return p, nil
	}
	p.Text, err = t.blobs.ReadChars(v.BlobHash, offset, limit)
	if err != nil {
		if t.Gone(ctx, n.ID) {
			return Page{}, NotFound(u.String())
		}
		return Page{}, apierr.Internal("read "+u.String(), err)
	}
	if end := offset + int64(utf8.RuneCountInString(p.Text)); end < p.Total {
		p.NextOffset = &end
	}
	p.markPages()
	return p, nil
}

// Gone tells whether a node read a moment ago has been deleted meanwhile:
// a read racing a delete answers 404, while bytes missing under a live node
// stay a 500 (damage fsck reports).
// A deleted file's versions go with it, so their absence is the test.
func (t *Tree) Gone(ctx context.Context, nodeID int64) bool {
	_, err := t.st.LatestVersion(ctx, nodeID, store.BodyRaw)
	return errors.Is(err, store.ErrNotFound)
}

// textBody picks the version whose text is the file's body.
func (t *Tree) textBody(ctx context.Context, n store.Node) (store.FileVersion, error) {
	all, err := t.st.LatestBodies(ctx, []int64{n.ID})
	if err != nil {
		return store.FileVersion{}, err
	}
	v, ok := TextBody(all[n.ID])
	if !ok {
		return store.FileVersion{}, store.ErrNotFound
	}
	return v, nil
}

// RawFile is an open handle on a file's uploaded bytes.
type RawFile struct {
	blob.File
	Name      string
	MediaType string
	Size      int64
	// Hash names the bytes (their content hash): what is drawn or derived
	// from them may be cached under it.
	Hash string
}

// OpenRaw opens the latest uploaded bytes of a file; the caller closes it.
func (t *Tree) OpenRaw(ctx context.Context, c kb.Caller, raw string) (RawFile, error) {
	u, n, err := t.Resolve(ctx, c, raw)
	if err != nil {
		return RawFile{}, err
	}
	if n.IsDir() {
		return RawFile{}, apierr.BadRequest(apierr.CodeNotAFile, "%s is a folder", u).WithDetail("uri", u.String())
	}
	v, err := t.st.LatestVersion(ctx, n.ID, store.BodyRaw)
	if errors.Is(err, store.ErrNotFound) && t.Gone(ctx, n.ID) {
		return RawFile{}, NotFound(u.String())
	}
	if err != nil {
		return RawFile{}, apierr.Internal("open raw: latest version", err)
	}
	f, err := t.blobs.Open(v.BlobHash)
	if err != nil {
		if t.Gone(ctx, n.ID) {
			return RawFile{}, NotFound(u.String())
		}
		return RawFile{}, apierr.Internal("open raw: blob", err)
	}
	return RawFile{File: f, Name: n.Name, MediaType: v.MediaType, Size: v.Size, Hash: v.BlobHash}, nil
}
