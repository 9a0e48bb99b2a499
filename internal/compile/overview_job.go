package compile

import (
	"context"
	"encoding/json"
	"errors"
	"path"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// OverviewJobKind rebuilds one folder's overview and abstract from the
// summaries of the files it holds now: a folder kept compiled queues one
// per affected folder and batch, after the batch's summary jobs.
const OverviewJobKind = "wiki_overview"

// errWaiting puts an overview job back in the queue, attempt not counted,
// while summaries of its folder are still to be published.
var errWaiting = errors.New("waiting for the folder's summaries")

// runOverview rebuilds the overview of the job's source folder (NodeID)
// in its output folder. Summaries whose file was deleted or moved out of
// the folder are removed first, so they leave the overview; a folder left
// without summaries loses its overview and abstract too.
func (s *Service) runOverview(ctx context.Context, j store.Job, owner string) (Result, error) {
	r, err := s.newRun(ctx, j, owner)
	if err != nil {
		return r.res, err
	}
	err = r.folderOverview(ctx)
	if r.exec != nil {
		r.res.ModelCalls = r.exec.used
	}
	return r.res, err
}

func (r *jobRun) folderOverview(ctx context.Context) error {
	pending, err := r.s.st.PendingForOutput(ctx, r.caller.ID, r.job.OutputPath, r.job.ID)
	if err != nil {
		return err
	}
	if pending > 0 {
		return errWaiting
	}
	if err := r.progress(ctx, StageOverview, 0.5); err != nil {
		return err
	}
	var folder store.Node
	if r.job.NodeID != nil {
		folder, err = r.s.st.NodeByID(ctx, r.caller.ID, *r.job.NodeID)
	}
	if r.job.NodeID == nil || errors.Is(err, store.ErrNotFound) {
		return permanent("source_missing", "%s no longer exists", kb.NodeURI(r.caller.Username, r.job.Path, true))
	}
	if err != nil {
		return err
	}
	dir, err := r.s.st.NodeByPath(ctx, r.caller.ID, r.job.OutputPath)
	if errors.Is(err, store.ErrNotFound) {
		r.res.OverviewSkipped = true
		return nil // nothing was ever compiled here
	}
	if err != nil {
		return err
	}
	nodes, provs, err := r.s.st.SummariesIn(ctx, dir.ID)
	if err != nil {
		return err
	}
	var srcIDs []int64
	for _, p := range provs {
		if p.SourceNodeID != nil {
			srcIDs = append(srcIDs, *p.SourceNodeID)
		}
	}
	srcs, err := r.s.st.NodesByIDs(ctx, srcIDs)
	if err != nil {
		return err
	}
	inFolder := map[int64]store.Node{}
	for _, n := range srcs {
		if n.ParentID != nil && *n.ParentID == folder.ID && !n.IsDir() {
			inFolder[n.ID] = n
		}
	}
	var keep []store.Node
	var gone []int64
	for i, n := range nodes {
		switch summaryState(provs[i], n.Name, folder.Path, inFolder) {
		case summaryLive:
			keep = append(keep, n)
		case summaryLeft:
			gone = append(gone, n.ID)
		}
	}
	if len(keep) == 0 {
		for _, name := range []string{OverviewName, AbstractName} {
			if n, err := r.s.st.NodeByPath(ctx, r.caller.ID, joinPath(r.job.OutputPath, name)); err == nil {
				gone = append(gone, n.ID)
			}
		}
	}
	if _, err := r.s.tree.RemoveGenerated(ctx, r.caller, gone, r.hold(ctx)); err != nil {
		return err
	}
	if len(keep) == 0 {
		r.res.OverviewSkipped = true
		return nil
	}
	return r.rebuildOverview(ctx, keep)
}

// What a summary found in an output folder is to its source folder.
const (
	summaryLive    = iota // its file is in the folder under the same name
	summaryLeft           // its file was deleted, renamed or moved away
	summaryForeign        // it summarizes a file of another folder
)

// summaryState tells apart the summaries of a source folder's files
// (inFolder, by id) from those whose file left it and those another
// folder's compile put in the same output folder (an output_parent
// shared by several), which stay as they are.
func summaryState(p store.Provenance, name, folderPath string, inFolder map[int64]store.Node) int {
	if p.SourceNodeID == nil {
		return summaryLeft
	}
	if f, ok := inFolder[*p.SourceNodeID]; ok {
		if summaryName(f.Name) == name {
			return summaryLive
		}
		return summaryLeft
	}
	var refs []sourceRef
	if json.Unmarshal([]byte(p.SourcesJSON), &refs) == nil && len(refs) > 0 {
		if u, err := kb.ParseURI(refs[0].URI, ""); err == nil && path.Dir("/" + u.Path)[1:] == folderPath {
			return summaryLeft
		}
	}
	return summaryForeign
}
