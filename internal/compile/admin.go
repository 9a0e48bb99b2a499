package compile

import (
	"context"
	"errors"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// AdminJobView is a job in the admin listing: the view its owner gets,
// plus who that owner is.
type AdminJobView struct {
	JobView
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
}

// AdminFilter is the query of GET /admin/jobs; zero fields match all.
// Cursor is a previous page's next.
type AdminFilter struct {
	State  string
	Kind   string
	UserID int64
	Limit  int
	Cursor string
}

// AllJobs lists a page of every user's jobs, newest first (admin view),
// and the cursor of the next page ("" at the end).
func (s *Service) AllJobs(ctx context.Context, f AdminFilter) ([]AdminJobView, string, error) {
	if err := checkListFilter(f.State, f.Limit); err != nil {
		return nil, "", err
	}
	if f.UserID < 0 {
		return nil, "", apierr.BadRequest(apierr.CodeInvalidUserID, "user_id must be a positive integer")
	}
	after, err := afterCursor(f.Cursor)
	if err != nil {
		return nil, "", err
	}
	js, err := s.st.ListAllJobs(ctx, store.AllJobsFilter{State: f.State, Kind: f.Kind, UserID: f.UserID,
		Limit: pageLimit(f.Limit), After: after})
	if err != nil {
		return nil, "", apierr.Internal("list all jobs", err)
	}
	js, next := cutPage(js, f.Limit)
	ids := make([]int64, 0, 2*len(js))
	for _, j := range js {
		ids = append(ids, j.UserID)
		if j.SourceUserID != nil {
			ids = append(ids, *j.SourceUserID)
		}
	}
	names, err := s.st.Usernames(ctx, ids)
	if err != nil {
		return nil, "", apierr.Internal("list all jobs: read user names", err)
	}
	out := make([]AdminJobView, 0, len(js))
	for _, j := range js {
		// Spelled as its owner sees it, so the URIs are the owner's.
		owner, src := names[j.UserID], names[j.UserID]
		if j.SourceUserID != nil {
			src = names[*j.SourceUserID]
		}
		out = append(out, AdminJobView{JobView: viewOf(owner, src, j), UserID: j.UserID, Username: owner})
	}
	return out, next, nil
}

// CancelAny cancels any user's job (admin), exactly as its owner would.
func (s *Service) CancelAny(ctx context.Context, id int64) (AdminJobView, error) {
	j, err := s.st.JobByAnyID(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return AdminJobView{}, jobNotFound(id)
	}
	if err != nil {
		return AdminJobView{}, apierr.Internal("cancel any job: read job", err)
	}
	owner, err := s.st.UserByID(ctx, j.UserID)
	if err != nil {
		return AdminJobView{}, apierr.Internal("cancel any job: read owner", err)
	}
	v, err := s.Cancel(ctx, kb.Caller{ID: owner.ID, Username: owner.Username}, id)
	if err != nil {
		return AdminJobView{}, err
	}
	return AdminJobView{JobView: v, UserID: owner.ID, Username: owner.Username}, nil
}
