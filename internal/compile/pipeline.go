package compile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store"
)

// Names of a folder's generated digests (SPEC §7).
const (
	OverviewName = knowledge.OverviewName // L1
	AbstractName = knowledge.AbstractName // L0
)

// Stages a running job goes through.
const (
	StageParse     = "parse"
	StageSummarize = "summarize"
	StageOverview  = "overview"
)

// Result is what a finished job records: its outputs, what was skipped
// because nothing changed, and how many executor calls it made.
type Result struct {
	L2Version       bool   `json:"l2_saved"`
	SummaryURI      string `json:"summary_uri"`
	SummarySkipped  bool   `json:"summary_skipped"`
	OverviewURI     string `json:"overview_uri,omitempty"`
	AbstractURI     string `json:"abstract_uri,omitempty"`
	OverviewSkipped bool   `json:"overview_skipped,omitempty"`
	// OverviewDeferred means another job of the same folder was still
	// summarizing: the last one to finish rebuilds the overview.
	OverviewDeferred bool `json:"overview_deferred,omitempty"`
	ModelCalls       int  `json:"model_calls"`
}

// jobRun is the state of one attempt of a job.
type jobRun struct {
	s      *Service
	job    store.Job
	owner  string
	snap   Snapshot
	caller kb.Caller
	// src owns the source file: the caller, or who shared it with them.
	src  kb.Caller
	exec *budgeted
	res  Result
	// failure is this job's parse failure, listed by the overview it
	// rebuilds before the failure is recorded.
	failure *Failure
}

// runJob runs the pipeline: parse → L2 body → summary → folder overview
// and abstract. Each publish is atomic; the L2 body is committed first and
// stays readable whatever happens later.
func (s *Service) runJob(ctx context.Context, j store.Job, owner string) (Result, error) {
	ctx = llm.WithAttribution(ctx, llm.Attribution{UserID: j.UserID, Purpose: llm.PurposeCompile})
	r, err := s.newRun(ctx, j, owner)
	if err != nil {
		return r.res, err
	}
	if _, ours := r.exec.next.(llmExecutor); ours && s.budget != nil {
		admitted, done, err := s.budget.Admit(ctx, j.UserID)
		if err != nil {
			if e, ok := apierr.As(err); ok {
				if e.Details["in_flight"] == true {
					// What is left is held by work running now: it may
					// be free when that ends.
					return r.res, transient(e.Code.String(), "%s", e.Message)
				}
				return r.res, permanent(e.Code.String(), "%s", e.Message)
			}
			return r.res, err
		}
		defer done()
		ctx = admitted
	}
	err = r.pipeline(ctx)
	r.res.ModelCalls = r.exec.used
	return r.res, r.sourceGone(ctx, err)
}

// sourceGone names the cause of a failure the job's file took with it: a
// file deleted mid-run fails the next write or read of it with a bare
// database error, which would otherwise read as internal.
func (r *jobRun) sourceGone(ctx context.Context, err error) error {
	var f *Failure
	if err == nil || errors.As(err, &f) || ctx.Err() != nil {
		return err
	}
	if _, serr := r.source(ctx); errors.As(serr, &f) {
		f.cause = err
		return f
	}
	return err
}

// newRun reads what every attempt needs: the snapshot, its executor and
// the users the job acts for.
func (s *Service) newRun(ctx context.Context, j store.Job, owner string) (*jobRun, error) {
	r := &jobRun{s: s, job: j, owner: owner}
	if j.ConfigurationJSON == nil {
		return r, permanent("bad_configuration", "the job has no configuration snapshot")
	}
	if err := json.Unmarshal([]byte(*j.ConfigurationJSON), &r.snap); err != nil {
		return r, permanent("bad_configuration", "the job's configuration snapshot is unreadable")
	}
	ex, err := s.executorFor(ctx, r.snap, j.UserID)
	if err != nil {
		return r, err
	}
	r.exec = &budgeted{next: ex, max: r.snap.CallBudget}
	u, err := s.st.UserByID(ctx, j.UserID)
	if err != nil {
		return r, fmt.Errorf("job owner: %w", err)
	}
	r.caller = kb.Caller{ID: u.ID, Username: u.Username}
	r.src = r.caller
	if j.SourceUserID != nil {
		o, err := s.st.UserByID(ctx, *j.SourceUserID)
		if err != nil {
			return r, fmt.Errorf("source owner: %w", err)
		}
		r.src = kb.Caller{ID: o.ID, Username: o.Username}
	}
	return r, nil
}

