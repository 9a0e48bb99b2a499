package store

import (
	"context"
	"errors"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Job states (SPEC §7).
const (
	JobQueued    = "queued"
	JobRunning   = "running"
	JobSucceeded = "succeeded"
	JobFailed    = "failed"
	JobCancelled = "cancelled"
)

// ErrLeaseLost means the caller no longer holds the job's lease: it expired
// and the job went back to the queue (or was taken by another worker).
var ErrLeaseLost = errors.New("job lease lost")

// ErrJobCancelled means the user asked to cancel the job the caller runs.
var ErrJobCancelled = errors.New("job cancelled by the user")

// Why a job was cancelled. A running job whose file is deleted carries
// CancelledDeleted (code cancelled) until its worker stops; a cancelled
// job keeps that reason, any other says CancelledByUser.
const (
	CancelledByUser  = "cancelled by the user"
	CancelledDeleted = "cancelled: the file was deleted"
)

// cancelReason is the SQL of the message a job is cancelled with.
var cancelReason = gorm.Expr("CASE WHEN error_code = 'cancelled' THEN error_message ELSE ? END", CancelledByUser)

// Job is one row of the queue. NodeID is the source file (nil once deleted);
// Path is where it was when the job was enqueued.
type Job struct {
	ID     int64 `gorm:"primaryKey"`
	UserID int64
	Kind   string
	NodeID *int64
	// SourceUserID owns the source file when it is not the job's user (a
	// file shared with them); nil means the job's user owns it.
	SourceUserID      *int64
	Path              string
	OutputPath        string
	State             string
	Stage             string
	Progress          float64
	Attempts          int
	MaxAttempts       int
	ConfigurationJSON *string `gorm:"column:configuration_json"`
	// BlobHash names a blob the job needs until it ends (an import's
	// archive); BlobsInUse keeps it while the job is queued or running.
	BlobHash        string
	ConfigHash      string
	Fingerprint     string
	ResultJSON      *string `gorm:"column:result_json"`
	ErrorCode       string
	ErrorMessage    string
	CancelRequested bool
	LeaseOwner      string
	LeaseExpiresAt  *time.Time
	RunAfter        time.Time
	StartedAt       *time.Time
	FinishedAt      *time.Time
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// Active tells whether the job is waiting or running.
func (j Job) Active() bool { return j.State == JobQueued || j.State == JobRunning }

// JobFilter narrows ListJobs. Path matches the job's source file itself or,
// as a folder, every job of a file below it ("" is the whole tree).
type JobFilter struct {
	State string
	// SourceUserID narrows to sources in that user's tree; with a Path and
	// no SourceUserID, to the job user's own tree.
	SourceUserID int64
	Path         string
	Kind         string
	Limit        int
	// After, when set, starts the page after that job of the order.
	After *JobKey
}

// JobKey is a job's place in the listings' order, newest change first:
// a page that starts after it is not shifted by jobs added meanwhile.
type JobKey struct {
	UpdatedAt time.Time
	ID        int64
}

// Key is j's place in the listings' order.
func (j Job) Key() JobKey { return JobKey{UpdatedAt: j.UpdatedAt, ID: j.ID} }

func now() time.Time { return time.Now().UTC() }

// EnqueueJob inserts j as queued unless its source already has an active
// job; then it returns that job and created=false. The partial unique index
// jobs_one_active makes the check race-free across replicas.
func (s *Store) EnqueueJob(ctx context.Context, j *Job) (Job, bool, error) {
	for range 3 {
		if j.NodeID != nil {
			existing, err := s.activeJobForNode(ctx, j.UserID, *j.NodeID)
			if err == nil {
				return existing, false, nil
			}
			if !errors.Is(err, ErrNotFound) {
				return Job{}, false, err
			}
		}
		t := now()
		j.ID, j.State, j.Attempts, j.RunAfter, j.CreatedAt, j.UpdatedAt = 0, JobQueued, 0, t, t, t
		if j.MaxAttempts < 1 {
			j.MaxAttempts = 1
		}
		err := translate(s.db.WithContext(ctx).Create(j).Error)
		if err == nil {
			return *j, true, nil
		}
		if !isConflict(err) {
			return Job{}, false, err
		}
		// Another request enqueued the same source between our read and
		// write: read its job instead.
	}
	return Job{}, false, ErrConflict
}

func (s *Store) activeJobForNode(ctx context.Context, userID, nodeID int64) (Job, error) {
	var j Job
	err := s.db.WithContext(ctx).Where("user_id = ? AND node_id = ? AND state IN ?", userID, nodeID, []string{JobQueued, JobRunning}).
		Take(&j).Error
	return j, translate(err)
}

// claimSQL leases the next due queued job in one statement, round-robin
// across users: it first picks the user with the fewest running jobs, then
// the one served least recently (oldest latest start; never served first),
// and takes that user's oldest due job. So one user's 200 queued jobs delay
// another user's single job by at most one job per worker.
// PostgreSQL locks the chosen row and lets concurrent claimers skip it;
// SQLite runs the whole UPDATE under its single writer lock, so the
// sub-selects and the update cannot interleave with another claim.
const claimSQL = `UPDATE jobs SET state = 'running', lease_owner = ?, lease_expires_at = ?,
  attempts = attempts + 1, started_at = COALESCE(started_at, ?), updated_at = ?, stage = 'parse'
WHERE state = 'queued' AND id = (
  SELECT j.id FROM jobs j
  WHERE j.state = 'queued' AND j.run_after <= ? AND j.cancel_requested = FALSE AND j.user_id = (
    SELECT q.user_id FROM jobs q
    WHERE q.state = 'queued' AND q.run_after <= ? AND q.cancel_requested = FALSE
    GROUP BY q.user_id
    ORDER BY (SELECT COUNT(*) FROM jobs r WHERE r.user_id = q.user_id AND r.state = 'running'),
      (SELECT MAX(s.started_at) FROM jobs s WHERE s.user_id = q.user_id) IS NOT NULL,
      (SELECT MAX(s.started_at) FROM jobs s WHERE s.user_id = q.user_id),
      MIN(q.run_after), q.user_id
    LIMIT 1)
  ORDER BY j.run_after, j.id LIMIT 1%s)
RETURNING *`

// CountQueuedJobs tells how many jobs the user has waiting.
func (s *Store) CountQueuedJobs(ctx context.Context, userID int64) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&Job{}).Where("user_id = ? AND state = ?", userID, JobQueued).Count(&n).Error
	return n, translate(err)
}

