package compile

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/knowspace/knowspace/internal/access"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Quiet period bounds of a folder kept compiled, in seconds.
const (
	DefaultQuietS = 30
	MaxQuietS     = 24 * 3600
)

// AutoRequest is the body of PUT /resources/auto-compile: the folder, its
// quiet period and the compile request's choices, minus the files (every
// file of the folder and its subfolders is compiled).
type AutoRequest struct {
	URI    string `json:"uri"`
	QuietS *int   `json:"quiet_s"`
	Request
}

// Validate checks the fields that need no database, as a compile request's.
func (r *AutoRequest) Validate() error {
	switch {
	case r.URI == "":
		return apierr.BadRequest(apierr.CodeInvalidURI, "uri must name the folder to keep compiled")
	case len(r.URIs) > 0 || r.StaleIn != "":
		return apierr.BadRequest(apierr.CodeInvalidURIs, "a folder kept compiled compiles every file below it; leave uris and stale_in out")
	case r.QuietS != nil && (*r.QuietS < 0 || *r.QuietS > MaxQuietS):
		return apierr.BadRequest(apierr.CodeInvalidQuietS, "quiet_s must be between 0 and %d seconds (default %d)", MaxQuietS, DefaultQuietS)
	}
	req := r.Request
	req.URIs = []string{r.URI}
	return req.Validate()
}

// AutoView is the JSON shape of a folder's auto-compile setting. Pending
// says changes wait for their compile, due at DueAt; LastError says why
// the last batch could not queue everything (it is retried).
type AutoView struct {
	URI             string     `json:"uri"`
	QuietS          int        `json:"quiet_s"`
	Executor        string     `json:"executor"`
	ModelID         string     `json:"model_id"`
	CLIProfile      string     `json:"cli_profile"`
	Model           string     `json:"model"`
	ReasoningEffort string     `json:"reasoning_effort"`
	CallBudget      int        `json:"call_budget"`
	TimeoutS        int        `json:"timeout_s"`
	OutputParent    string     `json:"output_parent"`
	Skill           string     `json:"skill"`
	Pending         bool       `json:"pending"`
	ChangedAt       *time.Time `json:"changed_at"`
	DueAt           *time.Time `json:"due_at"`
	LastError       string     `json:"last_error,omitempty"`
	CreatedAt       time.Time  `json:"created_at"`
	UpdatedAt       time.Time  `json:"updated_at"`
}

func autoView(uri string, a store.AutoCompile) AutoView {
	var r Request
	_ = json.Unmarshal([]byte(a.RequestJSON), &r)
	return AutoView{URI: uri, QuietS: a.QuietS, Executor: r.Executor, ModelID: r.ModelID, CLIProfile: r.CLIProfile,
		Model: r.Model, ReasoningEffort: r.ReasoningEffort, CallBudget: r.CallBudget, TimeoutS: r.TimeoutS,
		OutputParent: r.OutputParent, Skill: r.Skill, Pending: a.DueAt != nil, ChangedAt: a.ChangedAt, DueAt: a.DueAt,
		LastError: a.LastError, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
}

// autoFolder resolves the folder of an auto-compile request through the
// authorizer: invisible is 404, read-only 403; only a folder of the
// caller's own tree, outside the generated output, can be kept compiled.
func (s *Service) autoFolder(ctx context.Context, c kb.Caller, raw string, write bool) (kb.URI, store.Node, error) {
	if write {
		if err := access.Allow(c, access.FolderWrite, "keeping a folder compiled writes summaries, so it cannot change that"); err != nil {
			return kb.URI{}, store.Node{}, err
		}
	}
	resolve := s.tree.Resolve
	if write {
		resolve = s.tree.ResolveWrite
	}
	u, n, err := resolve(ctx, c, raw)
	if err != nil {
		return u, n, err
	}
	switch {
	case !n.IsDir():
		return u, n, apierr.BadRequest(apierr.CodeNotAFolder, "%s is a file; a folder is kept compiled", u).WithDetail("uri", u.String())
	case knowledge.IsGenerated(n):
		return u, n, apierr.BadRequest(apierr.CodeGeneratedArtifact, "%s holds generated output; keep its source folder compiled instead", u)
	case n.UserID != c.ID:
		return u, n, apierr.Forbidden(apierr.CodeNotOwner, "%s is in %s's tree; only a folder of your own can be kept compiled", u, u.Username)
	}
	return u, n, nil
}

// SaveAuto keeps a folder compiled with the request's choices, validated
// as a compile request's; the files already in it compile after the quiet
// period, those already compiled with these choices are skipped.
func (s *Service) SaveAuto(ctx context.Context, c kb.Caller, r AutoRequest) (AutoView, error) {
	if err := r.Validate(); err != nil {
		return AutoView{}, err
	}
	u, n, err := s.autoFolder(ctx, c, r.URI, true)
	if err != nil {
		return AutoView{}, err
	}
	req := r.Request
	req.URIs, req.StaleIn = []string{u.String()}, ""
	if _, err := s.snapshot(ctx, c, req); err != nil {
		return AutoView{}, err
	}
	req.URIs = nil
	quiet := DefaultQuietS
	if r.QuietS != nil {
		quiet = *r.QuietS
	}
	b, _ := json.Marshal(req)
	a := store.AutoCompile{UserID: c.ID, NodeID: n.ID, RequestJSON: string(b), QuietS: quiet}
	if err := s.st.PutAutoCompile(ctx, &a); err != nil {
		return AutoView{}, apierr.Internal("save auto-compile", err)
	}
	return autoView(u.String(), a), nil
}

func noAuto(u kb.URI) error {
	return apierr.NotFound(apierr.CodeAutoCompileNotFound, "%s is not kept compiled", u)
}

// Auto shows a folder's setting; 404 auto_compile_not_found when it has none.
func (s *Service) Auto(ctx context.Context, c kb.Caller, raw string) (AutoView, error) {
	u, n, err := s.autoFolder(ctx, c, raw, false)
	if err != nil {
		return AutoView{}, err
	}
	a, err := s.st.AutoCompileOf(ctx, c.ID, n.ID)
	if errors.Is(err, store.ErrNotFound) {
		return AutoView{}, noAuto(u)
	}
	if err != nil {
		return AutoView{}, apierr.Internal("read auto-compile", err)
	}
	return autoView(u.String(), a), nil
}

// DeleteAuto stops keeping a folder compiled: no new job is queued for
// it; jobs already queued finish.
func (s *Service) DeleteAuto(ctx context.Context, c kb.Caller, raw string) error {
	u, n, err := s.autoFolder(ctx, c, raw, true)
	if err != nil {
		return err
	}
	err = s.st.DeleteAutoCompile(ctx, c.ID, n.ID)
	if errors.Is(err, store.ErrNotFound) {
		return noAuto(u)
	}
	if err != nil {
		return apierr.Internal("delete auto-compile", err)
	}
	return nil
}
