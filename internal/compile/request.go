package compile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/agent/llm"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// Request is the body of POST /knowledge-agent/compile (SPEC §4).
type Request struct {
	URIs            []string `json:"uris"`
	Executor        string   `json:"executor"`
	ModelID         string   `json:"model_id"`
	CLIProfile      string   `json:"cli_profile"`
	Model           string   `json:"model"`
	ReasoningEffort string   `json:"reasoning_effort"`
	CallBudget      int      `json:"call_budget"`
	TimeoutS        int      `json:"timeout_s"`
	OutputParent    string   `json:"output_parent"`
	Skill           string   `json:"skill"`
	// StaleIn names a folder: every file of it whose summary is stale is
	// added to URIs.
	StaleIn string `json:"stale_in"`
}

// Validate checks the fields that need no database.
func (r *Request) Validate() error {
	switch {
	case len(r.URIs) == 0 && r.StaleIn == "":
		return apierr.BadRequest(apierr.CodeInvalidURIs, "uris must list at least one file (or stale_in name a folder)")
	case len(r.URIs) > 4*MaxFiles:
		return apierr.BadRequest(apierr.CodeInvalidURIs, "uris lists %d files; at most %d can be compiled at once", len(r.URIs), MaxFiles).WithDetail("max", MaxFiles)
	case r.Executor != "" && r.Executor != ExecutorLLM && r.Executor != ExecutorCLI:
		return apierr.BadRequest(apierr.CodeInvalidExecutor, "executor must be \"llm\" or \"cli\"")
	case r.CallBudget < 0 || r.CallBudget > MaxCallBudget:
		return apierr.BadRequest(apierr.CodeInvalidCallBudget, "call_budget must be between 1 and %d", MaxCallBudget).WithDetail("max", MaxCallBudget)
	case r.TimeoutS < 0 || r.TimeoutS > MaxTimeoutS:
		return apierr.BadRequest(apierr.CodeInvalidTimeout, "timeout_s must be between 1 and %d", MaxTimeoutS).WithDetail("max", MaxTimeoutS)
	}
	return nil
}