// cancelUserJobs ends a user's queued jobs and asks workers to stop the
// running ones (used when the account is disabled).
func (s *Store) cancelUserJobs(ctx context.Context, userID int64) error {
	t := now()
	if err := s.db.WithContext(ctx).Model(&Job{}).Where("user_id = ? AND state = ?", userID, JobQueued).
		Updates(map[string]any{"state": JobCancelled, "cancel_requested": true, "finished_at": t, "updated_at": t,
			"error_code": "cancelled", "error_message": "cancelled: the account was disabled"}).Error; err != nil {
		return err
	}
	return s.db.WithContext(ctx).Model(&Job{}).Where("user_id = ? AND state = ?", userID, JobRunning).
		Updates(map[string]any{"cancel_requested": true, "updated_at": t}).Error
}

// ClaimJob leases the next due job to owner for lease; ErrNotFound when
// the queue has nothing due.
func (s *Store) ClaimJob(ctx context.Context, owner string, lease time.Duration) (Job, error) {
	lock := ""
	if s.dialect == DialectPostgres {
		lock = " FOR UPDATE SKIP LOCKED"
	}
	t := now()
	var jobs []Job
	err := s.db.WithContext(ctx).Raw(strings.Replace(claimSQL, "%s", lock, 1), owner, t.Add(lease), t, t, t, t).
		Scan(&jobs).Error
	if err != nil {
		return Job{}, translate(err)
	}
	if len(jobs) == 0 {
		return Job{}, ErrNotFound
	}
	return jobs[0], nil
}

// leased restricts an update to the job while owner holds its lease.
func (s *Store) leased(ctx context.Context, id int64, owner string) *gorm.DB {
	return s.db.WithContext(ctx).Model(&Job{}).
		Where("id = ? AND state = ? AND lease_owner = ?", id, JobRunning, owner)
}

// HoldJob confirms, inside the caller's transaction, that owner still holds
// the running job's lease and that no cancel was requested, and locks the
// row (on PostgreSQL) so a cancel or a requeue waits for the transaction.
// Publishing runs it first, so a cancelled or lost job publishes nothing.
func (s *Store) HoldJob(ctx context.Context, id int64, owner string) error {
	res := s.db.WithContext(ctx).Model(&Job{}).
		Where("id = ? AND state = ? AND lease_owner = ? AND cancel_requested = ?", id, JobRunning, owner, false).
		Update("updated_at", now())
	if res.Error != nil {
		return translate(res.Error)
	}
	if res.RowsAffected == 1 {
		return nil
	}
	var j Job
	if err := s.db.WithContext(ctx).Select("cancel_requested").Where("id = ?", id).Take(&j).Error; err == nil && j.CancelRequested {
		return ErrJobCancelled
	}
	return ErrLeaseLost
}

