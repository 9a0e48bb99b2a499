package knowledge

import (
	"context"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// badge adds one kind of decoration to a page of listed items (items[i] is
// nodes[i]), reading what it needs for the whole page in one query. A
// listing is the tree's rows plus each badge in turn, so a new badge is one
// function here, not a change to the listing.
type badge func(ctx context.Context, t *Tree, c kb.Caller, tg Target, nodes []store.Node, items []Item) error

var badges = []badge{sharedBadge, jobBadges, layerBadges, autoCompileBadge, ocrBadge, textStateBadge}

// sharedBadge marks what the owner shares; a grantee does not see the
// owner's other grants.
func sharedBadge(ctx context.Context, t *Tree, c kb.Caller, tg Target, nodes []store.Node, items []Item) error {
	if tg.Owner.ID != c.ID {
		return nil
	}
	shared, err := t.st.SharedNodes(ctx, nodeIDs(nodes, func(store.Node) bool { return true }))
	for i, n := range nodes {
		items[i].Shared = shared[n.ID]
	}
	return err
}

// jobBadges are the caller's: their jobs and summaries of these files,
// which for a shared folder live in the caller's own tree.
func jobBadges(ctx context.Context, t *Tree, c kb.Caller, _ Target, nodes []store.Node, items []Item) error {
	jobs, summaries, err := t.st.Badges(ctx, c.ID, nodeIDs(nodes, func(n store.Node) bool { return !n.IsDir() }))
	if err != nil {
		return err
	}
	for i, n := range nodes {
		if j, ok := jobs[n.ID]; ok {
			items[i].Job = &j
		}
		if sb, ok := summaries[n.ID]; ok {
			items[i].Summary = sb.State
			items[i].SummaryURI = kb.NodeURI(c.Username, sb.Path, false)
			stale := sb.State == store.SummaryStale
			items[i].Stale = &stale
		}
	}
	return nil
}

// layerBadges give each folder the abstract and overview of the caller's
// compile of it.
func layerBadges(ctx context.Context, t *Tree, c kb.Caller, tg Target, nodes []store.Node, items []Item) error {
	var dirs []layerDir
	var at []int
	for i, n := range nodes {
		if n.IsDir() {
			dirs = append(dirs, layerDir{owner: tg.Owner, path: n.Path})
			at = append(at, i)
		}
	}
	layers, err := t.folderLayers(ctx, c, dirs)
	if err != nil {
		return err
	}
	for k, i := range at {
		items[i].Abstract, items[i].OverviewURI = layers[k].abstract, layers[k].overviewURI
	}
	return nil
}

func autoCompileBadge(ctx context.Context, t *Tree, _ kb.Caller, _ Target, nodes []store.Node, items []Item) error {
	dirs := nodeIDs(nodes, store.Node.IsDir)
	if len(dirs) == 0 {
		return nil
	}
	watched, err := t.st.AutoCompiled(ctx, dirs)
	for i, n := range nodes {
		items[i].AutoCompile = watched[n.ID]
	}
	return err
}

func ocrBadge(ctx context.Context, t *Tree, _ kb.Caller, _ Target, nodes []store.Node, items []Item) error {
	ocr, err := t.ocrBodies(ctx, nodes)
	for i, n := range nodes {
		items[i].OCR = ocr[n.ID]
	}
	return err
}

func textStateBadge(ctx context.Context, t *Tree, _ kb.Caller, _ Target, nodes []store.Node, items []Item) error {
	texts, err := t.textStates(ctx, nodes)
	for i, n := range nodes {
		items[i].TextState, items[i].TextProgress = texts[n.ID].code, texts[n.ID].progress
	}
	return err
}

func nodeIDs(nodes []store.Node, keep func(store.Node) bool) []int64 {
	var ids []int64
	for _, n := range nodes {
		if keep(n) {
			ids = append(ids, n.ID)
		}
	}
	return ids
}
