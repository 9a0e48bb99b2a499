package store

import "context"

// JobBadge is the latest compile job of a file, for the tree's badges.
type JobBadge struct {
	ID    int64  `json:"id"`
	State string `json:"state"`
	Stage string `json:"stage,omitempty"`
	Error string `json:"error,omitempty"`
}

// SummaryBadge is a source file's summary: whether it was made from the
// current upload, and where it is, so the tree can link to it.
type SummaryBadge struct {
	State string
	Path  string
}

// Summary freshness of a source file.
const (
	SummaryFresh = "fresh"
	SummaryStale = "stale"
)

// Badges returns, for the given files of a user, the latest job of each and
// whether its summary is fresh or stale (files without a summary are absent).
func (s *Store) Badges(ctx context.Context, userID int64, nodeIDs []int64) (map[int64]JobBadge, map[int64]SummaryBadge, error) {
	jobs := map[int64]JobBadge{}
	summaries := map[int64]SummaryBadge{}
	if len(nodeIDs) == 0 {
		return jobs, summaries, nil
	}
	var js []Job
	err := s.db.WithContext(ctx).Select("id, node_id, state, stage, error_message").
		Where("user_id = ? AND node_id IN ?", userID, nodeIDs).Order("id").Find(&js).Error
	if err != nil {
		return nil, nil, translate(err)
	}
	for _, j := range js {
		jobs[*j.NodeID] = JobBadge{ID: j.ID, State: j.State, Stage: j.Stage, Error: j.ErrorMessage}
	}
	var ps []Provenance
	err = s.db.WithContext(ctx).Where("user_id = ? AND role = ? AND source_node_id IN ?", userID, RoleSummary, nodeIDs).
		Find(&ps).Error
	if err != nil {
		return nil, nil, translate(err)
	}
	if len(ps) == 0 {
		return jobs, summaries, nil
	}
	bodies, err := s.LatestBodies(ctx, nodeIDs)
	if err != nil {
		return nil, nil, err
	}
	summaryIDs := make([]int64, 0, len(ps))
	for _, p := range ps {
		summaryIDs = append(summaryIDs, p.NodeID)
	}
	var outs []Node
	if err := s.db.WithContext(ctx).Select("id, path").Where("user_id = ? AND id IN ?", userID, summaryIDs).Find(&outs).Error; err != nil {
		return nil, nil, translate(err)
	}
	paths := make(map[int64]string, len(outs))
	for _, n := range outs {
		paths[n.ID] = n.Path
	}
	for _, p := range ps {
		path, ok := paths[p.NodeID]
		if !ok {
			continue // the summary file itself is gone
		}
		state := SummaryFresh
		if raw, ok := bodies[*p.SourceNodeID][BodyRaw]; ok && raw.BlobHash != p.SourceHash {
			state = SummaryStale
		}
		summaries[*p.SourceNodeID] = SummaryBadge{State: state, Path: path}
	}
	return jobs, summaries, nil
}
