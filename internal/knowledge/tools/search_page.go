package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// hitPage gathers one page of search results, file by file, within the
// page's limits: bytes read, hits shown and their share of the tool result.
type hitPage struct {
	t      *Service
	call   toolCall
	glob   index.Glob
	cur    searchCursor
	sc     *index.Scanner
	out    *SearchResult
	budget int64

	hitBytes  int
	hitsFull  bool
	next      *searchCursor // where the next page starts
	remaining bool          // files remain after next
	// stopWhenFull ends the page at the file that fills it (a walk of the
	// index's candidates pages by hits); a scan reads its files to the
	// page's end to count the ones that match.
	stopWhenFull bool
	// incomplete: files in scope were left out whatever the cursor says
	// (a ranked search's unranked files, or an index being rebuilt).
	incomplete bool
	notes      []string
	// ready is whether the index may answer, once asked (indexReady).
	ready *bool
}

// indexReady tells whether the index may answer this search, asking the
// store once however many rankings of the search need it. When it may
// not, the index writer is kicked: on PostgreSQL a database crash may
// have emptied the index while no write came to kick it.
func (p *hitPage) indexReady(ctx context.Context) (bool, error) {
	if p.ready == nil {
		ok, err := p.t.Store().SearchIndexReady(ctx)
		if err != nil {
			return false, apierr.Internal("search: index readiness", err)
		}
		if !ok {
			p.t.KickIndex()
		}
		p.ready = &ok
	}
	return *p.ready, nil
}

// visitAll scans files in order until the page is full; it tells whether
// it stopped before the end of files.
func (p *hitPage) visitAll(ctx context.Context, files []store.Node) (bool, error) {
	ids := make([]int64, len(files))
	for i, f := range files {
		ids[i] = f.ID
	}
	bodies, err := p.t.Store().LatestBodies(ctx, ids)
	if err != nil {
		return false, apierr.Internal("search page: latest bodies", err)
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		stop, err := p.visit(ctx, f, bodies[f.ID])
		if err != nil || stop {
			return true, err
		}
		if p.stopWhenFull && p.hitsFull {
			p.remaining = true
			return true, nil
		}
	}
	return false, nil
}

// visit scans one file from the cursor's position in it (or its start) and
// reports whether the page ended at it.
func (p *hitPage) visit(ctx context.Context, f store.Node, bodies map[string]store.FileVersion) (bool, error) {
	call, out, cur := p.call, p.out, p.cur
	if !p.glob.Match(relPath(call.baseOf(f), f.Path)) {
		p.next = p.cursorAt(f)
		return false, nil
	}
	v, ok := knowledge.TextBody(bodies)
	if !ok {
		out.SkippedNoText++
		p.next = p.cursorAt(f)
		return false, nil
	}
	start := index.Pos{}
	if cur.Mid && f.Path == cur.Path && (!call.shared || f.UserID == cur.Owner) {
		if hashPrefix(v.BlobHash) == cur.Hash && cur.Byte <= v.Size && cur.Char <= v.CharCount {
			start = index.Pos{Byte: cur.Byte, Char: cur.Char, Line: cur.Line, Accept: cur.Accept}
		} else {
			p.notes = append(p.notes, fmt.Sprintf("%s changed since the previous page and was searched again from its start", call.fileURI(f)))
		}
	}
	if out.Scanned > 0 && v.Size-start.Byte > p.budget {
		p.remaining = true // this page's byte budget is spent; the file starts the next page
		return true, nil
	}
	// A folder search shows a few hits per file; a file's own search pages
	// through all of its hits.
	alone := !call.shared && !call.node.IsDir()
	maxHits := MaxSearchHitsPerFile
	if alone {
		maxHits = MaxSearchHitsPerPage
	}
	if p.hitsFull {
		maxHits = 0
	}
	maxHits = min(maxHits, MaxSearchHitsPerPage-len(out.Hits))
	res, err := p.t.scanBlob(ctx, p.sc, v, start, maxHits, maxHits, p.budget)
	if err != nil {
		return false, err
	}
	p.budget -= res.Read
	out.BytesRead += res.Read
	out.Scanned++
	uri := call.fileURI(f)
	shownAll := p.show(f, res.Hits)
	if len(res.Hits) > 0 || res.More {
		out.MatchedFiles++
	}
	p.next = p.cursorAt(f)
	if alone && res.More && shownAll && res.After != nil {
		p.next.Mid, p.next.Hash = true, hashPrefix(v.BlobHash)
		p.next.Byte, p.next.Char, p.next.Line, p.next.Accept = res.After.Byte, res.After.Char, res.After.Line, res.After.Accept
		p.remaining = true
		return true, nil
	}
	if res.More || !shownAll {
		out.MoreHitsIn = append(out.MoreHitsIn, uri)
	}
	if res.Resume != nil {
		p.next.Mid, p.next.Hash = true, hashPrefix(v.BlobHash)
		p.next.Byte, p.next.Char, p.next.Line, p.next.Accept = res.Resume.Byte, res.Resume.Char, res.Resume.Line, res.Resume.Accept
		out.Partial = &SearchPartial{URI: uri, Offset: res.Resume.Char}
		p.notes = append(p.notes, fmt.Sprintf("%s was searched up to character %d (the page's %d-byte read limit); the next page continues there",
			uri, res.Resume.Char, MaxSearchPageBytes))
		p.remaining = true
		return true, nil
	}
	return false, nil
}

