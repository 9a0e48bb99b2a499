package compile

import (
	"context"
	"errors"
	"fmt"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge"
)

// Failure is a classified job error: Retryable failures (rate limits,
// server errors, timeouts, a lost lease) go back to the queue with backoff
// while attempts remain; the others fail the job at once. Message is shown
// to the user and never holds a secret.
type Failure struct {
	Code      string
	Message   string
	Retryable bool
	cause     error
}

func (f *Failure) Error() string { return f.Code + ": " + f.Message }
func (f *Failure) Unwrap() error { return f.cause }

func permanent(code, format string, args ...any) *Failure {
	return &Failure{Code: code, Message: fmt.Sprintf(format, args...)}
}

func transient(code, format string, args ...any) *Failure {
	return &Failure{Code: code, Message: fmt.Sprintf(format, args...), Retryable: true}
}

// Errors a running job's context is cancelled with.
var (
	errCancelled = errors.New("job cancelled by the user")
	errLeaseLost = errors.New("job lease lost")
	errStopping  = errors.New("worker stopping")
	errTimeout   = errors.New("job timeout")
)

// classify turns any error of a job run into a Failure. ctx is the job's
// context, whose cause tells cancellations apart.
func classify(ctx context.Context, err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	var jf interface {
		JobFailure() (code, message string, retryable bool)
	}
	if errors.As(err, &jf) {
		code, msg, retry := jf.JobFailure()
		return &Failure{Code: code, Message: msg, Retryable: retry, cause: err}
	}
	if cause := context.Cause(ctx); cause != nil {
		switch {
		case errors.Is(cause, errTimeout):
			return &Failure{Code: "timeout", Message: "the job ran past its timeout_s", Retryable: true, cause: err}
		case errors.Is(cause, errLeaseLost):
			return &Failure{Code: "lease_lost", Message: "the worker lost the job's lease", Retryable: true, cause: err}
		}
	}
	// The machine's faults pass: the job runs again once there is room
	// or the database is back, and the user may retry it after that.
	switch {
	case apierr.IsNoSpace(err):
		return &Failure{Code: "insufficient_storage", Message: "the server ran out of storage space", Retryable: true, cause: err}
	case errors.Is(err, apierr.ErrUnavailable):
		return &Failure{Code: "unavailable", Message: "the database was unavailable", Retryable: true, cause: err}
	}
	if errors.Is(err, knowledge.ErrOutputTaken) {
		return &Failure{Code: "output_conflict", Message: "an output file would replace a file that is not generated: " + err.Error(), cause: err}
	}
	if llm.IsUnknownModel(err) {
		return &Failure{Code: "bad_configuration", Message: "the snapshot's model is no longer configured on this server", cause: err}
	}
	if e, ok := llm.AsError(err); ok {
		return &Failure{Code: e.Code(), Message: e.Message, Retryable: e.Retryable(), cause: err}
	}
	// Unknown errors are most likely the database or the disk: worth
	// another attempt, and attempts are bounded.
	return &Failure{Code: "internal", Message: "internal error while running the job", Retryable: true, cause: err}
}
