package store

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AutoCompile is a folder kept compiled: the compile choices saved on it
// (RequestJSON) and its pending change. DueAt is set while changes wait
// for their compile; ChangeSeq counts the changes, so a scheduler that
// scanned the folder clears DueAt only if nothing changed meanwhile.
type AutoCompile struct {
	ID          int64 `gorm:"primaryKey"`
	UserID      int64
	NodeID      int64
	RequestJSON string `gorm:"column:request_json"`
	QuietS      int    `gorm:"column:quiet_s"`
	DirtySince  *time.Time
	ChangedAt   *time.Time
	DueAt       *time.Time
	ChangeSeq   int64
	ClaimOwner  string
	ClaimUntil  *time.Time
	LastError   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// PutAutoCompile saves the setting of a folder, replacing its choices when
// it has one; the folder is due after its quiet period, so files already
// in it compile without waiting for a change.
func (s *Store) PutAutoCompile(ctx context.Context, a *AutoCompile) error {
	t := now()
	due := t.Add(time.Duration(a.QuietS) * time.Second)
	a.CreatedAt, a.UpdatedAt, a.DirtySince, a.ChangedAt, a.DueAt = t, t, &t, &t, &due
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "node_id"}},
		DoUpdates: clause.Assignments(map[string]any{"request_json": a.RequestJSON, "quiet_s": a.QuietS,
			"updated_at": t, "due_at": due, "changed_at": t, "last_error": "",
			"dirty_since": gorm.Expr("COALESCE(auto_compiles.dirty_since, ?)", t),
			"change_seq":  gorm.Expr("auto_compiles.change_seq + 1")}),
	}).Create(a).Error
	if err != nil {
		return translate(err)
	}
	got, err := s.AutoCompileOf(ctx, a.UserID, a.NodeID)
	*a = got
	return err
}

// AutoCompileOf returns the setting of the user's folder nodeID.
func (s *Store) AutoCompileOf(ctx context.Context, userID, nodeID int64) (AutoCompile, error) {
	var a AutoCompile
	err := s.db.WithContext(ctx).Where("user_id = ? AND node_id = ?", userID, nodeID).Take(&a).Error
	return a, translate(err)
}

