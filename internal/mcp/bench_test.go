package mcp_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/mcp"
	"github.com/knowspace/knowspace/internal/store"
)

// recorder keeps the last tools/call request a client sent.
type recorder struct {
	header http.Header
	body   []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"tools/call"`)) {
			r.header, r.body = req.Header.Clone(), body
		}
	}
	return http.DefaultTransport.RoundTrip(req)
}

// wireRequest is the tools/call read exactly as the SDK's client puts it
// on the wire for a revision (headers, _meta), to replay without a client.
func (e *env) wireRequest(revision string, params *sdk.CallToolParams) *recorder {
	rec := &recorder{}
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	tr := &sdk.StreamableClientTransport{Endpoint: e.url + mcp.Path, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{e.alice, rec}}}
	cs, err := c.Connect(context.Background(), tr, &sdk.ClientSessionOptions{ProtocolVersion: revision})
	if err != nil {
		e.t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.CallTool(context.Background(), params); err != nil || rec.body == nil {
		e.t.Fatalf("recording %s: %v", revision, err)
	}
	if v := rec.header.Get("Mcp-Protocol-Version"); v != revision {
		e.t.Fatalf("the %s client sent a %s call", revision, v)
	}
	return rec
}

// replay sends the recorded call and reads the answer whole, as the REST
// side's body is read.
func (e *env) replay(rec *recorder) {
	req, _ := http.NewRequest(http.MethodPost, e.url+mcp.Path, bytes.NewReader(rec.body))
	req.Header = rec.header.Clone()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !bytes.Contains(raw, []byte(`"structuredContent"`)) || bytes.Contains(raw, []byte(`"isError":true`)) {
		e.t.Fatalf("%d %s", res.StatusCode, raw)
	}
}

// BenchmarkRead compares one read through /mcp with the same read through
// POST /knowledge-agent/command on the same server (goal: MCP within 1.3×
// of REST). Each iteration makes the REST call and then the MCP call of
// every revision, back to back, so load on a shared machine hits all
// alike. "wire" replays the request the SDK's client sends and reads the
// answer's bytes, as the REST side does: the ratio is the door's own cost.
// "sdk" is the Go SDK's client, which also writes its _meta and headers
// into each call and decodes the JSON-RPC envelope and the result (it
// checks no output schema): the client's cost added.
func BenchmarkRead(b *testing.B) {
	e := newEnv(b, store.DialectSQLite)
	// A new value per call: the client writes its revision's _meta into
	// the params it is given, and a shared value would carry the newest
	// revision's _meta into the older revision's calls.
	params := func() *sdk.CallToolParams {
		return &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"uri": "kb://me/Welcome.md", "limit": 500}}
	}
	sessions, recorded := map[string]*sdk.ClientSession{}, map[string]*recorder{}
	for _, rev := range revisions {
		sessions[rev], recorded[rev] = e.connect(e.alice, rev), e.wireRequest(rev, params())
	}
	var rest time.Duration
	wire, viaSDK := map[string]time.Duration{}, map[string]time.Duration{}
	timed := func(into *time.Duration, f func()) {
		start := time.Now()
		f()
		*into += time.Since(start)
	}
	for b.Loop() {
		timed(&rest, func() {
			if status, body := e.command(e.alice, `{"command":"read","uri":"kb://me/Welcome.md","limit":500}`); status != 200 {
				b.Fatalf("%d %s", status, body)
			}
		})
		for _, rev := range revisions {
			w := wire[rev]
			timed(&w, func() { e.replay(recorded[rev]) })
			wire[rev] = w
			s := viaSDK[rev]
			timed(&s, func() {
				if res, err := sessions[rev].CallTool(context.Background(), params()); err != nil || res.IsError {
					b.Fatalf("%v %v", res, err)
				}
			})
			viaSDK[rev] = s
		}
	}
	b.ReportMetric(float64(rest.Microseconds())/float64(b.N), "rest-µs/call")
	for _, rev := range revisions {
		b.ReportMetric(float64(wire[rev])/float64(rest), "wire-"+rev+"/rest")
		b.ReportMetric(float64(viaSDK[rev])/float64(rest), "sdk-"+rev+"/rest")
	}
}
