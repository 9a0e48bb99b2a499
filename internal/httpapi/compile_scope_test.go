package httpapi

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestScopedCompileWritesInsideScope: a read-write scoped token's compile
// puts its summaries in <scope>/wiki/, mirroring the folders below the
// scope, where the token reads them; an output_parent outside the scope
// is refused 403 scope_violation, and the owner's wiki/ stays untouched.
func TestScopedCompileWritesInsideScope(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := cmpNewEnv(t, dialect)
		e.upload("alice", "kb://me/projects/alpha/", map[string]string{"a.md": "alpha"})
		e.upload("alice", "kb://me/projects/alpha/sub/", map[string]string{"b.md": "beta"})
		code, b := e.do("POST", "/auth/tokens", "alice", map[string]any{"name": "agent", "scope_uri": "kb://me/projects/alpha/", "read_only": false})
		if code != 201 {
			t.Fatalf("token %d %s", code, b)
		}
		e.tokens["agent"] = cmpDecode[struct{ Token string }](t, b).Token

		for _, outside := range []string{"kb://me/", "kb://me/wiki/", "kb://me/projects/", "kb://me/projects/beta/", "kb://users/bob/"} {
			code, b = e.do("POST", "/knowledge-agent/compile", "agent", map[string]any{
				"uris": []string{"kb://me/projects/alpha/a.md"}, "model_id": "fake", "output_parent": outside})
			if code != 403 || cmpErrCode(t, b) != "scope_violation" {
				t.Errorf("output_parent %s: %d %s, want 403 scope_violation", outside, code, b)
			}
		}
		outputs := map[string]string{}
		for _, uri := range []string{"kb://me/projects/alpha/a.md", "kb://me/projects/alpha/sub/b.md"} {
			code, b = e.do("POST", "/knowledge-agent/compile", "agent", map[string]any{"uris": []string{uri}, "model_id": "fake"})
			enq := cmpDecode[struct {
				Jobs []struct {
					URI       string `json:"uri"`
					OutputURI string `json:"output_uri"`
				}
			}](t, b)
			if code != 200 || len(enq.Jobs) != 1 {
				t.Fatalf("compile %s: %d %s", uri, code, b)
			}
			outputs[enq.Jobs[0].URI] = enq.Jobs[0].OutputURI
		}
		if got := outputs["kb://users/alice/projects/alpha/a.md"]; got != "kb://users/alice/projects/alpha/wiki/" {
			t.Errorf("a.md's output folder %s, want the scope's wiki/", got)
		}
		if got := outputs["kb://users/alice/projects/alpha/sub/b.md"]; got != "kb://users/alice/projects/alpha/wiki/sub/" {
			t.Errorf("sub/b.md's output folder %s, want the scope's wiki/sub/", got)
		}

		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		deadline := time.Now().Add(15 * time.Second)
		for {
			_, b = e.do("GET", "/jobs?state=succeeded", "agent", nil)
			if len(cmpDecode[struct{ Items []cmpJob }](t, b).Items) >= 2 {
				break
			}
			if time.Now().After(deadline) {
				_, all := e.do("GET", "/jobs", "alice", nil)
				t.Fatalf("jobs did not finish: %s", all)
			}
			time.Sleep(20 * time.Millisecond)
		}
		for _, uri := range []string{"kb://me/projects/alpha/wiki/a.md", "kb://me/projects/alpha/wiki/sub/b.md"} {
			code, b = e.do("GET", "/resources/content?uri="+uri, "agent", nil)
			if code != 200 || !strings.Contains(string(b), "a summary") {
				t.Fatalf("the token reads %s: %d %s", uri, code, b)
			}
		}
		_, b = e.do("GET", "/resources?uri=kb://me/projects/alpha/", "agent", nil)
		for _, it := range cmpDecode[knowledge.Listing](t, b).Items {
			if it.Name == "a.md" && (it.Summary != "fresh" || it.SummaryURI != "kb://users/alice/projects/alpha/wiki/a.md") {
				t.Fatalf("the token's badge on a.md: %+v", it)
			}
		}
		if code, b := e.do("GET", "/resources?uri=kb://me/wiki/", "alice", nil); code != 404 {
			t.Fatalf("the scoped compile wrote into alice's wiki/: %d %s", code, b)
		}
	})
}