func (r *jobRun) progress(ctx context.Context, stage string, p float64) error {
	err := r.s.st.SetJobProgress(ctx, r.job.ID, r.owner, stage, p)
	if errors.Is(err, store.ErrLeaseLost) {
		return transient("lease_lost", "the worker lost the job's lease")
	}
	return err
}

func (r *jobRun) pipeline(ctx context.Context) error {
	src, err := r.source(ctx)
	if err != nil {
		return err
	}
	if err := r.progress(ctx, StageParse, 0.1); err != nil {
		return err
	}
	raw, v, ok, err := r.s.tree.RawBody(ctx, src, maxSourceBytes)
	if err != nil {
		return err
	}
	// Recorded before the parse, so a job that fails says which bytes it
	// failed on: a folder kept compiled does not queue them again.
	if err := r.s.st.SetJobFingerprint(ctx, r.job.ID, r.owner, r.snap.fingerprint(store.RoleSummary, v.BlobHash)); err != nil {
		return err
	}
	if !ok {
		return r.unreadable(ctx, permanent("too_large", "%s is larger than %d MB, the most the parse step reads", src.Name, maxSourceBytes>>20))
	}
	parsed, reused, err := r.s.tree.ParsedResult(ctx, src, v)
	if err != nil {
		return err
	}
	if !reused {
		if parsed, err = r.s.parse(ctx, src.Name, raw); err != nil {
			return r.unreadable(ctx, err)
		}
	}
	l2, added, err := r.s.tree.SaveL2(ctx, src, parsed, v)
	if err != nil {
		return err
	}
	r.res.L2Version = added
	if err := r.progress(ctx, StageSummarize, 0.3); err != nil {
		return err
	}
	if err := r.summarize(ctx, src, documentRef(v.BlobHash, l2.BlobHash, parsed), parsed.Text); err != nil {
		return err
	}
	if r.snap.NoOverview {
		return nil
	}
	if err := r.progress(ctx, StageOverview, 0.7); err != nil {
		return err
	}
	return r.overview(ctx)
}

// unreadable ends a job whose file has no text. When that is permanent the
// folder's existing overview is amended, without a model call, to list the
// file with its reason rather than hide it; the job fails either way.
func (r *jobRun) unreadable(ctx context.Context, err error) error {
	var f *Failure
	if !errors.As(err, &f) || f.Retryable {
		return err
	}
	r.failure = f
	if nerr := r.noteFailures(ctx); nerr != nil && ctx.Err() == nil {
		slog.Warn("list a failed file in the overview", "job", r.job.ID, "err", nerr)
	}
	return err
}

// hold is the publish guard: outputs are written only while this worker
// holds the job and no cancel was requested.
func (r *jobRun) hold(ctx context.Context) func(*store.Store) error {
	return func(tx *store.Store) error { return tx.HoldJob(ctx, r.job.ID, r.owner) }
}

// source re-reads the job's file through the tree, and so asks the
// authorizer again: a file deleted, moved or no longer shared since the
// request fails the job instead of compiling something else.
func (r *jobRun) source(ctx context.Context) (store.Node, error) {
	uri := kb.NodeURI(r.src.Username, r.job.Path, false)
	_, n, err := r.s.tree.Resolve(ctx, r.caller, uri)
	if e, ok := apierr.As(err); err != nil && (!ok || e.Status != http.StatusNotFound) {
		return store.Node{}, err // a database failure is retryable, not a missing source
	}
	if err != nil || r.job.NodeID == nil || n.ID != *r.job.NodeID || n.IsDir() {
		return store.Node{}, permanent("source_missing", "%s no longer exists or is no longer visible to you (deleted, moved, replaced or unshared since the request)", uri)
	}
	return n, nil
}

