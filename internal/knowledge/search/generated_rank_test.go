package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestGeneratedRanksBelowOriginal: a compile summary repeats its source's
// words in fewer of them, so the word index alone would rank it above the
// file it was made from; the original comes first, and every hit says
// which files compile made.
func TestGeneratedRanksBelowOriginal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newEnv(t, dialect)
		original := "# Staff handbook\n\n" + strings.Repeat("Working hours, meetings and the office are described in other chapters.\n", 20) +
			"Unused vacation days carry over to the next year, up to ten days.\n"
		e.put(e.alice, "kb://me/docs/", "handbook.md", []byte(original))
		src, err := e.tree.Stat(context.Background(), e.alice, "kb://me/docs/handbook.md")
		if err != nil {
			t.Fatal(err)
		}
		summary := "# Summary\n\nVacation days carry over: up to ten unused vacation days move to the next year.\n"
		if _, err := e.tree.Publish(context.Background(), e.alice, "wiki/docs", []knowledge.GeneratedFile{{Name: "handbook.md", Text: summary,
			Provenance: store.Provenance{Role: store.RoleSummary, Model: "m", SourceNodeID: &src.NodeID}}}, nil); err != nil {
			t.Fatal(err)
		}
		e.settle()
		for _, mode := range []string{"ranked", "literal"} {
			query := "do vacation days carry over"
			if mode == "literal" {
				query = "carry over"
			}
			r := e.searchWith(e.alice, "kb://me/", map[string]any{"query": query, "mode": mode})
			var order []string
			for _, h := range r.Hits {
				order = append(order, strings.TrimPrefix(h.URI, "kb://users/alice/"))
				if h.Generated != strings.HasPrefix(h.URI, "kb://users/alice/wiki/") {
					t.Errorf("%s: %s marked generated=%v", mode, h.URI, h.Generated)
				}
			}
			if len(order) != 2 || (mode == "ranked" && order[0] != "docs/handbook.md") {
				t.Errorf("%s: hits in order %v, want docs/handbook.md first and the summary after", mode, order)
			}
		}
	})
}
