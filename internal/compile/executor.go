package compile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/config"
)

// CLI executor limits.
const (
	cliStderrTail = 2 << 10
	cliWaitDelay  = 2 * time.Second
)

// executor writes one text from a prompt: a summary, an overview or an
// abstract.
type executor interface {
	run(ctx context.Context, system, prompt string) (string, error)
}

// budgeted counts every executor call against the job's call_budget.
type budgeted struct {
	next executor
	max  int
	used int
}

func (b *budgeted) run(ctx context.Context, system, prompt string) (string, error) {
	if b.used >= b.max {
		return "", permanent("budget_exhausted", "the job needs more than its call_budget of %d model calls", b.max)
	}
	b.used++
	return b.next.run(ctx, system, prompt)
}

// executorFor builds the executor a snapshot names.
func (s *Service) executorFor(ctx context.Context, snap Snapshot, userID int64) (executor, error) {
	switch snap.Executor {
	case ExecutorLLM:
		if s.models == nil {
			return nil, permanent("bad_configuration", "no model is configured on this server")
		}
		if _, err := s.models.Lookup(snap.ModelID); err != nil {
			return nil, permanent("bad_configuration", "model %q of the job's snapshot is not configured on this server", snap.ModelID)
		}
		// Who may use a model can change while the job waits: the job
		// runs only if its user still may.
		m, err := s.models.LookupFor(ctx, userID, snap.ModelID)
		if llm.IsUnknownModel(err) {
			return nil, permanent("model_not_allowed", "you may no longer use model %q (an admin limits it to some users or groups); compile again with another model", snap.ModelID)
		}
		if err != nil {
			return nil, err
		}
		return llmExecutor{model: m, effort: snap.ReasoningEffort}, nil
	case ExecutorCLI:
		p, ok := s.profiles[snap.CLIProfile]
		if !ok {
			return nil, permanent("bad_configuration", "cli profile %q of the job's snapshot is not configured on this server", snap.CLIProfile)
		}
		argv, err := cliArgv(p, snap.Model, snap.ReasoningEffort)
		if err != nil {
			return nil, err
		}
		if s.cliUserErr != nil {
			return nil, permanent("bad_configuration", "%v", s.cliUserErr)
		}
		return cliExecutor{argv: argv, env: p.Env, user: s.cliUser}, nil
	}
	return nil, permanent("bad_configuration", "unknown executor %q", snap.Executor)
}

type llmExecutor struct {
	model  *llm.Model
	effort string
}

func (e llmExecutor) run(ctx context.Context, system, prompt string) (string, error) {
	resp, err := e.model.Complete(ctx, llm.Request{System: system, ReasoningEffort: e.effort,
		Messages: []llm.Message{{Role: llm.RoleUser, Content: prompt}}})
	if err != nil {
		return "", err
	}
	switch resp.Finish {
	case llm.FinishContentFilter:
		return "", permanent("model_refused", "the model refused to write this text (content filter)")
	case llm.FinishLength:
		return "", permanent("output_truncated", "the model's answer was cut at its output limit")
	}
	text := strings.TrimSpace(resp.Text)
	if text == "" {
		return "", permanent("empty_output", "the model returned no text")
	}
	if len(text) > maxSummaryBytes {
		return "", permanent("output_too_large", "the model's answer is larger than %d bytes", maxSummaryBytes)
	}
	return text, nil
}