// summaryName maps a source name to its summary's name in the output folder.
func summaryName(name string) string {
	if strings.HasSuffix(strings.ToLower(name), ".md") {
		return name
	}
	return name + ".md"
}

// summarize writes and publishes the file's summary unless the existing one
// has the same fingerprint.
func (r *jobRun) summarize(ctx context.Context, src store.Node, doc sourceRef, text string) error {
	rawHash := doc.SHA256
	outPath := joinPath(r.job.OutputPath, summaryName(src.Name))
	r.res.SummaryURI = kb.NodeURI(r.caller.Username, outPath, false)
	fp := r.snap.fingerprint(store.RoleSummary, rawHash)
	if err := r.s.st.SetJobFingerprint(ctx, r.job.ID, r.owner, fp); err != nil {
		return err
	}
	if n, err := r.s.st.NodeByPath(ctx, r.caller.ID, outPath); err == nil {
		p, err := r.s.st.ProvenanceOf(ctx, n.ID)
		switch {
		case err == nil && p.SourceNodeID != nil && *p.SourceNodeID != src.ID:
			return permanent("output_conflict", "%s already summarizes another file", r.res.SummaryURI)
		case err == nil && p.Fingerprint == fp:
			r.res.SummarySkipped = true
			return nil
		}
	}
	srcURI := kb.NodeURI(r.src.Username, src.Path, false)
	prompt := skill.SummaryPrompt(srcURI, text)
	if doc.OCR != nil {
		prompt += fmt.Sprintf("\n\nThis text was recognized by OCR (%s, mean word confidence %.0f of 100) and may contain recognition errors: say in the summary that it comes from a scan, and do not present doubtful words as certain.",
			doc.OCR.Engine, doc.OCR.Confidence)
	}
	body, err := r.exec.run(ctx, r.system(), prompt)
	if err != nil {
		return err
	}
	doc.URI = srcURI
	if n := utf8.RuneCountInString(text); n > maxPromptChars {
		doc.SummarizedChars = maxPromptChars
	}
	sources := []sourceRef{doc}
	prov := r.provenance(store.RoleSummary, fp, sources)
	prov.SourceNodeID, prov.SourceHash = &src.ID, rawHash
	_, err = r.s.tree.Publish(ctx, r.caller, r.job.OutputPath, []knowledge.GeneratedFile{{
		Name: summaryName(src.Name), Text: r.frontMatter(store.RoleSummary, sources) + body + "\n", Provenance: prov,
	}}, r.hold(ctx))
	return err
}

// overview rebuilds the output folder's L1 and L0 from its summaries when
// they changed, unless other jobs of the folder will still publish.
func (r *jobRun) overview(ctx context.Context) error {
	pending, err := r.s.st.PendingForOutput(ctx, r.caller.ID, r.job.OutputPath, r.job.ID)
	if err != nil {
		return err
	}
	if pending > 0 {
		r.res.OverviewDeferred = true
		return nil
	}
	dir, err := r.s.st.NodeByPath(ctx, r.caller.ID, r.job.OutputPath)
	if err != nil {
		return err
	}
	nodes, _, err := r.s.st.SummariesIn(ctx, dir.ID)
	if err != nil || len(nodes) == 0 {
		return err
	}
	return r.rebuildOverview(ctx, nodes)
}

