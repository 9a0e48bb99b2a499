package tools

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/store"
)

// JobInfo is one parse or compile job as status reports it (SPEC §6).
type JobInfo struct {
	ID        int64     `json:"id"`
	Kind      string    `json:"kind"`
	URI       string    `json:"uri"`
	State     string    `json:"state"`
	Stage     string    `json:"stage"`
	Error     string    `json:"error"`
	UpdatedAt time.Time `json:"updated_at"`
}

// StatusResult lists the caller's latest jobs for the scope and how much
// of it they have compiled.
type StatusResult struct {
	URI      string         `json:"uri"`
	Coverage store.Coverage `json:"coverage"`
	Jobs     []JobInfo      `json:"jobs"`
	Note     string         `json:"note,omitempty"`
}

var statusTool = toolDef{
	name: "status",
	description: "Show how much of a file or folder in the scope is compiled, and the caller's latest parse and compile jobs there " +
		"(state, stage, error). coverage counts the files below it: summarized (summary up to date), stale (the file changed " +
		"since its summary), failed (the latest compile failed), compiling, never_compiled. Where summaries are up to date, " +
		"read them (and the folder overviews ls shows) before the raw files.",
	tooBig: "ask about a single file instead of a folder",
	args:   []argSpec{uriArg("The file or folder to report on.")},
	run:    (*Service).runStatus,
	result: reflect.TypeFor[*StatusResult](),
}

// statusJobLimit bounds how many jobs status reports, newest first.
const statusJobLimit = 20

// runStatus reports the caller's newest compile jobs (parsing is their
// first stage) for the target file, or for every file below a folder.
func (t *Service) runStatus(ctx context.Context, call toolCall) (any, string, error) {
	js, err := t.Store().ListJobs(ctx, call.c.ID, store.JobFilter{SourceUserID: call.node.UserID, Path: call.node.Path, Limit: statusJobLimit})
	if err != nil {
		return nil, "", apierr.Internal("status tool: list jobs", err)
	}
	cv, err := t.Store().CompileCoverage(ctx, call.c.ID, call.node.UserID, call.node.Path)
	if err != nil {
		return nil, "", apierr.Internal("status tool: compile coverage", err)
	}
	out := &StatusResult{URI: call.uri.String(), Coverage: cv, Jobs: make([]JobInfo, 0, len(js))}
	for _, j := range js {
		info := JobInfo{ID: j.ID, Kind: j.Kind, URI: kb.NodeURI(call.tg.Owner.Username, j.Path, false),
			State: j.State, Stage: j.Stage, UpdatedAt: j.UpdatedAt}
		if j.ErrorCode != "" {
			info.Error = j.ErrorCode + ": " + j.ErrorMessage
		}
		out.Jobs = append(out.Jobs, info)
	}
	counts := fmt.Sprintf("%d of %s summarized, %d stale, %d failed", cv.Fresh, counted(int(cv.Files), "file"), cv.Stale, cv.Failed)
	switch {
	case len(js) == 0:
		out.Note = "no parse or compile jobs exist for this scope: nothing here has been parsed or compiled yet"
		return out, "no jobs; " + counts, nil
	case len(js) == statusJobLimit:
		out.Note = fmt.Sprintf("only the newest %d jobs are shown", statusJobLimit)
	}
	return out, counted(len(js), "job") + "; " + counts, nil
}
