package tools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/embed"
	"github.com/knowspace/knowspace/internal/store"
)

// Meaning search limits: an answer weighs the meaningChunks chunks nearest
// to the question in each root, and fusion adds 1/(fusionK + rank) of
// each list a file is in (reciprocal rank fusion; 60 is the constant of
// its paper, and what peers use).
// A chunk less than meaningFloor times as near as the nearest one is not
// an answer: a vector search always has a nearest chunk, and without a
// floor every file would "match" a question about anything.
const (
	meaningChunks = 100
	fusionK       = 60
	meaningFloor  = 0.5
)

// rankMeaning returns the files of the roots whose chunks lie nearest to
// the query's vector under the embedding model in use, best first (a
// file scores its nearest chunk), and adds each file's chunks, nearest
// first, to near.
func (t *Service) rankMeaning(ctx context.Context, p *hitPage, query string, roots []store.SearchRoot, near map[int64][]store.NearChunk) ([]store.RankedNode, error) {
	m := t.Meaning()
	key, err := m.Key(ctx)
	if err != nil {
		return nil, modelUnreachable(m.ID(), err)
	}
	vs, err := m.Embed(ctx, []string{query})
	if err != nil {
		return nil, modelUnreachable(m.ID(), err)
	}
	// Only files the index holds as they are now are searched by meaning:
	// while it is rebuilt (or, on PostgreSQL, after a crash emptied it),
	// the rest are missing.
	ready, err := p.indexReady(ctx)
	if err != nil {
		return nil, err
	}
	if !ready {
		p.incomplete = true
		p.notes = append(p.notes, "the index is being rebuilt, so files may be missing from this search by meaning; search again shortly, or use mode \"literal\", which reads every file")
	}
	var found []store.RankedNode
	for _, r := range roots {
		cs, err := t.Store().NearestChunks(ctx, store.FindNearest{Root: r, Model: key, Vec: vs[0], Limit: meaningChunks})
		if err != nil {
			return nil, apierr.Internal("search meaning: nearest chunks", err)
		}
		for _, c := range cs {
			if !p.glob.Match(relPath(p.call.baseOf(c.Node), c.Path)) {
				continue
			}
			if _, seen := near[c.ID]; !seen {
				found = append(found, store.RankedNode{Node: c.Node, Score: c.Similarity})
			}
			near[c.ID] = append(near[c.ID], c)
		}
		if p.cur.Path == "" {
			n, err := t.Store().CountUnembedded(ctx, r, key)
			if err != nil {
				return nil, apierr.Internal("search meaning: count unembedded files", err)
			}
			p.out.UnembeddedFiles += int(n)
		}
	}
	slices.SortStableFunc(found, byScore)
	if len(found) > 0 && found[0].Score > 0 {
		floor := meaningFloor * found[0].Score
		found = slices.DeleteFunc(found, func(n store.RankedNode) bool { return n.Score < floor })
		for id, cs := range near {
			near[id] = slices.DeleteFunc(cs, func(c store.NearChunk) bool { return c.Similarity < floor })
		}
	}
	if p.out.UnembeddedFiles > 0 {
		p.incomplete = true
		p.notes = append(p.notes, fmt.Sprintf("%d file(s) are still being embedded and were not searched by meaning; search again shortly", p.out.UnembeddedFiles))
	}
	return found, nil
}

// fuse merges a word ranking and a meaning ranking by reciprocal rank
// fusion: a file's score is the sum over the lists it is in of
// 1/(fusionK + its rank there), so a file both find near the top leads,
// and one that only one finds still comes.
func fuse(words, meaning []store.RankedNode) []store.RankedNode {
	at := map[int64]int{}
	var out []store.RankedNode
	for _, list := range [][]store.RankedNode{words, meaning} {
		for rank, n := range list {
			i, ok := at[n.ID]
			if !ok {
				i = len(out)
				at[n.ID] = i
				out = append(out, store.RankedNode{Node: n.Node})
			}
			out[i].Score += 1 / float64(fusionK+rank+1)
		}
	}
	slices.SortStableFunc(out, byScore)
	return out
}

// modelUnreachable is the answer when the embedding model fails a query:
// the search cannot be answered by meaning, and the words still can.
func modelUnreachable(id string, err error) error {
	var ee *embed.Error
	if errors.As(err, &ee) || !errors.Is(err, context.Canceled) {
		return apierr.New(http.StatusBadGateway, apierr.CodeEmbeddingFailed, "the embedding model %s did not embed the query (%v); search with mode \"ranked\" (words) or \"literal\" meanwhile", id, err)
	}
	return err
}