// rebuildOverview writes the output folder's L1 and L0 from the summaries
// nodes, unless their fingerprint is the one the overview has.
func (r *jobRun) rebuildOverview(ctx context.Context, nodes []store.Node) error {
	failed, err := r.failedFiles(ctx)
	if err != nil {
		return err
	}
	ids := make([]int64, len(nodes))
	for i, n := range nodes {
		ids[i] = n.ID
	}
	bodies, err := r.s.st.LatestBodies(ctx, ids)
	if err != nil {
		return err
	}
	var inputs []string
	var sources []sourceRef
	for _, n := range nodes {
		h := bodies[n.ID][store.BodyRaw].BlobHash
		inputs = append(inputs, n.Name+":"+h)
		sources = append(sources, sourceRef{URI: kb.NodeURI(r.caller.Username, n.Path, false), SHA256: h})
	}
	for _, f := range failed {
		inputs = append(inputs, "failed:"+f.name+":"+f.code)
	}
	sort.Strings(inputs)
	fp := r.snap.fingerprint(store.RoleOverview, inputs...)
	r.res.OverviewURI = kb.NodeURI(r.caller.Username, joinPath(r.job.OutputPath, OverviewName), false)
	r.res.AbstractURI = kb.NodeURI(r.caller.Username, joinPath(r.job.OutputPath, AbstractName), false)
	if n, err := r.s.st.NodeByPath(ctx, r.caller.ID, joinPath(r.job.OutputPath, OverviewName)); err == nil {
		if p, err := r.s.st.ProvenanceOf(ctx, n.ID); err == nil && p.Fingerprint == fp {
			r.res.OverviewSkipped = true
			return nil
		}
	}
	texts, err := r.s.tree.FileTexts(ctx, nodes, maxSummaryRead)
	if err != nil {
		return err
	}
	var parts []string
	for _, n := range nodes {
		parts = append(parts, "## "+strings.TrimSuffix(n.Name, ".md")+"\n\n"+stripFrontMatter(texts[n.ID]))
	}
	folderURI := kb.NodeURI(r.caller.Username, r.job.OutputPath, true)
	ov, err := r.exec.run(ctx, r.system(), overviewPrompt(folderURI, parts))
	if err != nil {
		return err
	}
	ov += failedSection(failed)
	ab, err := r.exec.run(ctx, r.system(), abstractPrompt(folderURI, ov))
	if err != nil {
		return err
	}
	if err := r.progress(ctx, StageOverview, 0.95); err != nil {
		return err
	}
	_, err = r.s.tree.Publish(ctx, r.caller, r.job.OutputPath, []knowledge.GeneratedFile{
		{Name: OverviewName, Text: r.frontMatter(store.RoleOverview, sources) + ov + "\n",
			Provenance: r.provenance(store.RoleOverview, fp, sources)},
		{Name: AbstractName, Text: r.frontMatter(store.RoleAbstract, sources) + ab + "\n",
			Provenance: r.provenance(store.RoleAbstract, fp, sources)},
	}, r.hold(ctx))
	return err
}

// sourceRef is one input of a generated file; for a summary's document it
// also says how the text was extracted and how much of it the model saw.
type sourceRef struct {
	URI             string `json:"uri"`
	SHA256          string `json:"sha256"`
	Extractor       string `json:"extractor,omitempty"`
	Encoding        string `json:"encoding,omitempty"`
	L2SHA256        string `json:"l2_sha256,omitempty"`
	Pages           int    `json:"pages,omitempty"`
	FailedPages     []int  `json:"failed_pages,omitempty"`
	TruncatedAt     int64  `json:"truncated_at,omitempty"`
	SummarizedChars int    `json:"summarized_chars,omitempty"`
	// OCR names the engine, languages, pages and confidences when the
	// text was recognized from pixels.
	OCR *extract.OCRInfo `json:"ocr,omitempty"`
}

