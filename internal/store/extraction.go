package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Extraction states. A finished extraction has no row: its text is the
// file's L2 body.
const (
	ExtractionPending = "pending"
	ExtractionRunning = "running"
	ExtractionFailed  = "failed"
)

// Extraction is a document waiting for, or failed at, automatic
// extraction of its upload VersionID.
type Extraction struct {
	NodeID         int64 `gorm:"primaryKey"`
	UserID         int64
	VersionID      int64
	State          string
	Attempts       int
	ErrorCode      string
	ErrorMessage   string
	LeaseOwner     string
	LeaseExpiresAt *time.Time
	UpdatedAt      time.Time
	// PagesRead of PagesOf: how far a running extraction has come (0 of 0
	// before its first report).
	PagesRead int
	PagesOf   int
}

// MarkExtraction records, inside the write that made upload versionID the
// node's current one, that its text must be extracted.
func (s *Store) MarkExtraction(ctx context.Context, userID, nodeID, versionID int64) error {
	return s.MarkExtractions(ctx, []ExtractionMark{{UserID: userID, NodeID: nodeID, VersionID: versionID}})
}

// ExtractionMark names an upload whose text must be extracted.
type ExtractionMark struct{ UserID, NodeID, VersionID int64 }

// MarkExtractions is MarkExtraction of many nodes, each at most once, a
// few hundred a statement.
func (s *Store) MarkExtractions(ctx context.Context, marks []ExtractionMark) error {
	at := now()
	for part := range slices.Chunk(marks, rowsPerStatement) {
		args := make([]any, 0, 4*len(part))
		for _, m := range part {
			args = append(args, m.NodeID, m.UserID, m.VersionID, at)
		}
		err := s.db.WithContext(ctx).Exec(`INSERT INTO extractions (node_id, user_id, version_id, state, attempts, error_code, error_message, lease_owner, lease_expires_at, updated_at)
VALUES `+valueRows(len(part), "(?, ?, ?, 'pending', 0, '', '', '', NULL, ?)")+`
ON CONFLICT (node_id) DO UPDATE SET user_id = excluded.user_id, version_id = excluded.version_id, state = 'pending', attempts = 0,
  error_code = '', error_message = '', lease_owner = '', lease_expires_at = NULL, updated_at = excluded.updated_at,
  pages_read = 0, pages_of = 0`, args...).Error
		if err != nil {
			return translate(err)
		}
	}
	return nil
}

// DropExtractions forgets the nodes' extractions: their current uploads
// need none (they are text, or already parsed).
func (s *Store) DropExtractions(ctx context.Context, nodeIDs []int64) error {
	for part := range slices.Chunk(nodeIDs, rowsPerStatement) {
		if err := s.db.WithContext(ctx).Exec(`DELETE FROM extractions WHERE node_id IN ?`, part).Error; err != nil {
			return translate(err)
		}
	}
	return nil
}

// claimExtractionSQL leases the next waiting extraction (or one whose
// worker died), fairly across users: the user with the fewest running
// extractions first, then the one waiting longest.
const claimExtractionSQL = `UPDATE extractions SET state = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1, updated_at = ?
WHERE node_id = (
  SELECT e.node_id FROM extractions e
  WHERE (e.state = 'pending' OR (e.state = 'running' AND e.lease_expires_at < ?)) AND e.user_id = (
    SELECT q.user_id FROM extractions q
    WHERE q.state = 'pending' OR (q.state = 'running' AND q.lease_expires_at < ?)
    GROUP BY q.user_id
    ORDER BY (SELECT COUNT(*) FROM extractions r WHERE r.user_id = q.user_id AND r.state = 'running' AND r.lease_expires_at >= ?),
      MIN(q.updated_at), q.user_id
    LIMIT 1)
  ORDER BY e.updated_at, e.node_id LIMIT 1%s)
RETURNING *`

// ClaimExtraction leases the next extraction to owner for lease;
// ErrNotFound when none waits.
func (s *Store) ClaimExtraction(ctx context.Context, owner string, lease time.Duration) (Extraction, error) {
	lock := ""
	if s.dialect == DialectPostgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	t := now()
	var es []Extraction
	err := s.db.WithContext(ctx).Raw(strings.Replace(claimExtractionSQL, "%s", lock, 1), owner, t.Add(lease), t, t, t, t).Scan(&es).Error
	if err != nil {
		return Extraction{}, translate(err)
	}
	if len(es) == 0 {
		return Extraction{}, ErrNotFound
	}
	return es[0], nil
}

