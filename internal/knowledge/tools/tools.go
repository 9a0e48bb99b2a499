package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"

	"github.com/knowspace/knowspace/internal/access"
	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// MaxToolResultBytes is the ceiling on one tool result encoded as JSON. A
// result over it is an explicit error telling the model how to ask for
// less, never a silently shortened answer.
const MaxToolResultBytes = 32 << 10

// Tool is what a model is told about one tool.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"parameters"` // JSON Schema of the arguments
	// Result is the type of a successful result's Value (*LsResult, ...),
	// for front doors that publish an output schema.
	Result reflect.Type `json:"-"`
}

// ToolResult is the outcome of one successful call.
type ToolResult struct {
	Tool    string
	URI     string          // the resource the call looked at
	Summary string          // one line for a tool card, e.g. "12 items"
	Value   any             // *LsResult, *ReadResult, *SearchResult or *StatusResult
	JSON    json.RawMessage // Value encoded, at most MaxToolResultBytes
}

// toolRun is one tool's implementation: the target has been resolved and
// checked against the scope, the arguments against the schema.
type toolRun func(t *Service, ctx context.Context, call toolCall) (any, string, error)

type toolCall struct {
	c    kb.Caller
	uri  kb.URI
	node store.Node
	tg   knowledge.Target
	args toolArgs
	// shared: the target is kb://shared/ itself, which only ls and
	// search take; roots are what is shared with the caller at this call.
	shared bool
	roots  []store.SharedRoot
	// door: what a search without a mode means (searchMode).
	door door
}

// scopeURI spells the call's target.
func (call toolCall) scopeURI() string {
	if call.shared {
		return kb.SharedURI
	}
	return call.uri.String()
}

// fileURI spells a file the call visits, in whichever tree it is.
func (call toolCall) fileURI(f store.Node) string {
	return kb.NodeURI(call.ownerOf(f), f.Path, false)
}

// ownerOf names the owner of a node the call visits.
func (call toolCall) ownerOf(n store.Node) string {
	if call.shared {
		for _, r := range call.roots {
			if r.UserID == n.UserID {
				return r.Owner
			}
		}
	}
	return call.tg.Owner.Username
}

// baseOf is the folder a path filter is relative to for a node the call
// visits: the target folder, or the shared root holding the node.
func (call toolCall) baseOf(n store.Node) string {
	if call.shared {
		for _, r := range call.roots {
			if r.UserID == n.UserID && access.Within(n.Path, r.Path) {
				if !r.IsDir() {
					return parentPath(r.Path)
				}
				return r.Path
			}
		}
	}
	if !call.node.IsDir() {
		return parentPath(call.node.Path)
	}
	return call.node.Path
}

// cursorAt is a search cursor just after the file f.
func (call toolCall) cursorAt(f store.Node) *searchCursor {
	c := &searchCursor{Path: f.Path}
	if call.shared {
		c.Owner = f.UserID
	}
	return c
}

type toolDef struct {
	name, description string
	tooBig            string // advice when a result passes the ceiling
	args              []argSpec
	run               toolRun
	result            reflect.Type
}

// toolNames lists the tools in the order the model is shown them.
var toolNames = []string{"ls", "read", "search", "status"}

func toolDefs() map[string]toolDef {
	return map[string]toolDef{
		"ls":     lsTool,
		"read":   readTool,
		"search": searchTool,
		"status": statusTool,
	}
}

// Tools describes the four knowledge tools with their argument schemas.
func (t *Service) Tools() []Tool {
	defs := toolDefs()
	out := make([]Tool, 0, len(toolNames))
	for _, name := range toolNames {
		d := defs[name]
		out = append(out, Tool{Name: d.name, Description: d.description, Schema: schemaOf(d.args), Result: d.result})
	}
	return out
}

// RunScopedTool validates args against the tool's schema, re-resolves the
// scope, checks the target uri lies inside it, runs the tool and encodes
// the result under MaxToolResultBytes. Errors are *apierr.Error values
// whose Message is written for the model to act on.
func (t *Service) RunScopedTool(ctx context.Context, c kb.Caller, sc kb.Scope, name string, args json.RawMessage) (ToolResult, error) {
	def, ok := toolDefs()[name]
	if !ok {
		return ToolResult{}, apierr.BadRequest(apierr.CodeUnknownTool, "there is no tool %q; the tools are %s", kb.Clip(name, 40), strings.Join(toolNames, ", "))
	}
	a, err := decodeArgs(name, def.args, args)
	if err != nil {
		return ToolResult{}, err
	}
	s, err := t.resolveScope(ctx, c, sc)
	if err != nil {
		return ToolResult{}, err
	}
	return t.runTool(ctx, c, s, def, a, doorModel)
}

