package agent

import (
	"context"
	"encoding/json"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// Toolbox runs the knowledge tools inside one turn's scope.
type Toolbox interface {
	Specs() []llm.Tool
	Run(ctx context.Context, name string, args json.RawMessage) ToolOutcome
}

// ToolOutcome is what a tool call produced. A non-nil Err is returned to
// the model as a tool error it can act on; it does not end the turn.
type ToolOutcome struct {
	Result any
	Err    error
	// EndsTurn: the error is not the model's to fix (the scope is gone or
	// no longer visible to the caller), so the turn ends with it as an
	// error instead of handing it back to the model.
	EndsTurn   string
	Summary    string
	URI        string
	Offset     *int64
	NextOffset any
}

// MaxToolResultBytes is the ceiling for one tool result as sent to the
// model; a larger one becomes an explicit tool error, never a silent cut.
// It is the tools' own ceiling, so the limit the tools page by is the one
// the runner holds them to.
const MaxToolResultBytes = tools.MaxToolResultBytes

// Model is what the runner needs of a configured model.
type Model interface {
	Stream(ctx context.Context, req llm.Request) (*llm.Stream, error)
	Complete(ctx context.Context, req llm.Request) (*llm.Response, error)
	Meta() llm.Meta
}
