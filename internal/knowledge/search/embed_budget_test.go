package search_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/usage"
)

// TestEmbeddingWaitsForTheGlobalBudget: embeddings are filed under no
// user, so the global budget is theirs. With it spent, no batch starts:
// the model is not called, the files stay unembedded and the embedder
// says why; once the budget is lifted, they are embedded.
func TestEmbeddingWaitsForTheGlobalBudget(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		fake := apptest.StartFake(t, fakellm.Options{})
		e := newMeaningEnv(t, dialect, nil, fake)
		meter := usage.New(e.st)
		budgets := usage.NewBudgets(e.st, meter)
		bg, err := budgets.Put(ctx, store.Budget{Scope: store.BudgetGlobal, Period: store.PeriodDay, MaxTokens: 100})
		if err != nil {
			t.Fatal(err)
		}
		meter.RecordUsage(llm.CallUsage{Model: "fake", Attribution: llm.Attribution{UserID: 0, Purpose: llm.PurposeEmbedding}, InputTokens: 150})
		meter.Flush(ctx)
		e.embedder.Budget = budgets

		e.put(e.alice, "kb://me/", "budget.md", []byte("# Budget\n\nThe quarterly budget review.\n"))
		e.settle()
		if n := fake.Embedded(); n != 0 {
			t.Fatalf("the model embedded %d texts past a spent budget", n)
		}
		if msg := e.embedder.LastError(); !strings.Contains(msg, "budget") {
			t.Fatalf("the embedder does not say it waits for the budget: %q", msg)
		}
		r := e.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
		if r.Complete || r.UnembeddedFiles != 1 {
			t.Fatalf("while the budget is spent: %+v", r)
		}

		if err := budgets.Delete(ctx, bg.ID); err != nil {
			t.Fatal(err)
		}
		// The question itself is embedded by the search above, so the
		// file's own vectors are what must come: searched until they do (the
		// paused embedder tries again after its back-off).
		deadline := time.Now().Add(30 * time.Second)
		for {
			r = e.searchWith(e.alice, "kb://me/", map[string]any{"query": "quarterly budget", "mode": "meaning"})
			if r.Complete && r.UnembeddedFiles == 0 && len(r.Hits) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the file was not embedded once the budget was lifted: %+v", r)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}
