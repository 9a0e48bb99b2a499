package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/rank"
	"github.com/knowspace/knowspace/internal/store"
)

// Ranked search limits: an answer weighs the best rankedCap files of the
// word index and reorders the best rerankDepth of them by the proximity of
// the query's words (proximityWeight: a file whose best passage holds
// every word scores twice its BM25); a page shows rankedFilesPerPage files
// with up to passagesPerFile passages each. Measured on the known-answer
// set (docs/BENCHMARKS.md): the reordering is what lifts ranked above
// plain BM25.
const (
	rankedCap          = 200
	rankedFilesPerPage = 10
	passagesPerFile    = 3
	rerankDepth        = 30
	proximityWeight    = 1.0
	generatedWeight    = 0.5
)

// searchRetrieval answers a search in mode ranked, meaning or hybrid:
// the word index, the chunks' vectors, or both fused, score the files of
// the call's roots (the roots are part of every query, so nothing outside
// the scope is scored), and each file of the page shows its best passages,
// read from its text body.
func (t *Service) searchRetrieval(ctx context.Context, p *hitPage, query, mode string) error {
	q := rank.ParseQuery(query)
	if q.Empty() && mode == ModeRanked {
		return invalidArgs("search: mode \"ranked\" needs a query with at least one word (letters or digits); use mode \"literal\" for other text")
	}
	p.out.Mode, p.out.Ranked = mode, true
	roots := t.searchRoots(p.call)
	texts := map[int64]rank.Analysis{}
	var found []store.RankedNode
	if mode != ModeMeaning && !q.Empty() {
		var err error
		if found, err = t.rankWords(ctx, p, q, roots, texts); err != nil {
			return err
		}
	}
	near := map[int64][]store.NearChunk{}
	if mode != ModeRanked {
		byMeaning, err := t.rankMeaning(ctx, p, query, roots, near)
		var ae *apierr.Error
		if mode == ModeHybrid && errors.As(err, &ae) && ae.Code == apierr.CodeEmbeddingFailed {
			// The words still answer; the answer says what it lacks.
			p.incomplete = true
			p.notes = append(p.notes, ae.Message)
			err = nil
		}
		if err != nil {
			return err
		}
		if mode == ModeMeaning {
			found = byMeaning
		} else {
			found = fuse(found, byMeaning)
		}
	}
	if err := t.demoteGenerated(ctx, found); err != nil {
		return err
	}
	p.out.MatchedFiles = len(found)
	if p.cur.Path == "" && mode != ModeMeaning {
		if err := t.countUnranked(ctx, p, roots); err != nil {
			return err
		}
	}
	if p.cur.Path == "" {
		if err := t.countNoText(ctx, p, roots); err != nil {
			return err
		}
	}
	skip := min(p.cur.Skip, len(found))
	page := found[skip:]
	if len(page) > rankedFilesPerPage {
		page = page[:rankedFilesPerPage]
	}
	if err := t.analyse(ctx, page, q, p, texts); err != nil {
		return err
	}
	shown := 0
	for _, f := range page {
		if err := ctx.Err(); err != nil {
			return err
		}
		a, ok := texts[f.ID]
		if !ok {
			continue // its text went away since the index ranked it
		}
		p.out.Scanned++
		hits := rankedPassages(a, near[f.ID])
		if len(p.out.Hits) > 0 && p.hitBytes+hitsSize(p.call.fileURI(f.Node), hits) > searchHitsBudgetBytes {
			break
		}
		p.show(f.Node, hits)
		shown++
	}
	if skip+shown < len(found) {
		last := found[skip+shown-1].Node
		if shown == 0 {
			last = found[skip].Node
		}
		c := p.call.cursorAt(last)
		c.Index, c.Skip = true, skip+max(shown, 1)
		p.next, p.remaining = c, true
	}
	return nil
}

// rankWords returns the files of the roots that hold the query's words,
// best first by BM25 and the proximity of the words.
func (t *Service) rankWords(ctx context.Context, p *hitPage, q rank.Query, roots []store.SearchRoot, texts map[int64]rank.Analysis) ([]store.RankedNode, error) {
	ready, err := p.indexReady(ctx)
	if err != nil {
		return nil, err
	}
	if !ready {
		p.notes = append(p.notes, "the word index is being rebuilt, so files may be missing from this ranking; search again shortly, or use mode \"literal\", which reads every file")
		p.incomplete = true
	}
	var found []store.RankedNode
	capped := false
	for _, r := range roots {
		ns, err := t.Store().RankFiles(ctx, store.FindRanked{Root: r, FTS5: q.FTS5(), Words: q.Words, Bigrams: q.Bigrams, Limit: rankedCap + 1})
		if err != nil {
			return nil, apierr.Internal("search ranked: word index", err)
		}
		if len(ns) > rankedCap {
			ns, capped = ns[:rankedCap], true
		}
		found = append(found, ns...)
	}
	found = slices.DeleteFunc(found, func(n store.RankedNode) bool {
		return !p.glob.Match(relPath(p.call.baseOf(n.Node), n.Path))
	})
	slices.SortStableFunc(found, byScore)
	if len(found) > rankedCap {
		found, capped = found[:rankedCap], true
	}
	if err := t.rerankByProximity(ctx, found, q, p, texts); err != nil {
		return nil, err
	}
	if capped {
		p.notes = append(p.notes, fmt.Sprintf("more than %d files match some word of the query; only the best %d are ranked: add words or search a narrower folder", rankedCap, rankedCap))
	}
	return found, nil
}

