// Package compile turns raw files into summaries plus per-folder overviews
// (SPEC §7): it validates compile requests, freezes their configuration
// into job snapshots, runs the job queue's workers and publishes the
// results into the user's tree.
package compile

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/extract"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/skill"
	"github.com/knowspace/knowspace/internal/store"
)

// Request and job limits.
const (
	MaxFiles        = 32
	MaxCallBudget   = 64
	MaxTimeoutS     = 3600
	MaxAttempts     = 10
	JobKind         = "wiki_compile"
	maxSourceBytes  = 50 << 20 // raw bytes read for parsing
	maxPromptChars  = skill.MaxDocumentChars
	maxSummaryBytes = 256 << 10 // executor output accepted as a summary
	maxSummaryRead  = 64 << 10  // bytes of each summary fed to the overview
)

// Defaults are the server's compiler settings that fill what a request
// leaves out. A request never changes them.
type Defaults struct {
	Executor        string `json:"executor"`
	ModelID         string `json:"model_id,omitempty"`
	CallBudget      int    `json:"call_budget"`
	TimeoutS        int    `json:"timeout_s"`
	ReasoningEffort string `json:"reasoning_effort"`
	Skill           string `json:"skill"`
	MaxAttempts     int    `json:"max_attempts"`
	MaxFiles        int    `json:"max_files"`
}

// DefaultDefaults are the compiled-in settings.
var DefaultDefaults = Defaults{Executor: ExecutorLLM, CallBudget: 8, TimeoutS: 600,
	ReasoningEffort: "medium", Skill: DefaultSkill, MaxAttempts: 3, MaxFiles: MaxFiles}

// Options configure a Service.
type Options struct {
	Store       *store.Store
	Tree        *knowledge.Tree
	Models      *llm.Registry // may be nil: only CLI profiles then
	CLIProfiles []config.CLIProfile
	Defaults    Defaults
	// Lease is how long a claim lasts without renewal (default 30s);
	// Heartbeat is how often a running job renews it and looks for a
	// cancel request (default 1s); Poll is how often an idle worker looks
	// at the queue (default 1s; an enqueue wakes local workers at once).
	Lease, Heartbeat, Poll time.Duration
	// Backoff is the wait before retry n (1-based) of a transient failure;
	// default 2s, 4s, 8s… capped at 5 minutes.
	Backoff func(attempt int) time.Duration
	// Extraction runs each parse in a child process with a deadline and a
	// memory ceiling. Nil parses in-process, without those bounds.
	Extraction *extract.Isolation
	// Skills resolves the skill a request names; nil knows the built-ins
	// only.
	Skills *skill.Service
	// Budget refuses to queue or start a job that calls our models when
	// its user's usage budget is spent; nil checks none.
	Budget Budget
	// QueuedJobsPerUser caps one user's waiting jobs (default 200), so
	// one user cannot fill the queue for everyone.
	QueuedJobsPerUser int
	// AutoRetry is how long a folder kept compiled waits to be scanned
	// again when its batch could not queue everything (default 15s).
	AutoRetry time.Duration
	// Runners run the jobs of other kinds (a folder import) on the same
	// queue, leases, progress and cancel; a kind without one is a compile.
	Runners map[string]Runner
	// CLIUser is the account CLI profiles run as (config cli_user); empty
	// is the server's own, or "nobody" when the server runs as root.
	CLIUser string
}

// Runner runs one claimed job of its kind. ctx ends when the user cancels,
// the lease is lost or the worker stops; an error implementing
// JobFailure() sets the job's error code. A runner whose effect must not
// happen twice completes the job in the transaction of its effect and
// returns store.Completed.
type Runner interface {
	Run(ctx context.Context, j store.Job, owner string) (any, error)
}

// Service is the compile front door: enqueue, job queries, workers.
type Service struct {
	st       *store.Store
	tree     *knowledge.Tree
	models   *llm.Registry
	profiles map[string]config.CLIProfile
	order    []string
	lease    time.Duration
	beat     time.Duration
	poll     time.Duration
	backoff  func(int) time.Duration
	extract  *extract.Isolation
	skills   *skill.Service
	runners  map[string]Runner
	budget   Budget
	// cliUser runs CLI profiles; cliUserErr, when set, fails CLI jobs.
	cliUser    cliUser
	cliUserErr error
	// autoRetry: see Options.AutoRetry.
	autoRetry time.Duration

	mu       sync.RWMutex
	defaults Defaults

	wake      chan struct{}
	maxQueued int
	// running counts the worker goroutines alive in this process, for
	// readiness.
	running atomic.Int64
}