// cliArgv substitutes the allowed model and effort into the profile's
// template. The values were checked against the profile at enqueue and are
// checked again here: the snapshot may outlive a configuration change.
func cliArgv(p config.CLIProfile, model, effort string) ([]string, error) {
	if len(p.Models) > 0 && !contains(p.Models, model) || len(p.Models) == 0 && model != "" {
		return nil, permanent("bad_configuration", "model %q is no longer allowed by cli profile %s", model, p.Name)
	}
	if len(p.Efforts) > 0 && !contains(p.Efforts, effort) || len(p.Efforts) == 0 && effort != "" {
		return nil, permanent("bad_configuration", "reasoning effort %q is no longer allowed by cli profile %s", effort, p.Name)
	}
	r := strings.NewReplacer("{model}", model, "{effort}", effort)
	out := make([]string, len(p.Argv))
	for i, a := range p.Argv {
		out[i] = r.Replace(a)
	}
	return out, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// cliExecutor runs a program without a shell: the system text and prompt go
// on stdin, the answer comes on stdout. The program is trusted code chosen
// by the operator, but it may run tools on model output, so it is given no
// more than it needs: only the environment variables its profile lists, an
// empty private working directory removed afterwards, its own process group
// killed whole when it ends, a cap on what it may write, and (see
// ProtectServer and cliUser) no way into the server's memory or /proc.
type cliExecutor struct {
	argv []string
	env  []string // names of the variables passed through
	user cliUser
}

func (e cliExecutor) run(ctx context.Context, system, prompt string) (string, error) {
	// MkdirTemp makes the directory 0700: other local users cannot look in.
	dir, err := os.MkdirTemp("", "knowspace-cli-")
	if err != nil {
		return "", fmt.Errorf("cli working directory: %w", err)
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, e.argv[0], e.argv[1:]...)
	cmd.Dir = dir
	cmd.Env = allowedEnv(e.env, os.LookupEnv)
	cmd.Stdin = strings.NewReader(system + "\n\n" + prompt)
	stdout := &capped{max: maxSummaryBytes}
	stderr := &tail{max: cliStderrTail}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownGroup(cmd)
	if err := e.user.apply(cmd, dir); err != nil {
		return "", err
	}
	// Children that keep the pipes open must not hold Wait forever.
	cmd.WaitDelay = cliWaitDelay
	err = cmd.Run()
	// A background child left behind would outlive the job and keep what
	// it was given; the group goes with its leader.
	killGroup(cmd)
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if stdout.over {
		return "", permanent("output_too_large", "%s wrote more than %d bytes", e.argv[0], maxSummaryBytes)
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		return "", permanent("cli_failed", "%s exited with status %d: %s", e.argv[0], exitErr.ExitCode(), stderr.String())
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return "", permanent("bad_configuration", "program %s of the cli profile is not installed", e.argv[0])
	case errors.Is(err, fs.ErrPermission):
		return "", permanent("bad_configuration", "program %s of the cli profile may not be run by the account CLI programs run as (cli_user)", e.argv[0])
	case errors.Is(err, exec.ErrWaitDelay):
		// The program exited; only a child holding its output was cut off.
	case err != nil:
		return "", permanent("cli_failed", "%s could not run: %v", e.argv[0], err)
	}
	if !utf8.Valid(stdout.buf.Bytes()) {
		return "", permanent("cli_failed", "%s wrote output that is not UTF-8", e.argv[0])
	}
	text := strings.TrimSpace(stdout.buf.String())
	if text == "" {
		return "", permanent("empty_output", "%s wrote nothing on stdout: %s", e.argv[0], stderr.String())
	}
	return text, nil
}

// allowedEnv is the child's whole environment: the listed variables that
// are set. It is never nil, since a nil Env would inherit everything.
func allowedEnv(names []string, lookup func(string) (string, bool)) []string {
	env := []string{}
	for _, n := range names {
		if v, ok := lookup(n); ok {
			env = append(env, n+"="+v)
		}
	}
	return env
}

// capped keeps at most max bytes and notes that there were more.
// It has no ReadFrom, so io.Copy cannot bypass the cap.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.over = true
		c.buf.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return c.buf.Write(p)
}

// tail keeps the last max bytes written.
type tail struct {
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	s := strings.TrimSpace(strings.ToValidUTF8(string(t.buf), ""))
	if s == "" {
		return "(no output on stderr)"
	}
	return s
}