// Rejection says why one URI of a request was not enqueued.
type Rejection struct {
	URI     string `json:"uri"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// EnqueueResult is the answer to a compile request.
type EnqueueResult struct {
	Jobs     []JobView   `json:"jobs"`
	Rejected []Rejection `json:"rejected"`
	// Budget is set when files were left out because the batch would
	// cross a usage budget.
	Budget *BudgetCut `json:"budget,omitempty"`
}

// snapshot resolves the request against the server's defaults into the
// configuration a job will run with, refusing what cannot run.
func (s *Service) snapshot(ctx context.Context, c kb.Caller, r Request) (Snapshot, error) {
	d := s.Defaults()
	snap := Snapshot{Executor: r.Executor, CallBudget: r.CallBudget, TimeoutS: r.TimeoutS,
		ReasoningEffort: r.ReasoningEffort, Skill: r.Skill, PromptVersion: PromptVersion, MaxAttempts: d.MaxAttempts}
	if snap.Executor == "" {
		snap.Executor = d.Executor
		if r.CLIProfile != "" {
			snap.Executor = ExecutorCLI
		}
	}
	if snap.CallBudget == 0 {
		snap.CallBudget = d.CallBudget
	}
	if snap.TimeoutS == 0 {
		snap.TimeoutS = d.TimeoutS
	}
	if snap.Skill == "" {
		snap.Skill = d.Skill
	}
	sk, err := s.skills.Resolve(ctx, c, snap.Skill)
	if err != nil {
		return Snapshot{}, err
	}
	snap.Skill, snap.SkillID, snap.SkillPrompt, snap.SkillOutputLanguage = sk.Name, sk.ID, sk.Prompt, sk.Language()
	switch snap.Executor {
	case ExecutorLLM:
		if r.CLIProfile != "" {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidExecutor, "cli_profile is only for executor \"cli\"")
		}
		snap.ModelID = r.ModelID
		if snap.ModelID == "" {
			snap.ModelID = d.ModelID
		}
		if snap.ModelID == "" {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidModel, "model_id is required for executor \"llm\"; GET /api/v1/knowledge-agent/options lists the models")
		}
		if s.models == nil {
			return Snapshot{}, apierr.BadRequest(apierr.CodeUnknownModel, "unknown model %q: no model is configured", snap.ModelID).WithDetail("model", snap.ModelID)
		}
		if _, err := s.models.LookupFor(ctx, c.ID, snap.ModelID); err != nil && !llm.IsUnknownModel(err) {
			return Snapshot{}, err
		} else if err != nil {
			return Snapshot{}, apierr.BadRequest(apierr.CodeUnknownModel, "unknown model %q; GET /api/v1/knowledge-agent/options lists the models", snap.ModelID).WithDetail("model", snap.ModelID)
		}
		if r.ReasoningEffort == "" {
			snap.ReasoningEffort = d.ReasoningEffort
		}
	case ExecutorCLI:
		p, ok := s.profiles[r.CLIProfile]
		if !ok {
			return Snapshot{}, apierr.BadRequest(apierr.CodeUnknownCLIProfile, "cli_profile %q is not configured on this server", r.CLIProfile)
		}
		snap.CLIProfile = p.Name
		snap.Model = r.Model
		if snap.Model == "" && len(p.Models) > 0 {
			snap.Model = p.Models[0]
		}
		if len(p.Models) > 0 && !slices.Contains(p.Models, snap.Model) {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidModel, "model %q is not allowed by cli profile %s (allowed: %v)", r.Model, p.Name, p.Models)
		}
		if len(p.Models) == 0 && snap.Model != "" {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidModel, "cli profile %s takes no model", p.Name)
		}
		if snap.ReasoningEffort == "" && len(p.Efforts) > 0 {
			snap.ReasoningEffort = d.ReasoningEffort
			if !slices.Contains(p.Efforts, snap.ReasoningEffort) {
				snap.ReasoningEffort = p.Efforts[0]
			}
		}
		if len(p.Efforts) > 0 && !slices.Contains(p.Efforts, snap.ReasoningEffort) {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidReasoningEffort, "reasoning_effort %q is not allowed by cli profile %s (allowed: %v)", r.ReasoningEffort, p.Name, p.Efforts)
		}
		if len(p.Efforts) == 0 && snap.ReasoningEffort != "" {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidReasoningEffort, "cli profile %s takes no reasoning_effort", p.Name)
		}
	}
	if r.OutputParent != "" {
		if err := outputInScope(c, r.OutputParent); err != nil {
			return Snapshot{}, err
		}
		u, n, err := s.tree.Resolve(ctx, c, r.OutputParent)
		if err != nil {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidOutputParent, "output_parent: %s", safeMessage(err))
		}
		if !n.IsDir() {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidOutputParent, "output_parent %s is a file, not a folder", u)
		}
		// Generated files are their maker's: outputs never land in a
		// tree shared with the caller, even one they may write.
		if n.UserID != c.ID {
			return Snapshot{}, apierr.BadRequest(apierr.CodeInvalidOutputParent, "output_parent %s is in %s's tree; compile outputs go to a folder of your own", u, u.Username)
		}
		snap.OutputParent = u.String()
	}
	return snap, nil
}

// DefaultQueuedJobsPerUser is limits.queued_jobs_per_user unless configured.
const DefaultQueuedJobsPerUser = 200

// Enqueue validates a compile request and creates one job per accepted
// file. Request-wide problems (unknown model, bad profile) are errors;
// problems of single files are rejections beside the jobs.
func (s *Service) Enqueue(ctx context.Context, c kb.Caller, r Request) (EnqueueResult, error) {
	if err := r.Validate(); err != nil {
		return EnqueueResult{}, err
	}
	if err := access.Allow(c, access.FolderWrite, "compiling writes summaries, so it cannot start a compile"); err != nil {
		return EnqueueResult{}, err
	}
	snap, err := s.snapshot(ctx, c, r)
	if err != nil {
		return EnqueueResult{}, err
	}
	room := &budgetRoom{}
	if snap.Executor == ExecutorLLM && s.budget != nil {
		if err := s.budget.Check(ctx, c.ID); err != nil {
			return EnqueueResult{}, err
		}
		m, err := s.models.LookupFor(ctx, c.ID, snap.ModelID)
		if err != nil {
			return EnqueueResult{}, err
		}
		if room, err = s.budgetRoom(ctx, c.ID, m); err != nil {
			return EnqueueResult{}, err
		}
	}
	uris := r.URIs
	if r.StaleIn != "" {
		stale, err := s.staleFiles(ctx, c, r.StaleIn)
		if err != nil {
			return EnqueueResult{}, err
		}
		uris = append(append([]string(nil), uris...), stale...)
	}
	out := EnqueueResult{Jobs: []JobView{}, Rejected: []Rejection{}}
	reject := func(uri, code, format string, args ...any) {
		out.Rejected = append(out.Rejected, Rejection{URI: uri, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	if len(uris) > MaxFiles {
		for _, u := range uris {
			reject(u, "too_many_files", "the request names %d files; at most %d can be compiled at once", len(uris), MaxFiles)
		}
		return out, nil
	}
	var parent *kb.URI
	seen := map[int64]bool{}
	type accepted struct {
		uri  kb.URI
		node store.Node
	}
	var ok []accepted
	for _, raw := range uris {
		u, n, err := s.tree.Resolve(ctx, c, raw)
		var ae *apierr.Error
		switch {
		case errors.As(err, &ae) && ae.Code == apierr.CodeInvalidURI:
			reject(raw, "invalid_uri", "%s", ae.Message)
			continue
		case errors.As(err, &ae) && ae.Status == 404:
			reject(raw, "not_visible", "%s does not exist or is not visible to you", raw)
			continue
		case err != nil:
			return EnqueueResult{}, err
		}
		p := u.Parent()
		switch {
		case n.IsDir():
			reject(u.String(), "not_a_file", "%s is a folder; pick the raw files to compile", u)
		case knowledge.IsGenerated(n):
			reject(u.String(), "generated_artifact", "%s is a generated artifact; only raw files are compiled", u)
		case parent != nil && (p.Path != parent.Path || p.Username != parent.Username):
			reject(u.String(), "different_folder", "%s is not in %s; one request compiles files of one folder", u, parent)
		case seen[n.ID]:
			reject(u.String(), "duplicate", "%s is listed twice", u)
		default:
			if parent == nil {
				parent = &p
			}
			seen[n.ID] = true
			ok = append(ok, accepted{u, n})
		}
	}
	if len(ok) == 0 {
		return out, nil
	}
	outPath, err := s.outputPath(ctx, c, snap, *parent)
	if err != nil {
		return EnqueueResult{}, err
	}
	cfgJSON, _ := json.Marshal(snap)
	cfg, hash := string(cfgJSON), snap.Hash()
	// Concurrent requests of one user may pass the count together; the cap
	// bounds the queue, it need not be exact.
	queued, err := s.st.CountQueuedJobs(ctx, c.ID)
	if err != nil {
		return EnqueueResult{}, apierr.Internal("compile: count queued jobs", err)
	}
	leftOut := 0
	for _, a := range ok {
		if !room.take(a.node.Size) {
			reject(a.uri.String(), apierr.CodeBudgetExceeded.String(), "%s", room.leftOutMessage())
			leftOut++
			continue
		}
		if queued >= int64(s.maxQueued) {
			reject(a.uri.String(), "queue_full", "you already have %d queued jobs, the most one user may have; wait for some to finish or cancel them", queued)
			continue
		}
		nodeID := a.node.ID
		j := store.Job{UserID: c.ID, Kind: JobKind, NodeID: &nodeID, Path: a.node.Path, OutputPath: outPath,
			MaxAttempts: snap.MaxAttempts, ConfigurationJSON: &cfg, ConfigHash: hash}
		if a.node.UserID != c.ID {
			owner := a.node.UserID
			j.SourceUserID = &owner
		}
		got, created, err := s.st.EnqueueJob(ctx, &j)
		if errors.Is(err, store.ErrGone) {
			// Deleted since it was resolved above: the answer a request
			// made a moment later gives.
			reject(a.uri.String(), "not_visible", "%s does not exist or is not visible to you (it was deleted while the request was made)", a.uri)
			continue
		}
		if err != nil {
			return EnqueueResult{}, apierr.Internal("compile: enqueue job", err)
		}
		if !created && got.ConfigHash != hash {
			reject(a.uri.String(), "active_job_conflict",
				"job %d for %s is still %s with a different configuration; cancel it or wait for it to finish", got.ID, a.uri, got.State)
			continue
		}
		if created {
			queued++
			transition(got, fromNone, store.JobQueued, "", "user_id", c.ID)
		}
		out.Jobs = append(out.Jobs, viewOf(c.Username, a.uri.Username, got))
	}
	out.Budget = room.cut(len(out.Jobs), leftOut)
	if len(out.Jobs) > 0 {
		s.notify()
	}
	return out, nil
}

// outputPath is the folder that receives the summaries: the output parent,
// or the source folder mirrored below the caller's wiki/ (a scoped
// token's is inside its scope; for a folder shared with the caller, below
// wiki/shared/<owner>/).
func (s *Service) outputPath(ctx context.Context, c kb.Caller, snap Snapshot, src kb.URI) (string, error) {
	if snap.OutputParent != "" {
		_, n, err := s.tree.Resolve(ctx, c, snap.OutputParent)
		if err != nil {
			return "", err
		}
		return n.Path, nil
	}
	return knowledge.OutputFolder(c, src.Username, src.Path), nil
}

// outputInScope refuses a scoped token an output folder outside its scope
// before anything is resolved, so the answer says nothing of what exists
// there: its compile writes only where it can read.
func outputInScope(c kb.Caller, raw string) error {
	if !c.Scoped() {
		return nil
	}
	u, err := kb.ParseURI(raw, c.Username)
	if err != nil {
		return apierr.BadRequest(apierr.CodeInvalidOutputParent, "output_parent: %s", safeMessage(err))
	}
	if u.Username != c.Username || !c.InScope(u.Path) {
		return apierr.Forbidden(apierr.CodeScopeViolation, "output_parent %s is outside this API token's folder %s; its compile outputs go inside it (by default %swiki/)", u, c.ScopeURI(), c.ScopeURI())
	}
	return nil
}

// staleFiles lists the files of a folder whose summary is stale.
func (s *Service) staleFiles(ctx context.Context, c kb.Caller, raw string) ([]string, error) {
	u, n, err := s.tree.Resolve(ctx, c, raw)
	if err != nil {
		return nil, err
	}
	if !n.IsDir() {
		return nil, apierr.BadRequest(apierr.CodeInvalidStaleIn, "stale_in %s is a file, not a folder", u)
	}
	var ids []int64
	byID := map[int64]store.Node{}
	for off := 0; ; off += 1000 {
		page, err := s.st.Children(ctx, n.ID, off, 1000)
		if err != nil {
			return nil, apierr.Internal("compile stale files: list folder", err)
		}
		for _, ch := range page {
			if !ch.IsDir() && !knowledge.IsGenerated(ch) {
				ids = append(ids, ch.ID)
				byID[ch.ID] = ch
			}
		}
		if len(page) < 1000 {
			break
		}
	}
	stale, err := s.st.StaleSummaries(ctx, c.ID, ids)
	if err != nil {
		return nil, apierr.Internal("compile stale files: find stale summaries", err)
	}
	var out []string
	for _, id := range ids {
		if _, ok := stale[id]; ok {
			out = append(out, kb.NodeURI(u.Username, byID[id].Path, false))
		}
	}
	return out, nil
}

func safeMessage(err error) string {
	if ae, ok := apierr.As(err); ok {
		return ae.Message
	}
	return "cannot be used"
}