// leasedExtraction restricts an update to e while its worker holds it and
// no newer upload marked the node again.
func (s *Store) leasedExtraction(ctx context.Context, e Extraction) *gorm.DB {
	return s.db.WithContext(ctx).Model(&Extraction{}).
		Where("node_id = ? AND version_id = ? AND state = ? AND lease_owner = ?", e.NodeID, e.VersionID, ExtractionRunning, e.LeaseOwner)
}

// ReportExtraction records how far e's worker has come.
func (s *Store) ReportExtraction(ctx context.Context, e Extraction, pagesRead, pagesOf int) error {
	return translate(s.leasedExtraction(ctx, e).Updates(map[string]any{"pages_read": pagesRead, "pages_of": pagesOf}).Error)
}

// FinishExtraction removes e once its text is stored, inside the write
// that stored it.
func (s *Store) FinishExtraction(ctx context.Context, e Extraction) error {
	return translate(s.db.WithContext(ctx).Where("node_id = ? AND version_id = ? AND lease_owner = ?", e.NodeID, e.VersionID, e.LeaseOwner).
		Delete(&Extraction{}).Error)
}

// FailExtraction records why e's upload has no text.
func (s *Store) FailExtraction(ctx context.Context, e Extraction, code, message string) error {
	return translate(s.leasedExtraction(ctx, e).Updates(map[string]any{"state": ExtractionFailed, "error_code": code,
		"error_message": message, "lease_owner": "", "lease_expires_at": nil, "updated_at": now()}).Error)
}

// ReleaseExtraction puts e back in the queue (its worker stopped).
func (s *Store) ReleaseExtraction(ctx context.Context, e Extraction) error {
	return translate(s.leasedExtraction(ctx, e).Updates(map[string]any{"state": ExtractionPending, "attempts": gorm.Expr("attempts - 1"),
		"lease_owner": "", "lease_expires_at": nil, "pages_read": 0, "pages_of": 0}).Error)
}

// ExtractionsOf returns the extraction rows of the nodes that have one.
func (s *Store) ExtractionsOf(ctx context.Context, nodeIDs []int64) (map[int64]Extraction, error) {
	out := map[int64]Extraction{}
	for _, ids := range chunks(nodeIDs) {
		var es []Extraction
		if err := s.db.WithContext(ctx).Where("node_id IN ?", ids).Find(&es).Error; err != nil {
			return nil, translate(err)
		}
		for _, e := range es {
			out[e.NodeID] = e
		}
	}
	return out, nil
}

// ExtractionOf returns a node's extraction row; ErrNotFound when it has
// none (its text is there, or it needs none).
func (s *Store) ExtractionOf(ctx context.Context, nodeID int64) (Extraction, error) {
	var e Extraction
	err := s.db.WithContext(ctx).Where("node_id = ?", nodeID).Take(&e).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return e, ErrNotFound
	}
	return e, translate(err)
}

// CountExtractions counts the files below root whose text is waiting for
// extraction and those whose extraction failed.
func (s *Store) CountExtractions(ctx context.Context, root SearchRoot) (waiting, failed int64, err error) {
	var rows []struct {
		State string
		N     int64
	}
	err = root.under(s.db.WithContext(ctx).Table("extractions e").Joins("JOIN nodes n ON n.id = e.node_id")).
		Select("e.state AS state, COUNT(*) AS n").Group("e.state").Scan(&rows).Error
	for _, r := range rows {
		if r.State == ExtractionFailed {
			failed += r.N
		} else {
			waiting += r.N
		}
	}
	return waiting, failed, translate(err)
}

// metaExtractBackfill marks (in search_meta, the server's small key-value
// table) that documents stored before automatic extraction were marked.
const metaExtractBackfill = "extract_backfill"

// ExtractBackfillDone tells whether the one-time marking of older
// documents has run.
func (s *Store) ExtractBackfillDone(ctx context.Context) (bool, error) {
	v, err := s.searchMeta(ctx, metaExtractBackfill)
	return v == "done", err
}

// MarkExtractBackfillDone records that it has.
func (s *Store) MarkExtractBackfillDone(ctx context.Context) error {
	return s.setSearchMeta(ctx, metaExtractBackfill, "done")
}
