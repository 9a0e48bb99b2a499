package tools

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/index"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// rankCap is the most candidate files a ranked answer weighs; a query with
// more (a common word) is answered in path order, a page at a time.
const rankCap = 200

// candidateBatch is how many candidates a path-order page asks for at once.
const candidateBatch = 200

// rankCount is how far a ranked answer counts a file's matches: beyond it,
// more matches do not make a file rank higher.
const rankCount = 100

// Tiers of a ranked file: its name contains the query, or a Markdown
// heading does, or neither.
const (
	tierBody = iota
	tierHeading
	tierName
)

// rankKey orders the files of a ranked answer: originals before the
// summaries compile made of them, then by tier, then files with more
// matches, then owner and path.
type rankKey struct {
	Generated bool   `json:"g,omitempty"`
	Tier      int    `json:"t,omitempty"`
	Count     int    `json:"n"`
	Owner     int64  `json:"u,omitempty"`
	Path      string `json:"p"`
}

func (a rankKey) compare(b rankKey) int {
	return cmp.Or(compareBool(a.Generated, b.Generated), cmp.Compare(b.Tier, a.Tier), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Owner, b.Owner), strings.Compare(a.Path, b.Path))
}

// searchIndexed answers from the index: its candidates, each confirmed by
// the exact matcher. When few enough candidates exist, all are read and
// ranked; otherwise they are read in path order, a page at a time.
func (t *Service) searchIndexed(ctx context.Context, p *hitPage, lits []string) error {
	p.out.Mode = "index"
	roots := t.searchRoots(p.call)
	if p.cur.Path == "" {
		if err := t.countNoText(ctx, p, roots); err != nil {
			return err
		}
	}
	if p.cur.Path == "" || p.cur.Rank != nil {
		cands, capped, err := t.candidates(ctx, roots, lits)
		if err != nil {
			return err
		}
		var size int64
		for _, c := range cands {
			size += c.Size
		}
		if !capped && size <= MaxSearchPageBytes {
			return t.searchRanked(ctx, p, cands)
		}
		if p.cur.Rank != nil {
			p.notes = append(p.notes, "the files matching changed since the previous page, too many to rank now: this page starts again, in path order")
			p.cur = searchCursor{}
		}
		p.cur.Dense = capped
	}
	return t.searchInPathOrder(ctx, p, roots, lits)
}

// candidates lists up to rankCap candidates of every root; capped tells
// there are more.
func (t *Service) candidates(ctx context.Context, roots []store.SearchRoot, lits []string) ([]store.Node, bool, error) {
	var out []store.Node
	for _, r := range roots {
		ns, err := t.Store().SearchCandidates(ctx, store.FindCandidates{Root: r, Literals: lits, Limit: rankCap + 1 - len(out)})
		if err != nil {
			return nil, false, apierr.Internal("search: index candidates", err)
		}
		out = append(out, ns...)
		if len(out) > rankCap {
			return out, true, nil
		}
	}
	return out, false, nil
}

func (t *Service) countNoText(ctx context.Context, p *hitPage, roots []store.SearchRoot) error {
	for _, r := range roots {
		n, err := t.Store().CountFilesWithoutText(ctx, r)
		if err != nil {
			return apierr.Internal("search: count files without text", err)
		}
		p.out.SkippedNoText += int(n)
	}
	return nil
}

type rankedFile struct {
	f    store.Node
	key  rankKey
	hits []index.Hit
	more bool
}

// searchRanked reads every candidate, keeps those that truly match and
// shows them best first, from the cursor's rank on.
func (t *Service) searchRanked(ctx context.Context, p *hitPage, cands []store.Node) error {
	ids := make([]int64, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	bodies, err := t.Store().LatestBodies(ctx, ids)
	if err != nil {
		return apierr.Internal("search ranked: latest bodies", err)
	}
	var found []rankedFile
	for _, f := range cands {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !p.glob.Match(relPath(p.call.baseOf(f), f.Path)) {
			continue
		}
		v, ok := knowledge.TextBody(bodies[f.ID])
		if !ok {
			continue // its text went away since the index proposed it
		}
		// The candidates fit the page's byte budget together: each is read
		// to its end (the scanner's budget counts whole chunks).
		res, err := t.scanBlob(ctx, p.sc, v, index.Pos{}, MaxSearchHitsPerFile, rankCount, v.Size+index.ChunkBytes)
		if err != nil {
			return err
		}
		p.out.Scanned++
		p.out.BytesRead += res.Read
		if len(res.Hits) == 0 && !res.More {
			continue // the index proposes a superset
		}
		key := rankKey{Generated: knowledge.IsGenerated(f), Tier: tierBody, Count: res.Count, Path: f.Path}
		if slices.ContainsFunc(res.Hits, func(h index.Hit) bool { return h.Heading }) {
			key.Tier = tierHeading
		}
		if p.sc.MatchesName(f.Name) {
			key.Tier = tierName
		}
		if p.call.shared {
			key.Owner = f.UserID
		}
		found = append(found, rankedFile{f: f, key: key, hits: res.Hits, more: res.More || res.Count > len(res.Hits)})
	}
	p.out.MatchedFiles, p.out.Ranked = len(found), true
	slices.SortFunc(found, func(a, b rankedFile) int { return a.key.compare(b.key) })
	for _, r := range found {
		if p.cur.Rank != nil && r.key.compare(*p.cur.Rank) < 0 {
			continue
		}
		if len(p.out.Hits) > 0 && (len(p.out.Hits)+len(r.hits) > MaxSearchHitsPerPage || p.hitsFull) {
			k := r.key
			p.next, p.remaining = &searchCursor{Index: true, Rank: &k, Owner: k.Owner, Path: k.Path}, true
			return nil
		}
		uri := p.call.fileURI(r.f)
		if !p.show(r.f, r.hits) || r.more {
			p.out.MoreHitsIn = append(p.out.MoreHitsIn, uri)
		}
	}
	return nil
}

// searchInPathOrder reads the candidates of every root in path order from
// the cursor on, until the page is full.
func (t *Service) searchInPathOrder(ctx context.Context, p *hitPage, roots []store.SearchRoot, lits []string) error {
	p.stopWhenFull = true
	started := p.cur.Path == ""
	for _, r := range roots {
		after, inclusive := "", false
		if !started {
			if (p.call.shared && r.UserID != p.cur.Owner) || !within(r, p.cur.Path) {
				continue
			}
			started, after, inclusive = true, p.cur.Path, p.cur.Mid
		}
		for {
			batch, err := t.Store().SearchCandidates(ctx, store.FindCandidates{Root: r, Literals: lits, After: after, Inclusive: inclusive, Dense: p.cur.Dense, Limit: candidateBatch})
			if err != nil {
				return apierr.Internal("search in path order: index candidates", err)
			}
			stopped, err := p.visitAll(ctx, batch)
			if err != nil || stopped {
				return err
			}
			if len(batch) < candidateBatch {
				break
			}
			after, inclusive = batch[len(batch)-1].Path, false
		}
	}
	return nil
}

func within(r store.SearchRoot, p string) bool {
	if !r.Dir {
		return p == r.Path
	}
	return access.Within(p, r.Path)
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
