// Package mcp is the Model Context Protocol front door at /mcp: the
// knowledge tools and the caller's files as resources, over the Streamable
// HTTP transport in stateless mode, so any replica answers any request.
package mcp

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/auth"
	"github.com/knowspace/knowspace/internal/knowledge"
)

// Path is where the server is mounted.
const Path = "/mcp"

// Deps are the domain services the door calls.
type Deps struct {
	Tree *knowledge.Tree
	Auth *auth.Service
	// PerUser bounds one user's requests in flight; zero means
	// DefaultPerUser.
	PerUser int
	Version string
	// ResourcesPage is one page of resources/list; zero means 100.
	ResourcesPage int
}

// DefaultPerUser is how many /mcp requests one user may have running.
const DefaultPerUser = 8

// maxBody bounds one JSON-RPC request: tool arguments are a few short
// fields.
const maxBody = 256 << 10

// New builds the /mcp handler. One SDK server serves every request: the
// caller travels with each request, never in server state.
func New(d Deps) http.Handler {
	d = d.withDefaults()
	s := newServer(d)
	addTools(s, d.Tree)
	addResources(s, d.Tree, d.ResourcesPage)
	return newDoor(s, d)
}

func (d Deps) withDefaults() Deps {
	if d.PerUser <= 0 {
		d.PerUser = DefaultPerUser
	}
	if d.ResourcesPage <= 0 {
		d.ResourcesPage = resourcesPageSize
	}
	if d.Version == "" {
		d.Version = "dev"
	}
	return d
}

func newServer(d Deps) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "knowspace", Title: "Knowspace", Version: d.Version}, &mcp.ServerOptions{
		Instructions: "Knowspace is the user's knowledge workspace. Browse with ls (start at kb://me/), read files with read, " +
			"search text with search, and check compile progress with status. Every answer is paged: follow next_cursor or next_offset.",
		// Every answer depends on who asks.
		SetCacheable: func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) { c.CacheScope = "private" },
	})
}

// newDoor serves s over Streamable HTTP behind our checks.
func newDoor(s *mcp.Server, d Deps) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		PropagateRequestCancellation: true,
		// A call's answer is one JSON body, not an SSE stream: a stateless
		// server has no stream to send anything else on (no sampling, no
		// resumption), our tools send no progress, and a small answer then
		// leaves in one write with a Content-Length, sparing the flush, the
		// chunk framing and the client's stream reader (docs/BENCHMARKS.md,
		// MCP: the wire ratio's median from 2.0× to 1.5× on 2026-07-28).
		// Clients must accept both (Streamable HTTP, "Sending Messages to
		// the Server"); closing the request still cancels the call
		// (TestClosingTheRequestCancelsTheCall).
		JSONResponse:        true,
		MaxRequestBodyBytes: maxBody,
		// Rebinding is answered by the bearer token (a rebound page cannot
		// send one) and our Origin check; the SDK's localhost guard would
		// refuse a reverse proxy on the same host that keeps the public Host.
		DisableLocalhostProtection: true,
	})
	return &door{auth: d.Auth, mcp: withTokenInfo(h), inflight: newInflight(d.PerUser)}
}