func documentRef(rawHash, l2Hash string, res extract.Result) sourceRef {
	d := sourceRef{SHA256: rawHash, L2SHA256: l2Hash, Extractor: res.Extractor, Encoding: res.Encoding, Pages: res.Pages, OCR: res.OCR}
	for _, pe := range res.PageErrors {
		d.FailedPages = append(d.FailedPages, pe.Page)
	}
	if res.Truncated {
		d.TruncatedAt = res.TruncatedAt
	}
	return d
}

func (r *jobRun) provenance(role, fp string, sources []sourceRef) store.Provenance {
	b, _ := json.Marshal(sources)
	return store.Provenance{Role: role, Fingerprint: fp, SourcesJSON: string(b), JobID: r.job.ID,
		Executor: r.snap.Executor, Model: r.snap.modelLabel(), Skill: r.snap.Skill, SkillID: r.snap.skillID(), SkillHash: skill.Hash(r.snap.SkillPrompt),
		PromptVersion: r.snap.PromptVersion}
}

// frontMatter is the provenance block every generated file starts with.
func (r *jobRun) frontMatter(role string, sources []sourceRef) string {
	var b strings.Builder
	b.WriteString("---\ngenerated: true\nrole: " + role + "\nsources:\n")
	for _, s := range sources {
		fmt.Fprintf(&b, "  - uri: %q\n    sha256: %s\n", s.URI, s.SHA256)
		if s.Extractor != "" {
			fmt.Fprintf(&b, "    extractor: %q\n    l2_sha256: %s\n", s.Extractor, s.L2SHA256)
		}
		if s.Encoding != "" && s.Encoding != "utf-8" {
			fmt.Fprintf(&b, "    encoding: %s\n", s.Encoding)
		}
		if s.Pages > 0 {
			fmt.Fprintf(&b, "    pages: %d\n", s.Pages)
		}
		if len(s.FailedPages) > 0 {
			pages := make([]string, len(s.FailedPages))
			for i, p := range s.FailedPages {
				pages[i] = strconv.Itoa(p)
			}
			fmt.Fprintf(&b, "    failed_pages: [%s]\n", strings.Join(pages, ", "))
		}
		if s.OCR != nil {
			writeOCR(&b, s.OCR)
		}
		if s.TruncatedAt > 0 {
			fmt.Fprintf(&b, "    truncated_at: %d # characters kept of the extracted text\n", s.TruncatedAt)
		}
		if s.SummarizedChars > 0 {
			fmt.Fprintf(&b, "    summarized_chars: %d # the model saw only these first characters\n", s.SummarizedChars)
		}
	}
	fmt.Fprintf(&b, "executor: %s\nmodel: %q\nskill: %q\nskill_id: %q\nskill_hash: %s # first 12 hex digits of the SHA-256 of the skill's prompt\nprompt_version: %q\njob_id: %d\ngenerated_at: %s\n---\n\n",
		r.snap.Executor, r.snap.modelLabel(), r.snap.Skill, r.snap.skillID(), skill.Hash(r.snap.SkillPrompt), r.snap.PromptVersion, r.job.ID,
		time.Now().UTC().Format(time.RFC3339))
	return b.String()
}

// stripFrontMatter drops a leading "---" block.
func stripFrontMatter(s string) string { return knowledge.StripFrontMatter(s) }

func (r *jobRun) system() string {
	return skill.SystemPrompt(r.snap.SkillPrompt, r.snap.SkillOutputLanguage)
}

func overviewPrompt(folder string, summaries []string) string {
	body := strings.Join(summaries, "\n\n")
	if utf8.RuneCountInString(body) > maxPromptChars {
		body = string([]rune(body)[:maxPromptChars])
	}
	return "Write the overview of the folder " + folder + " from the summaries of its files below: what the folder holds, " +
		"the main themes, how the files relate, and which file to read for what.\n\n<summaries>\n" + body + "\n</summaries>"
}

func abstractPrompt(folder, overview string) string {
	return "Write the abstract of the folder " + folder + ": one paragraph of at most 80 words, from its overview below." +
		"\n\n<overview>\n" + overview + "\n</overview>"
}

func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
