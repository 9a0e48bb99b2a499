package store

import "context"

// JobBadge is the latest compile job of a file, for the tree's badges.
type JobBadge struct {
	ID    int64  `json:"id"`
	State string `json:"state"`
	Stage string `json:"stage,omitempty"`
	Error string `json:"error,omitempty"`
	// ErrorCode names Error's reason, so a client can say it in its own words.
	ErrorCode string `json:"error_code,omitempty"`
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
	for _, ids := range chunks(nodeIDs) {
		// The latest job of each file only: a file compiled many times
		// would otherwise bring all its jobs back to pick one.
		latest := s.db.Table("jobs").Select("MAX(id)").
			Where("user_id = ? AND node_id IN ?", userID, ids).Group("node_id")
		var js []Job
		err := s.db.WithContext(ctx).Select("id, node_id, state, stage, error_code, error_message").
			Where("id IN (?)", latest).Find(&js).Error
		if err != nil {
			return nil, nil, translate(err)
		}
		for _, j := range js {
			jobs[*j.NodeID] = JobBadge{ID: j.ID, State: j.State, Stage: j.Stage, Error: j.ErrorMessage, ErrorCode: j.ErrorCode}
		}
	}
	// A summary's path comes with its provenance.
	var ps []struct {
		Provenance
		Path string
	}
	for _, ids := range chunks(nodeIDs) {
		var part []struct {
			Provenance
			Path string
		}
		err := s.db.WithContext(ctx).Table("provenance").Select("provenance.*, nodes.path").
			Joins("JOIN nodes ON nodes.id = provenance.node_id").
			Where("provenance.user_id = ? AND provenance.role = ? AND provenance.source_node_id IN ?", userID, RoleSummary, ids).
			Find(&part).Error
		if err != nil {
			return nil, nil, translate(err)
		}
		ps = append(ps, part...)
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
		summaries[*p.SourceNodeID] = SummaryBadge{State: state, Path: p.Path}
	}
	return jobs, summaries, nil
}