// show adds a file's hits to the page while they fit; it tells whether all
// of them did.
func (p *hitPage) show(f store.Node, hits []index.Hit) bool {
	uri, generated := p.call.fileURI(f), knowledge.IsGenerated(f)
	shownAll := true
	for _, h := range hits {
		size := len(uri) + len(h.Snippet) + 48
		if p.hitsFull || p.hitBytes+size > searchHitsBudgetBytes {
			p.hitsFull, shownAll = true, false
			continue
		}
		p.hitBytes += size
		p.out.Hits = append(p.out.Hits, SearchHit{URI: uri, Line: h.Line, Offset: h.Offset, Snippet: h.Snippet, Generated: generated})
	}
	if len(p.out.Hits) >= MaxSearchHitsPerPage {
		p.hitsFull = true
	}
	return shownAll
}

// cursorAt is a cursor just after f, in the page's kind of walk.
func (p *hitPage) cursorAt(f store.Node) *searchCursor {
	c := p.call.cursorAt(f)
	c.Index, c.Dense = p.out.Mode == "index", p.cur.Dense
	return c
}

// finish words the page: its cursor, completeness and notes.
func (p *hitPage) finish() (any, string, error) {
	out := p.out
	if p.remaining && p.next != nil {
		out.NextOffset = p.next.encode()
	}
	out.Complete = out.NextOffset == nil && out.PendingFiles == 0 && !p.incomplete
	if len(out.MoreHitsIn) > 0 {
		p.notes = append(p.notes, "files in more_hits_in have more matches than shown; search them one at a time or read around the offsets")
	}
	if out.SkippedNoText > 0 {
		p.notes = append(p.notes, fmt.Sprintf("%d file(s) have no text body yet (binary or not parsed) and were not searched", out.SkippedNoText))
	}
	if out.PendingFiles > 0 {
		p.notes = append(p.notes, fmt.Sprintf("%d document(s) are still having their text extracted after upload and were not searched: say so, and search again in a few seconds", out.PendingFiles))
	}
	switch {
	case out.NextOffset != nil && out.Ranked:
		p.notes = append(p.notes, "more matching files follow, less relevant: call search again with offset = next_offset")
	case out.NextOffset != nil:
		p.notes = append(p.notes, "not every file was searched yet: call search again with offset = next_offset")
	}
	out.Note = strings.Join(p.notes, "; ")
	summary := fmt.Sprintf("%s in %d of %s scanned", counted(len(out.Hits), "hit"), out.MatchedFiles, counted(out.Scanned, "file"))
	switch out.Mode {
	case "index":
		summary = fmt.Sprintf("%s in %s (index: %s read)", counted(len(out.Hits), "hit"), counted(out.MatchedFiles, "file"), counted(out.Scanned, "candidate"))
	case ModeRanked, ModeMeaning, ModeHybrid:
		summary = fmt.Sprintf("%s: %s from the best %d of %s", out.Mode, counted(len(out.Hits), "passage"), out.Scanned, counted(out.MatchedFiles, "matching file"))
	}
	if out.NextOffset != nil {
		summary += " (partial: more files remain)"
	}
	if out.PendingFiles > 0 {
		summary += fmt.Sprintf(" (%d file(s) pending text extraction, not searched)", out.PendingFiles)
	}
	return out, summary, nil
}
