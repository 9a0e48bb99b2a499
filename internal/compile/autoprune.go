package compile

import (
	"context"
	"encoding/json"
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// pruneGone removes the output a folder kept compiled left for source
// folders that are gone (deleted, renamed or moved away): below outRoot,
// in each generated folder whose source folder no longer exists, the
// summaries of that folder's files, then its overview and abstract once no
// summary is left, then the folder itself once empty. A summary of another
// compile sharing the output folder, or a user's own file, stays, and so
// does the folder holding it. busy says an active job still writes into a
// gone folder: the next batch looks again.
func (s *Service) pruneGone(ctx context.Context, c kb.Caller, root store.Node, outRoot string) (removed int, busy bool, err error) {
	out, err := s.st.NodeByPath(ctx, c.ID, outRoot)
	if errors.Is(err, store.ErrNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	nodes, err := s.st.Subtree(ctx, out)
	if err != nil {
		return 0, false, err
	}
	source := map[string]string{} // generated output folder → its source folder
	var paths []string
	for _, n := range nodes {
		if n.ID != out.ID && n.IsDir() && knowledge.IsGenerated(n) {
			sp := joinPath(root.Path, strings.TrimPrefix(n.Path, out.Path+"/"))
			source[n.Path] = sp
			paths = append(paths, sp)
		}
	}
	if len(paths) == 0 {
		return 0, false, nil
	}
	live, err := s.st.NodesByPaths(ctx, c.ID, paths)
	if err != nil {
		return 0, false, err
	}
	exists := map[string]bool{}
	for _, n := range live {
		exists[n.Path] = n.IsDir()
	}
	var ids []int64
	// Children first: Subtree lists parents before children.
	for _, n := range slices.Backward(nodes) {
		sp, ok := source[n.Path]
		if !ok || exists[sp] {
			continue
		}
		if active, err := s.st.ActiveJobsInto(ctx, c.ID, n.Path); err != nil || active > 0 {
			return 0, err == nil, err
		}
		gone, err := s.goneOutput(ctx, c, n, sp)
		if err != nil {
			return 0, false, err
		}
		ids = append(ids, gone...)
	}
	removed, err = s.tree.RemoveGenerated(ctx, c, ids, nil)
	return removed, false, err
}

// goneOutput lists what of the output folder dir summarizes files of the
// gone source folder sp, with the overview, abstract and dir itself when
// no other summary is left in it (RemoveGenerated keeps dir if a file
// stays).
func (s *Service) goneOutput(ctx context.Context, c kb.Caller, dir store.Node, sp string) ([]int64, error) {
	ns, ps, err := s.st.SummariesIn(ctx, dir.ID)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for i, n := range ns {
		if summarizes(ps[i], c.Username, sp) {
			ids = append(ids, n.ID)
		}
	}
	if len(ids) < len(ns) {
		return ids, nil
	}
	for _, name := range []string{OverviewName, AbstractName} {
		n, err := s.st.NodeByPath(ctx, c.ID, joinPath(dir.Path, name))
		if err == nil {
			ids = append(ids, n.ID)
		} else if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
	}
	return append(ids, dir.ID), nil
}

// summarizes tells whether a summary's provenance names a file of the
// user's folder at folderPath as its source.
func summarizes(p store.Provenance, username, folderPath string) bool {
	var refs []sourceRef
	if json.Unmarshal([]byte(p.SourcesJSON), &refs) != nil || len(refs) == 0 {
		return false
	}
	u, err := kb.ParseURI(refs[0].URI, "")
	return err == nil && u.Username == username && path.Dir("/" + u.Path)[1:] == folderPath
}
