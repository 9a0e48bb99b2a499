package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store"
)

// Every call is answered with one JSON body, in both revisions: the door
// sends nothing a call's SSE stream would be needed for.
func TestCallsAnswerJSON(t *testing.T) {
	d, token := cancelDeps(t)
	s := newServer(d)
	addTools(s, d.Tree)
	srv := httptest.NewServer(newDoor(s, d))
	t.Cleanup(srv.Close)
	for _, rev := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			seen := &contentTypes{next: bearerTransport(token)}
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Transport: seen}}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if _, err := cs.ListTools(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			if len(seen.types) == 0 {
				t.Fatal("no answer with a body")
			}
			for _, ct := range seen.types {
				if ct != "application/json" {
					t.Fatalf("answers %v", seen.types)
				}
			}
		})
	}
}

// contentTypes keeps the Content-Type of every answer with a body.
type contentTypes struct {
	next  http.RoundTripper
	types []string
}

func (c *contentTypes) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := c.next.RoundTrip(r)
	if err == nil && res.StatusCode == http.StatusOK {
		c.types = append(c.types, res.Header.Get("Content-Type"))
	}
	return res, err
}

// A client that gives up on a call closes its HTTP request, and the call's
// context ends, whichever revision it speaks and although the answer is one
// JSON body rather than a stream.
func TestClosingTheRequestCancelsTheCall(t *testing.T) {
	d, token := cancelDeps(t)
	started, ended := make(chan struct{}, 1), make(chan error, 1)
	s := newServer(d)
	// A tool that runs until its context ends, reached through the same
	// callerOf as the knowledge tools.
	s.AddTool(&mcp.Tool{Name: "wait", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, ctx, done, ok := callerOf(ctx, req.Extra)
			defer done()
			if !ok {
				ended <- errors.New("no caller")
				return nil, nil
			}
			started <- struct{}{}
			select {
			case <-ctx.Done():
				ended <- nil
			case <-time.After(10 * time.Second):
				ended <- errors.New("the call ran on after its request was closed")
			}
			return &mcp.CallToolResult{}, nil
		})
	srv := httptest.NewServer(newDoor(s, d))
	t.Cleanup(srv.Close)
	for _, rev := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(rev, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true,
				HTTPClient: &http.Client{Transport: bearerTransport(token)}}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			ctx, cancel := context.WithCancel(context.Background())
			called := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wait"})
				called <- err
			}()
			select {
			case <-started:
			case err := <-ended:
				t.Fatalf("the tool did not start: %v", err)
			case err := <-called:
				t.Fatalf("the call returned before the tool started: %v", err)
			}
			cancel()
			if err := <-ended; err != nil {
				t.Fatal(err)
			}
			if err := <-called; !errors.Is(err, context.Canceled) {
				t.Fatalf("the client's call ended with %v", err)
			}
		})
	}
}

// cancelDeps is a store with one user, and that user's session token.
func cancelDeps(t *testing.T) (Deps, string) {
	stack := apptest.NewStack(t, store.DialectSQLite)
	alice := stack.NewUser(t, "alice", store.RoleUser)
	return Deps{Tree: stack.Tree, Auth: stack.Auth}.withDefaults(), alice.Token
}

type bearerTransport string

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
