package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// KnowledgeTools is the Toolbox of a turn: the four knowledge tools, bound
// to the caller and pinned to the turn's scope.
type KnowledgeTools struct {
	Tree   *knowledge.Tree
	Caller kb.Caller
	Scope  kb.Scope
}

// Specs describes the tools to the model.
func (k KnowledgeTools) Specs() []llm.Tool {
	tools := tools.New(k.Tree).Tools()
	out := make([]llm.Tool, len(tools))
	for i, t := range tools {
		out[i] = llm.Tool{Name: t.Name, Description: t.Description, Parameters: t.Schema}
	}
	return out
}

// Run executes one call; failures become tool errors the model can act on.
func (k KnowledgeTools) Run(ctx context.Context, name string, args json.RawMessage) ToolOutcome {
	res, err := tools.New(k.Tree).RunScopedTool(ctx, k.Caller, k.Scope, name, args)
	if err != nil {
		if e, ok := apierr.As(err); ok && e.Status < 500 {
			out := ToolOutcome{Err: errors.New(e.Message)}
			if e.Code == apierr.CodeScopeNotFound {
				out.EndsTurn = e.Code.String()
			}
			return out
		}
		return ToolOutcome{Err: errors.New("the tool failed on the server; try again or ask about something else")}
	}
	out := ToolOutcome{Result: res.JSON, Summary: res.Summary, URI: res.URI}
	switch v := res.Value.(type) {
	case *tools.ReadResult:
		off := v.Offset
		out.Offset = &off
		if v.NextOffset != nil {
			out.NextOffset = *v.NextOffset
		}
	case *tools.SearchResult:
		if v.NextOffset != nil {
			out.NextOffset = *v.NextOffset
		}
	case *tools.LsResult:
		switch {
		case v.NextOffset != nil:
			out.NextOffset = *v.NextOffset
		case v.NextCursor != nil:
			out.NextOffset = *v.NextCursor
		}
	}
	return out
}

// Material is what a text-only model gets instead of tools: the first page
// of the scope's listing, or the first page of the file. Scope URIs are
// canonical, so folders end with "/".
func (k KnowledgeTools) Material(ctx context.Context) string {
	cmd := "read"
	if strings.HasSuffix(k.Scope.URI, "/") {
		cmd = "ls"
	}
	res, err := tools.New(k.Tree).RunScopedTool(ctx, k.Caller, k.Scope, cmd, json.RawMessage(`{"uri":`+jsonString(k.Scope.URI)+`}`))
	if err != nil {
		msg := "the scope could not be read"
		if e, ok := apierr.As(err); ok && e.Status < 500 {
			msg = e.Message
		}
		return "(" + msg + ")"
	}
	return cmd + " " + k.Scope.URI + " →\n" + string(res.JSON)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