func leaseResult(tx *gorm.DB) error {
	if tx.Error != nil {
		return translate(tx.Error)
	}
	if tx.RowsAffected == 0 {
		return ErrLeaseLost
	}
	return nil
}

// RenewLease extends owner's lease and reports whether the user asked to
// cancel the job; ErrLeaseLost when the lease is gone.
func (s *Store) RenewLease(ctx context.Context, id int64, owner string, lease time.Duration) (cancel bool, err error) {
	renewed, err := s.RenewLeases(ctx, []HeldLease{{ID: id, Owner: owner}}, lease)
	if err != nil {
		return false, err
	}
	cancel, ok := renewed[id]
	if !ok {
		return false, ErrLeaseLost
	}
	return cancel, nil
}

// HeldLease is a running job and the worker that holds its lease.
type HeldLease struct {
	ID    int64
	Owner string
}

// RenewLeases extends, in one statement, the leases the workers still hold
// and returns for each renewed job whether the user asked to cancel it. A
// job absent from the answer is no longer running under that worker (its
// lease expired and it was requeued, reassigned or finished): its lease was
// not touched.
func (s *Store) RenewLeases(ctx context.Context, held []HeldLease, lease time.Duration) (map[int64]bool, error) {
	out := make(map[int64]bool, len(held))
	if len(held) == 0 {
		return out, nil
	}
	// Each job with its own owner, so a job a worker lost is never renewed
	// for the worker that holds it now by mistake; pools are small, so the
	// list stays short.
	args := []any{now().Add(lease), JobRunning}
	pairs := make([]string, len(held))
	for i, h := range held {
		pairs[i] = "(id = ? AND lease_owner = ?)"
		args = append(args, h.ID, h.Owner)
	}
	var rows []struct {
		ID              int64
		CancelRequested bool
	}
	err := s.db.WithContext(ctx).Raw("UPDATE jobs SET lease_expires_at = ? WHERE state = ? AND ("+
		strings.Join(pairs, " OR ")+") RETURNING id, cancel_requested", args...).Scan(&rows).Error
	if err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.ID] = r.CancelRequested
	}
	return out, nil
}

// SetJobProgress records the stage and progress (0..1) of a leased job.
func (s *Store) SetJobProgress(ctx context.Context, id int64, owner, stage string, progress float64) error {
	return leaseResult(s.leased(ctx, id, owner).
		Updates(map[string]any{"stage": stage, "progress": progress, "updated_at": now()}))
}

// SetJobFingerprint records the input fingerprint of a leased job.
func (s *Store) SetJobFingerprint(ctx context.Context, id int64, owner, fp string) error {
	return leaseResult(s.leased(ctx, id, owner).Updates(map[string]any{"fingerprint": fp}))
}

// Completed is what a job's runner returns when it already completed the
// job (CompleteJob on the transaction of its effect): the worker records
// nothing more.
type Completed struct{ Result any }

// CompleteJob marks a leased job succeeded with its result.
func (s *Store) CompleteJob(ctx context.Context, id int64, owner string, result string) error {
	t := now()
	return leaseResult(s.leased(ctx, id, owner).Updates(map[string]any{
		"state": JobSucceeded, "progress": 1, "result_json": result, "error_code": "", "error_message": "",
		"lease_owner": "", "lease_expires_at": nil, "finished_at": t, "updated_at": t,
	}))
}

// FailJob records a failure of a leased job. A job asked to cancel ends
// cancelled with its reason; a retryable failure with attempts left puts
// the job back in the queue after backoff; anything else fails it for
// good. It returns the job's new state.
func (s *Store) FailJob(ctx context.Context, id int64, owner, code, message string, retryable bool, backoff time.Duration) (string, error) {
	var state string
	err := s.InTx(ctx, func(tx *Store) error {
		var j Job
		if err := tx.db.WithContext(ctx).Where("id = ? AND state = ? AND lease_owner = ?", id, JobRunning, owner).
			Take(&j).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return ErrLeaseLost
			}
			return err
		}
		t := now()
		upd := map[string]any{"error_code": code, "error_message": message,
			"lease_owner": "", "lease_expires_at": nil, "updated_at": t}
		switch {
		case j.CancelRequested:
			// The cancel came first, and a deleted file is most likely
			// what the attempt failed on.
			state = JobCancelled
			upd["finished_at"], upd["error_code"], upd["error_message"] = t, "cancelled", cancelReason
		case retryable && j.Attempts < j.MaxAttempts:
			state = JobQueued
			upd["run_after"] = t.Add(backoff)
		default:
			state = JobFailed
			upd["finished_at"] = t
		}
		upd["state"] = state
		return leaseResult(tx.leased(ctx, id, owner).Updates(upd))
	})
	return state, err
}

