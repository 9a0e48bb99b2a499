package knowledge

import (
	"context"
	"time"
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

// StatusResult lists the caller's latest jobs for the scope.
type StatusResult struct {
	URI  string    `json:"uri"`
	Jobs []JobInfo `json:"jobs"`
	Note string    `json:"note,omitempty"`
}

var statusTool = toolDef{
	name: "status",
	description: "Show the caller's latest parse and compile jobs for a file or folder in the scope " +
		"(state, stage, error), to tell whether a file has been parsed or summarized yet.",
	tooBig: "ask about a single file instead of a folder",
	args:   []argSpec{uriArg("The file or folder to report on.")},
	run:    (*Tree).runStatus,
}

// runStatus reports truthfully that there are no jobs: this build has no
// job queue yet, so nothing has been parsed or compiled.
func (t *Tree) runStatus(_ context.Context, call toolCall) (any, string, error) {
	return &StatusResult{
		URI:  call.uri.String(),
		Jobs: []JobInfo{},
		Note: "no parse or compile jobs exist for this scope: this server has no job queue yet, so nothing here has been parsed or compiled",
	}, "no jobs", nil
}
