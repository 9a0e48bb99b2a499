package httpapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/knowledge/share"
	"github.com/knowspace/knowspace/internal/knowledge/tools"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestCompileAndSearchRespectShares: a grantee compiles a shared file into
// their own wiki/shared/<owner>/, with provenance naming the shared source,
// and leaves the owner's tree untouched; files outside the share are
// neither compiled nor searched, and no count or snippet of them leaks.
func TestCompileAndSearchRespectShares(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := cmpNewEnv(t, dialect)
		e.upload("alice", "kb://me/team/", map[string]string{"paper.md": "a paper on tidal energy"})
		e.upload("alice", "kb://me/secret/", map[string]string{"plan.md": "SECRET-PLAN tidal tidal tidal"})
		code, b := e.do("POST", "/resources/shares", "alice", map[string]string{"uri": "kb://me/team/", "user": "bob", "role": "read"})
		if code != 201 {
			t.Fatalf("share %d %s", code, b)
		}
		share := cmpDecode[share.View](t, b)

		// Search sees the shared folder only.
		code, b = e.do("POST", "/knowledge-agent/command", "bob", map[string]any{"command": "search", "uri": "kb://users/alice/team/", "query": "tidal"})
		res := cmpDecode[tools.SearchResult](t, b)
		if code != 200 || len(res.Hits) != 1 || res.Hits[0].URI != "kb://users/alice/team/paper.md" || res.Scanned != 1 || !res.Complete {
			t.Fatalf("search in the share %d %s", code, b)
		}
		for _, uri := range []string{"kb://users/alice/", "kb://users/alice/secret/"} {
			code, b = e.do("POST", "/knowledge-agent/command", "bob", map[string]any{"command": "search", "uri": uri, "query": "tidal"})
			if code != 404 || cmpErrCode(t, b) != "not_found" || strings.Contains(string(b), "SECRET") || strings.Contains(string(b), "scanned") {
				t.Fatalf("search of %s by bob: %d %s", uri, code, b)
			}
		}
		code, b = e.do("POST", "/knowledge-agent/command", "bob", map[string]any{"command": "ls", "uri": "kb://shared/"})
		if code != 200 || !strings.Contains(string(b), `"uri":"kb://users/alice/team/"`) || !strings.Contains(string(b), `"owner":"alice"`) {
			t.Fatalf("ls kb://shared/: %d %s", code, b)
		}

		// Compile: the shared file is accepted, the unshared one is not,
		// and outputs never go into alice's tree.
		code, b = e.do("POST", "/knowledge-agent/compile", "bob", map[string]any{
			"uris": []string{"kb://users/alice/team/paper.md", "kb://users/alice/secret/plan.md"}, "model_id": "fake"})
		enq := cmpDecode[cmpEnqueue](t, b)
		if code != 200 || len(enq.Jobs) != 1 || enq.Jobs[0].URI != "kb://users/alice/team/paper.md" ||
			len(enq.Rejected) != 1 || enq.Rejected[0].Code != "not_visible" {
			t.Fatalf("compile by bob %d %s", code, b)
		}
		code, b = e.do("POST", "/knowledge-agent/compile", "bob", map[string]any{
			"uris": []string{"kb://users/alice/team/paper.md"}, "model_id": "fake", "output_parent": "kb://users/alice/team/"})
		if code != 400 || cmpErrCode(t, b) != "invalid_output_parent" {
			t.Fatalf("output into alice's tree: %d %s", code, b)
		}
		// Alice may compile the same file at the same time, into her tree.
		code, b = e.do("POST", "/knowledge-agent/compile", "alice", map[string]any{"uris": []string{"kb://me/team/paper.md"}, "model_id": "fake"})
		if enq := cmpDecode[cmpEnqueue](t, b); code != 200 || len(enq.Jobs) != 1 || enq.Jobs[0].State != "queued" {
			t.Fatalf("alice's own compile %d %s", code, b)
		}

		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		for _, user := range []string{"bob", "alice"} {
			deadline := time.Now().Add(15 * time.Second)
			for {
				_, b = e.do("GET", "/jobs?state=succeeded", user, nil)
				if len(cmpDecode[struct{ Items []cmpJob }](t, b).Items) == 1 {
					break
				}
				if time.Now().After(deadline) {
					_, all := e.do("GET", "/jobs", user, nil)
					t.Fatalf("%s's job did not finish: %s", user, all)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		code, b = e.do("GET", "/jobs?uri=kb://users/alice/team/", "bob", nil)
		if jobs := cmpDecode[struct{ Items []cmpJob }](t, b).Items; code != 200 || len(jobs) != 1 || jobs[0].URI != "kb://users/alice/team/paper.md" {
			t.Fatalf("bob's jobs on alice's folder %d %s", code, b)
		}
		code, b = e.do("GET", "/resources/content?uri=kb://me/wiki/shared/alice/team/paper.md", "bob", nil)
		if code != 200 || !strings.Contains(string(b), "a summary") || !strings.Contains(string(b), "kb://users/alice/team/paper.md") {
			t.Fatalf("bob's summary %d %s", code, b)
		}
		_, b = e.do("GET", "/resources?uri=kb://users/alice/team/", "bob", nil)
		if it := cmpDecode[knowledge.Listing](t, b).Items[0]; it.Summary != "fresh" || it.SummaryURI != "kb://users/bob/wiki/shared/alice/team/paper.md" {
			t.Fatalf("bob's badge on the shared file: %+v", it)
		}
		_, b = e.do("GET", "/resources?uri=kb://me/team/", "alice", nil)
		if it := cmpDecode[knowledge.Listing](t, b).Items[0]; it.SummaryURI != "kb://users/alice/wiki/team/paper.md" {
			t.Fatalf("alice's badge is her own summary: %+v", it)
		}
		if code, _ := e.do("GET", "/resources?uri=kb://me/wiki/shared/", "alice", nil); code != 404 {
			t.Fatalf("bob's compile wrote into alice's tree: %d", code)
		}

		// After a revoke the file can no longer be compiled.
		if code, b := e.do("DELETE", fmt.Sprintf("/resources/shares/%d", share.ID), "alice", nil); code != 204 {
			t.Fatalf("revoke %d %s", code, b)
		}
		code, b = e.do("POST", "/knowledge-agent/compile", "bob", map[string]any{"uris": []string{"kb://users/alice/team/paper.md"}, "model_id": "fake"})
		if enq := cmpDecode[cmpEnqueue](t, b); code != 200 || len(enq.Jobs) != 0 || len(enq.Rejected) != 1 || enq.Rejected[0].Code != "not_visible" {
			t.Fatalf("compile after revoke %d %s", code, b)
		}
	})
}