// ReleaseJob gives a leased job back to the queue without counting the
// attempt: the worker is stopping, not failing.
func (s *Store) ReleaseJob(ctx context.Context, id int64, owner string) error {
	return leaseResult(s.leased(ctx, id, owner).Updates(map[string]any{
		"state": JobQueued, "attempts": gorm.Expr("CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"),
		"lease_owner": "", "lease_expires_at": nil, "run_after": now(), "updated_at": now(),
	}))
}

// FinishCancelled marks a leased job cancelled after its worker stopped it.
func (s *Store) FinishCancelled(ctx context.Context, id int64, owner string) error {
	t := now()
	return leaseResult(s.leased(ctx, id, owner).Updates(map[string]any{
		"state": JobCancelled, "error_code": "cancelled", "error_message": cancelReason,
		"lease_owner": "", "lease_expires_at": nil, "finished_at": t, "updated_at": t,
	}))
}

// CancelJob cancels a user's job: a queued job at once, a running one by
// asking its worker to stop (it turns cancelled when the worker notices).
// ErrConflict when the job is already finished.
func (s *Store) CancelJob(ctx context.Context, userID, id int64) (Job, error) {
	// One statement, so a worker claiming the job in between cannot make
	// the request miss: a queued job ends here, a running one is flagged
	// for its worker. SET expressions see the row as it was.
	t := now()
	queued := func(then any, otherwise string) any {
		return gorm.Expr("CASE WHEN state = ? THEN ? ELSE "+otherwise+" END", JobQueued, then)
	}
	res := s.db.WithContext(ctx).Model(&Job{}).
		Where("id = ? AND user_id = ? AND state IN ?", id, userID, []string{JobQueued, JobRunning}).
		Updates(map[string]any{
			"cancel_requested": true, "updated_at": t,
			"state":         queued(JobCancelled, "state"),
			"finished_at":   queued(t, "finished_at"),
			"error_code":    queued("cancelled", "error_code"),
			"error_message": queued(CancelledByUser, "error_message"),
		})
	if res.Error != nil {
		return Job{}, translate(res.Error)
	}
	j, err := s.JobByID(ctx, userID, id)
	if err == nil && res.RowsAffected == 0 {
		return Job{}, ErrConflict
	}
	return j, err
}

// RetryJob puts a failed or cancelled job back in the queue with fresh
// attempts; its configuration snapshot is kept as it is. ErrConflict when
// the job is not failed or cancelled, or its source has another active job.
func (s *Store) RetryJob(ctx context.Context, userID, id int64) (Job, error) {
	var out Job
	err := s.InTx(ctx, func(tx *Store) error {
		j, err := tx.JobByID(ctx, userID, id)
		if err != nil {
			return err
		}
		if j.State != JobFailed && j.State != JobCancelled {
			return ErrConflict
		}
		t := now()
		err = tx.db.WithContext(ctx).Model(&Job{}).Where("id = ?", id).Updates(map[string]any{
			"state": JobQueued, "stage": "", "progress": 0, "attempts": 0, "cancel_requested": false,
			"error_code": "", "error_message": "", "result_json": nil, "run_after": t,
			"finished_at": nil, "updated_at": t,
		}).Error
		if err != nil {
			return err
		}
		out, err = tx.JobByID(ctx, userID, id)
		return err
	})
	return out, err
}

// RequeueExpired returns running jobs whose lease has expired (their worker
// crashed or lost the database) to the queue, or fails them when they have
// used all their attempts. It returns how many rows it changed.
func (s *Store) RequeueExpired(ctx context.Context) (int64, error) {
	t := now()
	db := s.db.WithContext(ctx)
	tx := db.Model(&Job{}).
		Where("state = ? AND lease_expires_at < ? AND attempts < max_attempts AND cancel_requested = FALSE", JobRunning, t).
		Updates(map[string]any{"state": JobQueued, "lease_owner": "", "lease_expires_at": nil, "run_after": t,
			"error_code": "lease_expired", "error_message": "the worker running this job stopped renewing its lease; it was put back in the queue",
			"updated_at": t})
	if tx.Error != nil {
		return 0, translate(tx.Error)
	}
	n := tx.RowsAffected
	tx = db.Model(&Job{}).Where("state = ? AND lease_expires_at < ?", JobRunning, t).
		Updates(map[string]any{"state": gorm.Expr("CASE WHEN cancel_requested THEN 'cancelled' ELSE 'failed' END"),
			"lease_owner": "", "lease_expires_at": nil, "finished_at": t, "updated_at": t,
			"error_code": gorm.Expr("CASE WHEN cancel_requested THEN 'cancelled' ELSE 'lease_expired' END"),
			"error_message": gorm.Expr("CASE WHEN NOT cancel_requested THEN 'the job lost its worker on every attempt' "+
				"WHEN error_code = 'cancelled' THEN error_message ELSE ? END", CancelledByUser)})
	if tx.Error != nil {
		return n, translate(tx.Error)
	}
	return n + tx.RowsAffected, nil
}

