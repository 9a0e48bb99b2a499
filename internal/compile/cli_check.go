package compile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
)

// cliCheckTimeout bounds the version call of CheckCLIProfile.
const cliCheckTimeout = 5 * time.Second

// HasCLIProfile tells whether the server has a CLI profile of that name.
func (s *Service) HasCLIProfile(name string) bool {
	_, ok := s.profiles[name]
	return ok
}

// CheckCLIProfile tells whether a CLI profile's program can run here: it
// must be on the server and answer "--version" within a few seconds, run as
// a job would run it (its own environment only, an empty private working
// directory, its process group ended after). It makes no model call: a CLI
// has no standard one-token request, and a whole compile prompt would cost
// a real call and minutes. The error's code is one of cli_not_installed,
// cli_timeout, cli_failed; its message names the profile, never its argv.
// Unknown names are 404 cli_profile_not_found.
func (s *Service) CheckCLIProfile(ctx context.Context, name string) (*JobError, error) {
	p, ok := s.profiles[name]
	if !ok {
		return nil, apierr.NotFound(apierr.CodeCLIProfileNotFound, "no cli profile named %q", name)
	}
	if _, err := exec.LookPath(p.Argv[0]); err != nil {
		return &JobError{Code: "cli_not_installed", Message: "the program of cli profile " + name + " is not installed on the server"}, nil
	}
	dir, err := os.MkdirTemp("", "knowspace-cli-check-")
	if err != nil {
		return nil, apierr.Internal("check cli profile: make temp dir", err)
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(ctx, cliCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.Argv[0], "--version")
	cmd.Dir = dir
	cmd.Env = allowedEnv(p.Env, os.LookupEnv)
	ownGroup(cmd)
	if s.cliUserErr != nil {
		return &JobError{Code: "bad_configuration", Message: s.cliUserErr.Error()}, nil
	}
	if err := s.cliUser.apply(cmd, dir); err != nil {
		return nil, apierr.Internal("check cli profile: run as cli user", err)
	}
	cmd.WaitDelay = cliWaitDelay
	err = cmd.Run()
	killGroup(cmd)
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return &JobError{Code: "cli_timeout", Message: "the program of cli profile " + name + " did not answer --version within " + cliCheckTimeout.String()}, nil
	case errors.As(err, &exitErr):
		return &JobError{Code: "cli_failed", Message: fmt.Sprintf("the program of cli profile %s exited with status %d on --version", name, exitErr.ExitCode())}, nil
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		return &JobError{Code: "cli_failed", Message: "the program of cli profile " + name + " could not run"}, nil
	}
	return nil, nil
}