// demoteGenerated weighs the files compile made by generatedWeight, and
// puts a summary below its source when both are found: a summary holds its
// source's words in fewer of them, so the word index and the vectors alike
// score it above the file it retells, which is what an answer should cite.
func (t *Service) demoteGenerated(ctx context.Context, found []store.RankedNode) error {
	score := make(map[int64]float64, len(found))
	var generated []int64
	for _, f := range found {
		score[f.ID] = f.Score
		if knowledge.IsGenerated(f.Node) {
			generated = append(generated, f.ID)
		}
	}
	if len(generated) == 0 {
		return nil
	}
	provs, err := t.Store().ProvenancesOf(ctx, generated)
	if err != nil {
		return apierr.Internal("search ranked: provenance", err)
	}
	for i, f := range found {
		if !knowledge.IsGenerated(f.Node) {
			continue
		}
		s := f.Score * generatedWeight
		if src := provs[f.ID].SourceNodeID; src != nil {
			if srcScore, ok := score[*src]; ok {
				s = min(s, srcScore*generatedWeight)
			}
		}
		found[i].Score = s
	}
	slices.SortStableFunc(found, byScore)
	return nil
}

func byScore(a, b store.RankedNode) int {
	return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.UserID, b.UserID), strings.Compare(a.Path, b.Path))
}

// rankText reads the part of a ranked file's text body the word index
// holds; ok is false when the file or its text went away since.
func (t *Service) rankText(ctx context.Context, f store.Node, bodies map[string]store.FileVersion, p *hitPage) (string, bool, error) {
	v, ok := knowledge.TextBody(bodies)
	if !ok {
		return "", false, nil
	}
	r, err := t.Blobs().Open(v.BlobHash)
	if err != nil && t.Gone(ctx, f.ID) {
		return "", false, nil
	}
	if err != nil {
		return "", false, apierr.Internal("search ranked: open blob "+v.BlobHash, err)
	}
	defer r.Close()
	size := min(v.Size, rank.MaxBodyBytes)
	buf := make([]byte, size)
	if _, err := io.ReadFull(io.NewSectionReader(r, 0, size), buf); err != nil {
		return "", false, apierr.Internal("search ranked: read blob "+v.BlobHash, err)
	}
	p.out.BytesRead += size
	return strings.ToValidUTF8(string(buf), "\uFFFD"), true, nil
}

// rankedPassages returns a ranked file's best passages as hits: the lines
// holding the most of the query's words, else the chunks a meaning search
// found nearest; a file that matched by its name alone shows its first
// line.
func rankedPassages(a rank.Analysis, near []store.NearChunk) []index.Hit {
	var hits []index.Hit
	for _, ps := range a.Passages(passagesPerFile) {
		hits = append(hits, index.Hit{Line: ps.Line, Offset: ps.Offset, Snippet: ps.Snippet})
	}
	if len(hits) == 0 {
		for _, c := range near[:min(len(near), passagesPerFile)] {
			ps := a.Within(c.Start, c.End, int64(c.Line))
			if !slices.ContainsFunc(hits, func(h index.Hit) bool { return h.Line == ps.Line }) {
				hits = append(hits, index.Hit{Line: ps.Line, Offset: ps.Offset, Snippet: ps.Snippet})
			}
		}
	}
	if len(hits) == 0 {
		hits = append(hits, index.Hit{Line: 1, Snippet: a.Lead()})
	}
	return hits
}

// analyse adds to texts, by node id, the analysis of the files it lacks.
func (t *Service) analyse(ctx context.Context, files []store.RankedNode, q rank.Query, p *hitPage, texts map[int64]rank.Analysis) error {
	var ids []int64
	for _, f := range files {
		if _, ok := texts[f.ID]; !ok {
			ids = append(ids, f.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	bodies, err := t.Store().LatestBodies(ctx, ids)
	if err != nil {
		return apierr.Internal("search ranked: latest bodies", err)
	}
	for _, f := range files {
		if _, ok := texts[f.ID]; ok {
			continue
		}
		text, ok, err := t.rankText(ctx, f.Node, bodies[f.ID], p)
		if err != nil {
			return err
		}
		if ok {
			texts[f.ID] = rank.Analyze(text, q)
		}
	}
	return nil
}

// rerankByProximity reorders the best rerankDepth files: a file's score
// grows by proximityWeight times the share of the query's terms that its
// best passage holds together (rank.Proximity).
func (t *Service) rerankByProximity(ctx context.Context, found []store.RankedNode, q rank.Query, p *hitPage, texts map[int64]rank.Analysis) error {
	top := found[:min(len(found), rerankDepth)]
	if len(q.Terms()) < 2 || len(top) < 2 {
		return nil
	}
	if err := t.analyse(ctx, top, q, p, texts); err != nil {
		return err
	}
	for i := range top {
		top[i].Score *= 1 + proximityWeight*texts[top[i].ID].Proximity()
	}
	slices.SortStableFunc(top, byScore)
	return nil
}

func hitsSize(uri string, hits []index.Hit) int {
	n := 0
	for _, h := range hits {
		n += len(uri) + len(h.Snippet) + 48
	}
	return n
}

// countUnranked counts, on a ranked search's first page, the files in
// scope whose text the word index does not hold as it is now.
func (t *Service) countUnranked(ctx context.Context, p *hitPage, roots []store.SearchRoot) error {
	for _, r := range roots {
		n, err := t.Store().CountUnranked(ctx, r)
		if err != nil {
			return apierr.Internal("search ranked: count unranked files", err)
		}
		p.out.UnrankedFiles += int(n)
	}
	if p.out.UnrankedFiles > 0 {
		p.incomplete = true
		p.notes = append(p.notes, fmt.Sprintf("%d file(s) are still being indexed (or too large for the word index) and were not ranked; mode \"literal\" reads them", p.out.UnrankedFiles))
	}
	return nil
}
