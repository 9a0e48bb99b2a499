package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
)

// addTools publishes the knowledge tools as they are: the argument schema
// the model sees, an output schema inferred from the result type, and a
// handler that runs the very command POST /knowledge-agent/command runs.
func addTools(s *mcp.Server, tree *knowledge.Tree) {
	for _, t := range tools.New(tree).Tools() {
		out, err := outputSchema(t.Result)
		if err != nil {
			panic(fmt.Sprintf("mcp: output schema of %s: %v", t.Name, err)) // static types
		}
		name := t.Name
		s.AddTool(&mcp.Tool{
			Name:         name,
			Title:        name,
			Description:  t.Description,
			InputSchema:  t.Schema,
			OutputSchema: out,
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false), IdempotentHint: true},
		}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			c, ctx, done, ok := callerOf(ctx, req.Extra)
			defer done()
			if !ok {
				return toolError(apierr.Unauthorized(apierr.CodeMissingToken, "sign in first: send Authorization: Bearer <token>")), nil
			}
			res, err := tools.New(tree).RunNamedCommand(ctx, c, name, req.Params.Arguments)
			if err != nil {
				return toolError(err), nil
			}
			return &mcp.CallToolResult{
				// Older clients read only content: the same JSON as text.
				Content:           []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}},
				StructuredContent: res.JSON,
			}, nil
		})
	}
}

// toolError is a failed call the model can read and act on: isError with
// our error object, as text and as structured content.
func toolError(err error) *mcp.CallToolResult {
	e := apierr.From(err)
	js, _ := json.Marshal(errorBody(e))
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(js)}},
		StructuredContent: json.RawMessage(js),
	}
}

// outputSchema infers a result's JSON Schema from its Go type; embedded
// raw JSON (an extraction report) is any JSON value.
func outputSchema(t reflect.Type) (*jsonschema.Schema, error) {
	if t == nil {
		return nil, fmt.Errorf("no result type")
	}
	// A successful result is never null, and clients insist on an output
	// schema of type "object", not ["null", "object"].
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return jsonschema.ForType(t, &jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {}},
	})
}
