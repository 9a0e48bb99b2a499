package mcp_test

import (
	"context"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/knowspace/knowspace/internal/store"
)

// BenchmarkRead compares one read through /mcp (a tools/call POST, on
// each revision) with the same read through POST /knowledge-agent/command,
// in one run on the same server (goal: MCP within 1.3× of REST).
func BenchmarkRead(b *testing.B) {
	e := newEnv(b, store.DialectSQLite)
	b.Run("rest", func(b *testing.B) {
		for b.Loop() {
			if status, body := e.command(e.alice, `{"command":"read","uri":"kb://me/Welcome.md","limit":500}`); status != 200 {
				b.Fatalf("%d %s", status, body)
			}
		}
	})
	for _, rev := range revisions {
		b.Run("mcp-"+rev, func(b *testing.B) {
			cs := e.connect(e.alice, rev)
			params := &sdk.CallToolParams{Name: "read", Arguments: map[string]any{"uri": "kb://me/Welcome.md", "limit": 500}}
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), params)
				if err != nil || res.IsError {
					b.Fatalf("%v %v", res, err)
				}
			}
		})
	}
}
