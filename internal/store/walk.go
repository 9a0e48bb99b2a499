package store

import "context"

// FindFiles picks a page of a walk over the files of UserID below the
// folder at Dir ("" for the root), in byte-wise path order.
type FindFiles struct {
	UserID int64
	Dir    string
	// After starts the page after this path (at it when Inclusive); ""
	// starts at the beginning.
	After     string
	Inclusive bool
	Limit     int
}

// WalkFiles returns up to f.Limit files in f's walk. Paging by path rather
// than by offset means a file created between two pages is either before
// the cursor (not visited by this walk) or after it (visited once), never
// visited twice or skipped at random.
func (s *Store) WalkFiles(ctx context.Context, f FindFiles) ([]Node, error) {
	dir, after := f.Dir, f.After
	q := s.db.WithContext(ctx).Where("user_id = ? AND kind = ?", f.UserID, KindFile)
	if dir != "" {
		// Every descendant path starts with dir+"/"; '0' is the byte after
		// '/', so this is a range scan of the (user_id, path) index. Both
		// dialects compare byte-wise (SQLite BINARY, PostgreSQL COLLATE "C").
		q = q.Where("path > ? AND path < ?", dir+"/", dir+"0")
	}
	if after != "" {
		if f.Inclusive {
			q = q.Where("path >= ?", after)
		} else {
			q = q.Where("path > ?", after)
		}
	}
	var ns []Node
	err := q.Order("path").Limit(f.Limit).Find(&ns).Error
	return ns, translate(err)
}

// bodyColumns are file_versions' columns but page_starts, which listings
// never need and which holds an entry per page of a long document.
const bodyColumns = `fv.id, fv.node_id, fv.body, fv.version, fv.blob_hash, fv.size, fv.is_text,
  fv.char_count, fv.media_type, fv.source_version_id, fv.extraction_json, fv.encoding, fv.author_id, fv.created_at`

// LatestBodies returns, for each of the nodes, the newest version of each of
// its bodies (raw, l2) in one query, without their page starts.
func (s *Store) LatestBodies(ctx context.Context, nodeIDs []int64) (map[int64]map[string]FileVersion, error) {
	out := make(map[int64]map[string]FileVersion, len(nodeIDs))
	if len(nodeIDs) == 0 {
		return out, nil
	}
	for _, ids := range chunks(nodeIDs) {
		var vs []FileVersion
		err := s.db.WithContext(ctx).Raw(`SELECT `+bodyColumns+` FROM file_versions fv
JOIN (SELECT node_id, body, MAX(version) AS version FROM file_versions
      WHERE node_id IN ? GROUP BY node_id, body) m
  ON fv.node_id = m.node_id AND fv.body = m.body AND fv.version = m.version`, ids).
			Scan(&vs).Error
		if err != nil {
			return nil, translate(err)
		}
		for _, v := range vs {
			if out[v.NodeID] == nil {
				out[v.NodeID] = map[string]FileVersion{}
			}
			out[v.NodeID][v.Body] = v
		}
	}
	return out, nil
}
