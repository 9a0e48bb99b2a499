package compile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/knowspace/knowspace/internal/access"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// JobError is a job's failure reason.
type JobError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// JobView is the JSON shape of a job (SPEC §4).
type JobView struct {
	ID            int64           `json:"id"`
	Kind          string          `json:"kind"`
	URI           string          `json:"uri"`
	State         string          `json:"state"`
	Stage         string          `json:"stage"`
	Progress      float64         `json:"progress"`
	Attempts      int             `json:"attempts"`
	MaxAttempts   int             `json:"max_attempts"`
	Error         *JobError       `json:"error"`
	Configuration json.RawMessage `json:"configuration"`
	Result        json.RawMessage `json:"result,omitempty"`
	OutputURI     string          `json:"output_uri,omitempty"`
	CreatedAt     time.Time       `json:"created_at"`
	UpdatedAt     time.Time       `json:"updated_at"`
	StartedAt     *time.Time      `json:"started_at,omitempty"`
	FinishedAt    *time.Time      `json:"finished_at,omitempty"`
}

// viewOf spells a job for its user; source names the owner of its file.
func viewOf(username, source string, j store.Job) JobView {
	v := JobView{ID: j.ID, Kind: j.Kind, URI: kb.NodeURI(source, j.Path, false), State: j.State,
		Stage: j.Stage, Progress: j.Progress, Attempts: j.Attempts, MaxAttempts: j.MaxAttempts,
		Configuration: json.RawMessage("null"), CreatedAt: j.CreatedAt, UpdatedAt: j.UpdatedAt,
		StartedAt: j.StartedAt, FinishedAt: j.FinishedAt}
	if j.OutputPath != "" {
		v.OutputURI = kb.NodeURI(username, j.OutputPath, true)
	}
	if j.Kind != JobKind {
		// Other kinds (an import) work on a folder, not a source file.
		v.URI = kb.NodeURI(source, j.Path, true)
	}
	if j.ConfigurationJSON != nil && json.Valid([]byte(*j.ConfigurationJSON)) {
		v.Configuration = json.RawMessage(*j.ConfigurationJSON)
	}
	if j.ResultJSON != nil && json.Valid([]byte(*j.ResultJSON)) {
		v.Result = json.RawMessage(*j.ResultJSON)
	}
	// A queued job keeps the reason of its last failed attempt, so the
	// task center can say why it is waiting.
	if j.ErrorCode != "" {
		v.Error = &JobError{Code: j.ErrorCode, Message: j.ErrorMessage}
	}
	return v
}

// ListFilter is the query of GET /jobs; Cursor is a previous page's next.
type ListFilter struct {
	State  string
	URI    string
	Limit  int
	Cursor string
}

var jobStates = map[string]bool{store.JobQueued: true, store.JobRunning: true, store.JobSucceeded: true,
	store.JobFailed: true, store.JobCancelled: true}

// Jobs lists a page of the caller's jobs, newest first, and the cursor of
// the next page ("" at the end); URI narrows to a file or to every file
// below a folder.
func (s *Service) Jobs(ctx context.Context, c kb.Caller, f ListFilter) ([]JobView, string, error) {
	if err := checkListFilter(f.State, f.Limit); err != nil {
		return nil, "", err
	}
	after, err := afterCursor(f.Cursor)
	if err != nil {
		return nil, "", err
	}
	q := store.JobFilter{State: f.State, Limit: pageLimit(f.Limit), After: after}
	if f.URI != "" {
		u, err := kb.ParseURI(f.URI, c.Username)
		if err != nil {
			return nil, "", err
		}
		if u.Username != c.Username {
			// The caller's own jobs on files of another tree: naming
			// that tree reveals nothing the caller does not hold.
			o, err := s.st.UserByUsername(ctx, u.Username)
			if errors.Is(err, store.ErrNotFound) {
				return []JobView{}, "", nil
			}
			if err != nil {
				return nil, "", apierr.Internal("list jobs: read source owner", err)
			}
			q.SourceUserID = o.ID
		}
		q.Path = u.Path
	}
	js, err := s.st.ListJobs(ctx, c.ID, q)
	if err != nil {
		return nil, "", apierr.Internal("list jobs", err)
	}
	js, next := cutPage(js, f.Limit)
	views, err := s.views(ctx, c, js...)
	return views, next, err
}

// checkListFilter checks what every job listing accepts.
func checkListFilter(state string, limit int) error {
	if state != "" && !jobStates[state] {
		return apierr.BadRequest(apierr.CodeInvalidState, "state must be one of queued, running, succeeded, failed, cancelled")
	}
	if limit < 0 || limit > MaxJobLimit {
		return apierr.BadRequest(apierr.CodeInvalidLimit, "limit must be between 1 and %d", MaxJobLimit).WithDetail("max", MaxJobLimit)
	}
	return nil
}

