package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
)

const (
	// resourcesPageSize is one page of resources/list.
	resourcesPageSize = 100
	// resourceTextLimit bounds the text one resources/read returns, in
	// code points: the read tool's largest page, well under the 10k-token
	// warning of common clients.
	resourceTextLimit = knowledge.MaxPageLimit
	// maxBinaryResource is the largest file without text whose bytes
	// resources/read returns (base64 makes it a third larger).
	maxBinaryResource = 1 << 20
	cursorPrefix      = "r1."
)

// addResources publishes the caller's files: resources/list walks them
// (a server-wide list could not depend on the caller), the templates make
// every kb:// file URI readable.
func addResources(s *mcp.Server, tree *knowledge.Tree, pageSize int) {
	read := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		c, ctx, done, ok := callerOf(ctx, req.Extra)
		defer done()
		if !ok {
			return nil, rpcError(req.Params.URI, apierr.Unauthorized(apierr.CodeMissingToken, "sign in first"))
		}
		return readResource(ctx, tree, c, req.Params.URI)
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "kb://me/{+path}", Name: "my-file", Title: "A file of yours",
		Description: "A file of your knowledge tree by its path, e.g. kb://me/notes/plan.md; its text, or the bytes of a small binary file.",
	}, read)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "kb://users/{+path}", Name: "file", Title: "A file by owner",
		Description: "A file by its full URI kb://users/<owner>/<path>, as ls, search and resources/list spell it.",
	}, read)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if r, ok := req.(*mcp.ListResourcesRequest); ok && method == "resources/list" {
				return listResources(ctx, tree, r, pageSize)
			}
			return next(ctx, method, req)
		}
	})
}

func listResources(ctx context.Context, tree *knowledge.Tree, req *mcp.ListResourcesRequest, pageSize int) (*mcp.ListResourcesResult, error) {
	c, ctx, done, ok := callerOf(ctx, req.Extra)
	defer done()
	if !ok {
		return nil, rpcError("", apierr.Unauthorized(apierr.CodeMissingToken, "sign in first"))
	}
	after := ""
	if req.Params != nil && req.Params.Cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(req.Params.Cursor[min(len(cursorPrefix), len(req.Params.Cursor)):])
		if err != nil || len(req.Params.Cursor) < len(cursorPrefix) || req.Params.Cursor[:len(cursorPrefix)] != cursorPrefix {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "invalid cursor: pass nextCursor of the previous page unchanged",
				Data: json.RawMessage(`{"code":"invalid_cursor"}`)}
		}
		after = string(raw)
	}
	page, err := tree.Files(ctx, c, after, pageSize)
	if err != nil {
		return nil, rpcError("", err)
	}
	out := &mcp.ListResourcesResult{Resources: make([]*mcp.Resource, 0, len(page.Files))}
	for _, f := range page.Files {
		out.Resources = append(out.Resources, &mcp.Resource{URI: f.URI, Name: f.Name, Size: f.Size})
	}
	if page.Next != "" {
		out.NextCursor = cursorPrefix + base64.RawURLEncoding.EncodeToString([]byte(page.Next))
	}
	out.CacheScope = "private"
	return out, nil
}

// readResource answers a file's text body, bounded with a note naming the
// tool call for the rest, or the bytes of a small file without text.
func readResource(ctx context.Context, tree *knowledge.Tree, c kb.Caller, uri string) (*mcp.ReadResourceResult, error) {
	p, err := tree.ReadPage(ctx, c, uri, 0, resourceTextLimit)
	if err != nil {
		return nil, rpcError(uri, err)
	}
	res := &mcp.ReadResourceResult{}
	res.CacheScope = "private"
	if p.Body != "none" {
		text := p.Text
		if p.NextOffset != nil {
			text += fmt.Sprintf("\n\n[knowspace: this is characters 0–%d of %d; call the read tool with {\"uri\": %q, \"offset\": %d} for the next page]",
				*p.NextOffset, p.Total, p.URI, *p.NextOffset)
		}
		res.Contents = []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}
		return res, nil
	}
	f, err := tree.OpenRaw(ctx, c, uri)
	if err != nil {
		return nil, rpcError(uri, err)
	}
	defer f.Close()
	if f.Size > maxBinaryResource {
		return nil, rpcError(uri, apierr.New(http.StatusUnprocessableEntity, apierr.CodeResourceTooLarge,
			"%s has no text body and its %d bytes are over the %d-byte limit for binary resources; %s", uri, f.Size, maxBinaryResource, p.Note))
	}
	b, err := io.ReadAll(io.LimitReader(f, maxBinaryResource+1))
	if err != nil {
		return nil, rpcError(uri, apierr.Internal("mcp resource: read bytes", err))
	}
	res.Contents = []*mcp.ResourceContents{{URI: uri, MIMEType: f.MediaType, Blob: b}}
	return res, nil
}

// rpcError carries our error code in the JSON-RPC error's data; a missing
// or invisible resource is the protocol's resource-not-found, alike.
func rpcError(uri string, err error) error {
	e := apierr.From(err)
	data, _ := json.Marshal(map[string]any{"code": e.Code, "uri": uri})
	// The current revision answers an unknown resource with invalid
	// params (the SDK deprecates its -32002); data carries our code.
	code := int64(jsonrpc.CodeInvalidParams)
	if e.Status >= 500 {
		code = jsonrpc.CodeInternalError
	}
	return &jsonrpc.Error{Code: code, Message: e.Message, Data: data}
}