// RunCommand runs an explicit command {command, uri, ...arguments} with the
// uri itself as the scope: the same validation, results and limits as a
// model's tool call (POST /knowledge-agent/command).
func (t *Service) RunCommand(ctx context.Context, c kb.Caller, body []byte) (ToolResult, error) {
	fields, err := decodeObject("the command", body)
	if err != nil {
		return ToolResult{}, err
	}
	var name string
	rest := fields[:0:0]
	for _, f := range fields {
		if f.Key != "command" {
			rest = append(rest, f)
			continue
		}
		if err := json.Unmarshal(f.Value, &name); err != nil || !strings.HasPrefix(string(bytes.TrimSpace(f.Value)), `"`) {
			return ToolResult{}, invalidArgs("command must be a string: one of %s", strings.Join(toolNames, ", "))
		}
	}
	if name == "" {
		return ToolResult{}, invalidArgs("command is required: one of %s", strings.Join(toolNames, ", "))
	}
	return t.runCommand(ctx, c, name, rest, doorScript)
}

// RunNamedCommand is RunCommand with the command's name apart from its JSON
// arguments {uri, ...}: the entry point of front doors that name the tool
// in their own envelope (MCP's tools/call), so both run one code path. Its
// callers are models, so a search without a mode is chosen as the agent's.
func (t *Service) RunNamedCommand(ctx context.Context, c kb.Caller, name string, args json.RawMessage) (ToolResult, error) {
	fields, err := decodeObject("arguments for "+kb.Clip(name, 40), args)
	if err != nil {
		return ToolResult{}, err
	}
	// MCP's clients are models reading the tool's description: a search
	// without a mode means what it means for the agent.
	return t.runCommand(ctx, c, name, fields, doorModel)
}

func (t *Service) runCommand(ctx context.Context, c kb.Caller, name string, fields []field, d door) (ToolResult, error) {
	def, ok := toolDefs()[name]
	if !ok {
		return ToolResult{}, apierr.BadRequest(apierr.CodeUnknownCommand, "there is no command %q; the commands are %s", kb.Clip(name, 40), strings.Join(toolNames, ", "))
	}
	a, err := checkArgs(name, def.args, fields)
	if err != nil {
		return ToolResult{}, err
	}
	// The uri is its own scope, so a missing node is a plain not_found.
	sc, err := t.commandScope(ctx, c, a.str("uri"))
	if err != nil {
		return ToolResult{}, err
	}
	return t.runTool(ctx, c, sc, def, a, d)
}

func (t *Service) commandScope(ctx context.Context, c kb.Caller, raw string) (resolvedScope, error) {
	raw, err := knowledge.NarrowScope(c, raw)
	if err != nil {
		return resolvedScope{}, err
	}
	if kb.IsSharedURI(raw) {
		return t.resolveScope(ctx, c, kb.Scope{URI: kb.SharedURI})
	}
	tg, err := t.Lookup(ctx, c, raw, access.Read)
	return resolvedScope{Target: tg}, err
}

func (t *Service) runTool(ctx context.Context, c kb.Caller, s resolvedScope, def toolDef, a toolArgs, d door) (ToolResult, error) {
	call, err := t.callIn(ctx, c, s, a)
	if err != nil {
		return ToolResult{}, err
	}
	call.door = d
	return t.runCall(ctx, call, def)
}

// callIn resolves the call's uri argument inside the resolved scope: the
// one lookup of its target, which the tool and anything beside it (the
// name matches of a REST search) then share.
func (t *Service) callIn(ctx context.Context, c kb.Caller, s resolvedScope, a toolArgs) (toolCall, error) {
	tg, err := t.resolveTarget(ctx, c, s, a.str("uri"))
	if err != nil {
		return toolCall{}, err
	}
	return toolCall{c: c, uri: tg.URI, node: tg.Node, tg: tg, args: a, shared: tg.Node.ID == 0, roots: s.roots}, nil
}

// runCall runs a tool on a resolved call and encodes its result under
// MaxToolResultBytes.
func (t *Service) runCall(ctx context.Context, call toolCall, def toolDef) (ToolResult, error) {
	if call.shared && def.name != "ls" && def.name != "search" {
		return ToolResult{}, apierr.BadRequest(apierr.CodeVirtualFolder,
			"%s lists what others share with you and holds no files itself; %s one of its entries instead (ls %s shows their uris)", kb.SharedURI, def.name, kb.SharedURI)
	}
	v, summary, err := def.run(t, ctx, call)
	if err != nil {
		return ToolResult{}, err
	}
	js, err := encodeResult(v)
	if err != nil {
		return ToolResult{}, apierr.Internal("encode tool result", err)
	}
	if len(js) > MaxToolResultBytes {
		return ToolResult{}, apierr.New(http.StatusUnprocessableEntity, apierr.CodeResultTooLarge,
			"the %s result for %s is %d bytes, over the %d-byte limit for one tool result; %s",
			def.name, call.uri, len(js), MaxToolResultBytes, def.tooBig)
	}
	return ToolResult{Tool: def.name, URI: call.scopeURI(), Summary: summary, Value: v, JSON: js}, nil
}

// encodeResult marshals without HTML escaping: "<" as \u003c would cost six
// bytes of the ceiling for one character of text.
func encodeResult(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// uriArg is the uri argument every tool takes.
func uriArg(what string) argSpec {
	return argSpec{Name: "uri", Kind: argString, Required: true, MinChars: 1, MaxChars: kb.MaxURIBytes,
		Description: what + " A kb:// URI inside the conversation's scope, e.g. kb://users/alice/notes/ (folders end with /); kb://me/... means the caller's own tree; kb://shared/ lists the folders others share with the caller (ls and search only)."}
}
