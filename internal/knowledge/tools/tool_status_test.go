package tools

import (
	"testing"

	"github.com/knowspace/knowspace/internal/store/storetest"
)

func TestToolStatusReportsNoJobsTruthfully(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := newToolEnv(t, dialect)
		uri := e.put(e.alice, "kb://me/d/", "a.md", []byte("x"))
		r := e.mustRun(e.alice, "kb://me/d/", "status", map[string]any{"uri": uri})
		s := r.Value.(*StatusResult)
		if s.URI != uri || s.Jobs == nil || len(s.Jobs) != 0 || s.Note == "" || r.Summary != "no jobs; 0 of 1 file summarized, 0 stale, 0 failed" {
			t.Fatalf("status %s", r.JSON)
		}
		_, err := e.run(e.alice, "kb://me/d/", "status", `{"uri":"kb://me/"}`)
		wantToolErr(t, err, "outside_scope")
	})
}
