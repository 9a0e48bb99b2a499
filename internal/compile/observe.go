package compile

import (
	"log/slog"
	"time"

	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
)

// fromNone is the from-state of a job just created.
const fromNone = "none"

// transition counts one job's state change and writes its one log line:
// job id, kind, from → to, and the worker that made it ("" for a user's
// request). attrs add the outcome's details, never file contents.
func transition(j store.Job, from, to, worker string, attrs ...any) {
	observe.JobTransition(j.Kind, from, to, 1)
	args := append([]any{"job", j.ID, "kind", j.Kind, "from", from, "to", to}, attrs...)
	if worker != "" {
		args = append(args, "worker", worker)
	}
	slog.Info("compile job", args...)
}

// queueWait is how long a claimed job waited since it could first run.
func queueWait(j store.Job, claimed time.Time) time.Duration {
	ready := j.RunAfter
	if ready.Before(j.CreatedAt) {
		ready = j.CreatedAt
	}
	return claimed.Sub(ready)
}
