package store

import "context"

// Coverage counts the files of a folder by where the user's compile of
// them stands. Each file counts once: a failed latest job wins over an
// older summary, so a failure is never hidden behind it.
type Coverage struct {
	Files     int64 `json:"files"`
	Fresh     int64 `json:"summarized"`
	Stale     int64 `json:"stale"`
	Failed    int64 `json:"failed"`
	Compiling int64 `json:"compiling"`
	Never     int64 `json:"never_compiled"`
}

// CompileCoverage reports userID's compile coverage of the files in
// ownerID's tree at path or below it (path "" is the whole tree), leaving
// out generated files, in one query.
func (s *Store) CompileCoverage(ctx context.Context, userID, ownerID int64, path string) (Coverage, error) {
	scope := ""
	args := []any{ownerID, KindFile, false, "wiki", "wiki/", "wiki0"}
	if path != "" {
		// The file itself or everything below the folder, byte-wise as in
		// WalkFiles.
		scope = " AND (path = ? OR (path > ? AND path < ?))"
		args = append(args, path, path+"/", path+"0")
	}
	args = append(args, userID, userID)
	var rows []struct {
		Cat string
		N   int64
	}
	// Files under the user's wiki/ are outputs even when uploaded there.
	err := s.db.WithContext(ctx).Raw(`WITH scope AS (
  SELECT id FROM nodes WHERE user_id = ? AND kind = ? AND generated = ?
    AND NOT (path = ? OR (path > ? AND path < ?))`+scope+`
)
SELECT cat, COUNT(*) AS n FROM (
  SELECT CASE
    WHEN lj.state = 'failed' THEN 'failed'
    WHEN sp.source_hash IS NOT NULL AND sp.source_hash = raw.blob_hash THEN 'fresh'
    WHEN sp.source_hash IS NOT NULL THEN 'stale'
    WHEN lj.state IN ('queued', 'running') THEN 'compiling'
    ELSE 'never' END AS cat
  FROM scope n
  LEFT JOIN (SELECT j.node_id, j.state FROM jobs j
             JOIN (SELECT node_id, MAX(id) AS id FROM jobs
                   WHERE user_id = ? AND node_id IN (SELECT id FROM scope) GROUP BY node_id) m ON m.id = j.id) lj
    ON lj.node_id = n.id
  LEFT JOIN (SELECT source_node_id, MAX(source_hash) AS source_hash FROM provenance
             WHERE user_id = ? AND role = 'summary' AND source_node_id IN (SELECT id FROM scope)
             GROUP BY source_node_id) sp
    ON sp.source_node_id = n.id
  LEFT JOIN (SELECT fv.node_id, fv.blob_hash FROM file_versions fv
             JOIN (SELECT node_id, MAX(version) AS version FROM file_versions
                   WHERE body = 'raw' AND node_id IN (SELECT id FROM scope) GROUP BY node_id) mv
               ON mv.node_id = fv.node_id AND mv.version = fv.version
             WHERE fv.body = 'raw') raw
    ON raw.node_id = n.id
) c GROUP BY cat`, args...).Scan(&rows).Error
	if err != nil {
		return Coverage{}, translate(err)
	}
	var cv Coverage
	for _, r := range rows {
		cv.Files += r.N
		switch r.Cat {
		case "failed":
			cv.Failed = r.N
		case "fresh":
			cv.Fresh = r.N
		case "stale":
			cv.Stale = r.N
		case "compiling":
			cv.Compiling = r.N
		default:
			cv.Never = r.N
		}
	}
	return cv, nil
}
