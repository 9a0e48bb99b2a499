package mcp

import (
	"context"
	"net/http"
	"testing"

	sdkauth "github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/apierr"
	"github.com/knowspace/knowspace/internal/kb"
)

// A tool's context ends when the client closes the HTTP request that
// carries the call, whichever revision it speaks.
func TestCallerContextEndsWithRequest(t *testing.T) {
	req, cancel := context.WithCancel(context.Background())
	extra := &mcp.RequestExtra{TokenInfo: &sdkauth.TokenInfo{Extra: map[string]any{
		extraCaller: kb.Caller{ID: 7, Username: "alice"}, extraRequest: req}}}
	c, ctx, done, ok := callerOf(context.Background(), extra)
	defer done()
	if !ok || c.Username != "alice" {
		t.Fatalf("caller %+v %v", c, ok)
	}
	if ctx.Err() != nil {
		t.Fatal("cancelled before the request ended")
	}
	cancel()
	<-ctx.Done()
	if _, _, _, ok := callerOf(context.Background(), &mcp.RequestExtra{}); ok {
		t.Fatal("a request without our token info has a caller")
	}
}

func TestInflightPerUser(t *testing.T) {
	f := newInflight(2)
	r1, err := f.acquire(1)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := f.acquire(1)
	if _, err := f.acquire(1); err == nil {
		t.Fatal("a third request in flight was let through")
	} else if e, _ := apierr.As(err); e.Status != http.StatusTooManyRequests || e.RetryAfter == 0 {
		t.Fatalf("refusal %+v", e)
	}
	if _, err := f.acquire(2); err != nil {
		t.Fatalf("another user is limited too: %v", err)
	}
	r1()
	if _, err := f.acquire(1); err != nil {
		t.Fatalf("a finished request still counts: %v", err)
	}
	r2()
}