// DeleteAutoCompile turns the setting off; ErrNotFound when there was none.
func (s *Store) DeleteAutoCompile(ctx context.Context, userID, nodeID int64) error {
	res := s.db.WithContext(ctx).Where("user_id = ? AND node_id = ?", userID, nodeID).Delete(&AutoCompile{})
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// AutoCompilesOf returns the settings of the user's folders among ids, by
// node id: what a folder sent to the trash takes with it.
func (s *Store) AutoCompilesOf(ctx context.Context, userID int64, ids []int64) (map[int64]AutoCompile, error) {
	out := map[int64]AutoCompile{}
	for _, part := range chunks(ids) {
		var got []AutoCompile
		if err := s.db.WithContext(ctx).Where("user_id = ? AND node_id IN ?", userID, part).Find(&got).Error; err != nil {
			return nil, translate(err)
		}
		for _, a := range got {
			out[a.NodeID] = a
		}
	}
	return out, nil
}

// ActiveJobsInto counts the user's queued and running jobs whose output
// goes to the folder at dir or below it.
func (s *Store) ActiveJobsInto(ctx context.Context, userID int64, dir string) (int64, error) {
	prefix := dir + "/"
	var n int64
	err := s.db.WithContext(ctx).Model(&Job{}).
		Where("user_id = ? AND state IN ? AND (output_path = ? OR substr(output_path, 1, ?) = ?)",
			userID, []string{JobQueued, JobRunning}, dir, utf8.RuneCountInString(prefix), prefix).
		Count(&n).Error
	return n, translate(err)
}

// AutoCompiled tells which of the folders ids are kept compiled.
func (s *Store) AutoCompiled(ctx context.Context, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	for _, part := range chunks(ids) {
		var got []int64
		if err := s.db.WithContext(ctx).Model(&AutoCompile{}).Where("node_id IN ?", part).
			Pluck("node_id", &got).Error; err != nil {
			return nil, translate(err)
		}
		for _, id := range got {
			out[id] = true
		}
	}
	return out, nil
}

// MarkChanged records, in the caller's transaction, that the files or
// folders at paths of the user's tree changed at: the nearest folder kept
// compiled above each (or the path itself, for a folder) becomes due after
// its quiet period. With nothing kept compiled it costs one indexed query.
func (s *Store) MarkChanged(ctx context.Context, userID int64, paths []string, at time.Time) error {
	if len(paths) == 0 {
		return nil
	}
	cands := map[string]bool{"": true}
	for _, p := range paths {
		for q := p; q != ""; {
			if cands[q] {
				break // its ancestors are in already
			}
			cands[q] = true
			i := strings.LastIndexByte(q, '/')
			if i < 0 {
				break
			}
			q = q[:i]
		}
	}
	list := make([]string, 0, len(cands))
	for p := range cands {
		list = append(list, p)
	}
	type watched struct {
		ID     int64
		QuietS int
		Path   string
	}
	var rows []watched
	for len(list) > 0 {
		part := list[:min(len(list), maxInList)]
		list = list[len(part):]
		var got []watched
		err := s.db.WithContext(ctx).Table("auto_compiles").Select("auto_compiles.id, auto_compiles.quiet_s, nodes.path").
			Joins("JOIN nodes ON nodes.id = auto_compiles.node_id").
			Where("auto_compiles.user_id = ? AND nodes.path IN ?", userID, part).Scan(&got).Error
		if err != nil {
			return translate(err)
		}
		rows = append(rows, got...)
	}
	if len(rows) == 0 {
		return nil
	}
	byPath := make(map[string]watched, len(rows))
	for _, r := range rows {
		byPath[r.Path] = r
	}
	hit := map[int64]watched{}
	for _, p := range paths {
		for q := p; ; {
			if w, ok := byPath[q]; ok {
				hit[w.ID] = w
				break
			}
			if q == "" {
				break
			}
			i := strings.LastIndexByte(q, '/')
			if i < 0 {
				q = ""
			} else {
				q = q[:i]
			}
		}
	}
	at = at.UTC()
	for _, w := range hit {
		err := s.db.WithContext(ctx).Model(&AutoCompile{}).Where("id = ?", w.ID).Updates(map[string]any{
			"changed_at": at, "due_at": at.Add(time.Duration(w.QuietS) * time.Second),
			"dirty_since": gorm.Expr("COALESCE(dirty_since, ?)", at), "change_seq": gorm.Expr("change_seq + 1"),
		}).Error
		if err != nil {
			return translate(err)
		}
	}
	return nil
}

// claimAutoSQL leases the folder that has been due longest, in one
// statement so that replicas never scan the same folder at once.
const claimAutoSQL = `UPDATE auto_compiles SET claim_owner = ?, claim_until = ?
WHERE id = (
  SELECT a.id FROM auto_compiles a
  WHERE a.due_at IS NOT NULL AND a.due_at <= ? AND (a.claim_until IS NULL OR a.claim_until < ?)
  ORDER BY a.due_at, a.id LIMIT 1%s)
  AND due_at IS NOT NULL AND (claim_until IS NULL OR claim_until < ?)
RETURNING *`

// ClaimDueAutoCompile leases one folder whose quiet period is over to
// owner for lease; ErrNotFound when none is due.
func (s *Store) ClaimDueAutoCompile(ctx context.Context, owner string, lease time.Duration) (AutoCompile, error) {
	lock := ""
	if s.dialect == DialectPostgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	t := now()
	var rows []AutoCompile
	err := s.db.WithContext(ctx).Raw(strings.Replace(claimAutoSQL, "%s", lock, 1), owner, t.Add(lease), t, t, t).
		Scan(&rows).Error
	if err != nil {
		return AutoCompile{}, translate(err)
	}
	if len(rows) == 0 {
		return AutoCompile{}, ErrNotFound
	}
	return rows[0], nil
}

// ErrClaimLost means another scheduler holds the folder now.
var ErrClaimLost = errors.New("auto-compile claim lost")

// FinishAutoCompile ends owner's claim. With retry nil the folder's
// changes are done, unless more arrived since the claim (seq moved): those
// keep their own due time. With retry set the folder stays due at retry,
// with lastErr saying why.
func (s *Store) FinishAutoCompile(ctx context.Context, id int64, owner string, seq int64, retry *time.Time, lastErr string) error {
	upd := map[string]any{"claim_owner": "", "claim_until": nil, "last_error": lastErr}
	if retry == nil {
		upd["due_at"] = gorm.Expr("CASE WHEN change_seq = ? THEN NULL ELSE due_at END", seq)
		upd["dirty_since"] = gorm.Expr("CASE WHEN change_seq = ? THEN NULL ELSE dirty_since END", seq)
	} else {
		upd["due_at"] = gorm.Expr("CASE WHEN change_seq = ? THEN ? ELSE due_at END", seq, retry.UTC())
	}
	res := s.db.WithContext(ctx).Model(&AutoCompile{}).Where("id = ? AND claim_owner = ?", id, owner).Updates(upd)
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrClaimLost
	}
	return nil
}