// JobByID returns the user's job; another user's job is ErrNotFound.
func (s *Store) JobByID(ctx context.Context, userID, id int64) (Job, error) {
	var j Job
	err := s.db.WithContext(ctx).Where("id = ? AND user_id = ?", id, userID).Take(&j).Error
	return j, translate(err)
}

// ListJobs returns the user's jobs, newest first.
func (s *Store) ListJobs(ctx context.Context, userID int64, f JobFilter) ([]Job, error) {
	q := s.db.WithContext(ctx).Where("user_id = ?", userID)
	if f.State != "" {
		q = q.Where("state = ?", f.State)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", f.Kind)
	}
	switch {
	case f.SourceUserID != 0 && f.SourceUserID != userID:
		q = q.Where("source_user_id = ?", f.SourceUserID)
	case f.Path != "":
		q = q.Where("source_user_id IS NULL")
	}
	if f.Path != "" {
		// The file itself, or everything below it as a folder; byte-wise
		// range as in WalkFiles.
		q = q.Where("(path = ? OR (path > ? AND path < ?))", f.Path, f.Path+"/", f.Path+"0")
	}
	return jobPage(q, f.Limit, f.After)
}

// AllJobsFilter narrows ListAllJobs; zero fields match every job.
type AllJobsFilter struct {
	State  string
	Kind   string
	UserID int64
	Limit  int
	After  *JobKey
}

// ListAllJobs returns every user's jobs, newest first (admin view).
func (s *Store) ListAllJobs(ctx context.Context, f AllJobsFilter) ([]Job, error) {
	q := s.db.WithContext(ctx)
	if f.UserID != 0 {
		q = q.Where("user_id = ?", f.UserID)
	}
	if f.State != "" {
		q = q.Where("state = ?", f.State)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", f.Kind)
	}
	return jobPage(q, f.Limit, f.After)
}

// JobByAnyID returns a job whoever owns it (admin).
func (s *Store) JobByAnyID(ctx context.Context, id int64) (Job, error) {
	var j Job
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&j).Error
	return j, translate(err)
}

// jobPage is the shared order and cap of the job listings.
func jobPage(q *gorm.DB, limit int, after *JobKey) ([]Job, error) {
	if limit <= 0 {
		limit = 100
	}
	if after != nil {
		q = q.Where("(updated_at < ? OR (updated_at = ? AND id < ?))", after.UpdatedAt, after.UpdatedAt, after.ID)
	}
	var js []Job
	err := q.Order("updated_at DESC, id DESC").Limit(limit).Find(&js).Error
	return js, translate(err)
}

// PendingForOutput counts the active jobs other than except that will
// still publish a summary into the output folder: they have not reached
// the overview stage yet.
func (s *Store) PendingForOutput(ctx context.Context, userID int64, outputPath string, except int64) (int64, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&Job{}).
		Where("user_id = ? AND output_path = ? AND id <> ? AND state IN ? AND stage IN ?",
			userID, outputPath, except, []string{JobQueued, JobRunning}, []string{"", "parse", "summarize"}).
		Count(&n).Error
	return n, translate(err)
}

// FailedForOutput returns the failed jobs into outputPath whose file has no
// later job there, by path, except the job except.
func (s *Store) FailedForOutput(ctx context.Context, userID int64, outputPath string, except int64) ([]Job, error) {
	var js []Job
	err := s.db.WithContext(ctx).Model(&Job{}).
		Where("user_id = ? AND output_path = ? AND state = ? AND id <> ?", userID, outputPath, JobFailed, except).
		Where("id = (SELECT MAX(k.id) FROM jobs k WHERE k.user_id = jobs.user_id AND k.output_path = jobs.output_path AND k.path = jobs.path)").
		Order("path").Find(&js).Error
	return js, translate(err)
}