// New builds the service.
func New(o Options) *Service {
	s := &Service{st: o.Store, tree: o.Tree, models: o.Models, budget: o.Budget, profiles: map[string]config.CLIProfile{},
		lease: o.Lease, beat: o.Heartbeat, poll: o.Poll, backoff: o.Backoff, extract: o.Extraction,
		skills:    o.Skills,
		runners:   o.Runners,
		wake:      make(chan struct{}, 1),
		maxQueued: o.QueuedJobsPerUser, autoRetry: o.AutoRetry}
	if s.autoRetry <= 0 {
		s.autoRetry = DefaultAutoRetry
	}
	if s.maxQueued <= 0 {
		s.maxQueued = DefaultQueuedJobsPerUser
	}
	for _, p := range o.CLIProfiles {
		s.profiles[p.Name] = p
		s.order = append(s.order, p.Name)
	}
	s.cliUser, s.cliUserErr = lookupCLIUser(o.CLIUser)
	if s.lease <= 0 {
		s.lease = 30 * time.Second
	}
	if s.beat <= 0 {
		s.beat = min(time.Second, s.lease/3)
	}
	if s.poll <= 0 {
		s.poll = time.Second
	}
	if s.backoff == nil {
		s.backoff = func(n int) time.Duration {
			return min(time.Duration(1<<min(n, 10))*time.Second, 5*time.Minute)
		}
	}
	s.SetDefaults(o.Defaults)
	return s
}

// SetDefaults replaces the server's compiler settings; zero fields take
// DefaultDefaults. Jobs already enqueued keep their snapshots.
func (s *Service) SetDefaults(d Defaults) {
	dd := DefaultDefaults
	if d.Executor != "" {
		dd.Executor = d.Executor
	}
	if d.ModelID != "" {
		dd.ModelID = d.ModelID
	}
	if d.CallBudget > 0 {
		dd.CallBudget = d.CallBudget
	}
	if d.TimeoutS > 0 {
		dd.TimeoutS = d.TimeoutS
	}
	if d.ReasoningEffort != "" {
		dd.ReasoningEffort = d.ReasoningEffort
	}
	if d.Skill != "" {
		dd.Skill = d.Skill
	}
	if d.MaxAttempts > 0 {
		dd.MaxAttempts = d.MaxAttempts
	}
	s.mu.Lock()
	s.defaults = dd
	s.mu.Unlock()
}

// Defaults returns the current compiler settings.
func (s *Service) Defaults() Defaults {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.defaults
}

// CLIProfileOption is the safe description of a CLI profile for the
// options endpoint: never its argv.
type CLIProfileOption struct {
	Name    string   `json:"name"`
	Models  []string `json:"models"`
	Efforts []string `json:"efforts"`
}

// CLIProfiles lists the configured CLI profiles, in configuration order.
func (s *Service) CLIProfiles() []CLIProfileOption {
	out := make([]CLIProfileOption, 0, len(s.order))
	for _, name := range s.order {
		p := s.profiles[name]
		out = append(out, CLIProfileOption{Name: p.Name, Models: nonNil(p.Models), Efforts: nonNil(p.Efforts)})
	}
	return out
}

// OptionDefaults is compile_defaults for the options endpoint.
func (s *Service) OptionDefaults() map[string]any { return OptionDefaults(s.Defaults()) }

// OptionDefaults renders d for the options endpoint, with the skills and
// the bounds a request must respect.
func OptionDefaults(d Defaults) map[string]any {
	return map[string]any{
		"max_files": MaxFiles, "executor": d.Executor, "model_id": d.ModelID, "call_budget": d.CallBudget,
		"timeout_s": d.TimeoutS, "reasoning_effort": d.ReasoningEffort, "skill": d.Skill,
		"skills": skill.Options(skill.Builtins()), "max_call_budget": MaxCallBudget, "max_timeout_s": MaxTimeoutS,
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Notify wakes an idle local worker after another kind's job is enqueued.
func (s *Service) Notify() { s.notify() }

// notify wakes one idle local worker.
func (s *Service) notify() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