// ProvenancesOf is ProvenanceOf for many generated nodes at once, by node.
func (s *Store) ProvenancesOf(ctx context.Context, nodeIDs []int64) (map[int64]Provenance, error) {
	out := make(map[int64]Provenance, len(nodeIDs))
	for _, part := range chunks(nodeIDs) {
		var rows []Provenance
		if err := s.db.WithContext(ctx).Where("node_id IN ?", part).Find(&rows).Error; err != nil {
			return nil, translate(err)
		}
		for _, p := range rows {
			out[p.NodeID] = p
		}
	}
	return out, nil
}

// DeferJob gives a leased job back to the queue until after, without
// counting the attempt: it waits for other jobs, it did not fail.
func (s *Store) DeferJob(ctx context.Context, id int64, owner string, after time.Duration) error {
	return leaseResult(s.leased(ctx, id, owner).Updates(map[string]any{
		"state": JobQueued, "attempts": gorm.Expr("CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"),
		"stage": "", "lease_owner": "", "lease_expires_at": nil, "run_after": now().Add(after), "updated_at": now(),
	}))
}

// LatestJobs returns the latest job of the kind for each of the user's
// nodes that has one.
func (s *Store) LatestJobs(ctx context.Context, userID int64, kind string, nodeIDs []int64) (map[int64]Job, error) {
	out := map[int64]Job{}
	for _, ids := range chunks(nodeIDs) {
		latest := s.db.Table("jobs").Select("MAX(id)").
			Where("user_id = ? AND kind = ? AND node_id IN ?", userID, kind, ids).Group("node_id")
		var js []Job
		if err := s.db.WithContext(ctx).Where("id IN (?)", latest).Find(&js).Error; err != nil {
			return nil, translate(err)
		}
		for _, j := range js {
			out[*j.NodeID] = j
		}
	}
	return out, nil
}

// EnqueueJobUnless is EnqueueJob unless the latest job of j's kind for its
// node is done for good by done's judgement: then that job is returned,
// created=false. Reading the latest job once decides it: a job finishing
// meanwhile is either still active there (and deduplicated) or done.
func (s *Store) EnqueueJobUnless(ctx context.Context, j *Job, done func(Job) bool) (Job, bool, error) {
	if j.NodeID != nil {
		last, err := s.LatestJobs(ctx, j.UserID, j.Kind, []int64{*j.NodeID})
		if err != nil {
			return Job{}, false, err
		}
		if l, ok := last[*j.NodeID]; ok && (l.Active() || done(l)) {
			return l, false, nil
		}
	}
	return s.EnqueueJob(ctx, j)
}
