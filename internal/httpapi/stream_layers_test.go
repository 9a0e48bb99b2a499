package httpapi

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
)

// With a compiled folder in the listing, the default fake model reads that
// folder's overview (through the real read tool) before answering: the path
// the system prompt asks of an agent.
func TestStreamReadsOverviewAfterListingACompiledFolder(t *testing.T) {
	env := stSetup(t, store.DialectSQLite)
	ctx := context.Background()
	u, err := env.stack.Store.UserByUsername(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	c := kb.Caller{ID: u.ID, Username: u.Username}
	_, err = env.stack.Tree.Publish(ctx, c, "wiki/notes/archive", []knowledge.GeneratedFile{
		{Name: knowledge.OverviewName, Text: "# Archive\n\nOld plans; read 2025.md for the budget.\n",
			Provenance: store.Provenance{Role: store.RoleOverview, Fingerprint: "o", SourcesJSON: "[]"}},
		{Name: knowledge.AbstractName, Text: "Old plans and budgets.\n",
			Provenance: store.Provenance{Role: store.RoleAbstract, Fingerprint: "o", SourcesJSON: "[]"}},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp := env.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream",
		`{"uri":"kb://me/notes/","model_id":"fake","message":"use ls on kb://me/notes/ please"}`)
	defer resp.Body.Close()
	evs := stReadEvents(t, resp.Body, nil)
	var calls []string
	for _, ev := range evs {
		if ev.name == "tool_call" {
			calls = append(calls, ev.data["name"].(string))
		}
	}
	if strings.Join(calls, ",") != "ls,read" {
		t.Fatalf("tool calls %v (events %s)", calls, stNames(evs))
	}
	var answer strings.Builder
	for _, ev := range evs {
		if ev.name == "delta" {
			answer.WriteString(ev.data["text"].(string))
		}
	}
	if !strings.Contains(answer.String(), "Old plans") || !strings.Contains(answer.String(), "kb://users/alice/wiki/notes/archive/.overview.md") {
		t.Fatalf("answer %q", answer.String())
	}
}
