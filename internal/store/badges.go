package store

import "context"

// JobBadge is the latest compile job of a file, for the tree's badges.
type JobBadge struct {
	ID    int64  `json:"id"`
	State string `json:"state"`
	Stage string `json:"stage,omitempty"`
	Error string `json:"error,omitempty"`
}

// Summary freshness of a source file.
const (
	SummaryFresh = "fresh"
	SummaryStale = "stale"
)

// Badges returns, for the given files of a user, the latest job of each and
// whether its summary is fresh or stale (files without a summary are absent).
func (s *Store) Badges(ctx context.Context, userID int64, nodeIDs []int64) (map[int64]JobBadge, map[int64]string, error) {
	jobs := map[int64]JobBadge{}
	summaries := map[int64]string{}
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
	for _, p := range ps {
		state := SummaryFresh
		if raw, ok := bodies[*p.SourceNodeID][BodyRaw]; ok && raw.BlobHash != p.SourceHash {
			state = SummaryStale
		}
		summaries[*p.SourceNodeID] = state
	}
	return jobs, summaries, nil
}