// views spells jobs for their user, naming the owners of shared sources.
func (s *Service) views(ctx context.Context, c kb.Caller, js ...store.Job) ([]JobView, error) {
	names, err := store.NamesBy(ctx, s.st, js, func(j store.Job) *int64 { return j.SourceUserID })
	if err != nil {
		return nil, apierr.Internal("view jobs: read source owners", err)
	}
	out := make([]JobView, 0, len(js))
	for _, j := range js {
		src := c.Username
		if j.SourceUserID != nil {
			src = names[*j.SourceUserID]
		}
		if v := viewOf(c.Username, src, j); c.SeesURI(v.URI) {
			out = append(out, v)
		}
	}
	return out, nil
}

// view is views for one job.
func (s *Service) view(ctx context.Context, c kb.Caller, j store.Job) (JobView, error) {
	vs, err := s.views(ctx, c, j)
	if err != nil {
		return JobView{}, err
	}
	if len(vs) == 0 { // outside a scoped caller's folder
		return JobView{}, jobNotFound(j.ID)
	}
	return vs[0], nil
}

func jobNotFound(id int64) error {
	return apierr.NotFound(apierr.CodeJobNotFound, "no such job: %d", id)
}

// Job returns one of the caller's jobs; another user's job is not found.
func (s *Service) Job(ctx context.Context, c kb.Caller, id int64) (JobView, error) {
	j, err := s.st.JobByID(ctx, c.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return JobView{}, jobNotFound(id)
	}
	if err != nil {
		return JobView{}, apierr.Internal("read job", err)
	}
	return s.view(ctx, c, j)
}

// Cancel stops a job: a queued one at once, a running one within a
// heartbeat (its partial outputs are not published).
func (s *Service) Cancel(ctx context.Context, c kb.Caller, id int64) (JobView, error) {
	if err := s.scopedJobChange(ctx, c, id); err != nil {
		return JobView{}, err
	}
	j, err := s.st.CancelJob(ctx, c.ID, id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return JobView{}, jobNotFound(id)
	case errors.Is(err, store.ErrConflict):
		cur, _ := s.st.JobByID(ctx, c.ID, id)
		return JobView{}, apierr.Conflict(apierr.CodeJobFinished, "job %d is already %s", id, cur.State)
	case err != nil:
		return JobView{}, apierr.Internal("cancel job", err)
	}
	if j.State == store.JobCancelled {
		transition(j, store.JobQueued, store.JobCancelled, "", "user_id", c.ID)
	} else {
		// A running job stops within a heartbeat; its worker records it.
		slog.Info("compile job cancel requested", "job", j.ID, "kind", j.Kind, "user_id", c.ID)
	}
	return s.view(ctx, c, j)
}

// Retry queues a failed or cancelled job again with its own snapshot.
func (s *Service) Retry(ctx context.Context, c kb.Caller, id int64) (JobView, error) {
	if err := s.scopedJobChange(ctx, c, id); err != nil {
		return JobView{}, err
	}
	cur, err := s.st.JobByID(ctx, c.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return JobView{}, jobNotFound(id)
	}
	if err != nil {
		return JobView{}, apierr.Internal("retry job: read job", err)
	}
	if cur.State != store.JobFailed && cur.State != store.JobCancelled {
		return JobView{}, apierr.Conflict(apierr.CodeJobNotRetryable, "job %d is %s; only failed or cancelled jobs can be retried", id, cur.State)
	}
	j, err := s.st.RetryJob(ctx, c.ID, id)
	switch {
	case errors.Is(err, store.ErrConflict):
		return JobView{}, apierr.Conflict(apierr.CodeActiveJobConflict, "the file of job %d has another active job; cancel it first", id)
	case err != nil:
		return JobView{}, apierr.Internal("retry job", err)
	}
	transition(j, cur.State, j.State, "", "user_id", c.ID)
	s.notify()
	return s.view(ctx, c, j)
}

// scopedJobChange lets a scoped caller change only the jobs of its folder,
// and a read-only one none.
func (s *Service) scopedJobChange(ctx context.Context, c kb.Caller, id int64) error {
	if !c.Scoped() {
		return nil
	}
	if _, err := s.Job(ctx, c, id); err != nil {
		return err
	}
	return access.Allow(c, access.FolderWrite, fmt.Sprintf("it cannot change job %d", id))
}
