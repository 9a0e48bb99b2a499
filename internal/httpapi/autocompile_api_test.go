package httpapi

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// uploadTree sends files with relative paths in one folder upload.
func (e *apiEnv) uploadTree(user, folder string, files map[string]string) {
	e.t.Helper()
	e.postUpload(user, "parents=true&uri="+folder, files)
}

// settledJobs waits until the folder's changes are queued and every job of
// the user ended, then counts the jobs by kind.
func (e *apiEnv) settledJobs(user, folder string) map[string]int {
	e.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	calm := 0
	var counts map[string]int
	for calm < 3 {
		if time.Now().After(deadline) {
			e.t.Fatalf("jobs did not settle: %v", counts)
		}
		time.Sleep(30 * time.Millisecond)
		pending := false
		if code, b := e.do("GET", "/resources/auto-compile?uri="+folder, user, nil); code == 200 {
			pending = cmpDecode[compile.AutoView](e.t, b).Pending
		}
		_, b := e.do("GET", "/jobs?limit=500", user, nil)
		counts = map[string]int{}
		active := pending
		for _, j := range cmpDecode[struct{ Items []cmpJob }](e.t, b).Items {
			counts[j.Kind]++
			if j.State == "queued" || j.State == "running" {
				active = true
			}
			if j.State == "failed" || j.State == "cancelled" {
				e.t.Fatalf("job %d %s %s is %s: %+v", j.ID, j.Kind, j.URI, j.State, j.Error)
			}
		}
		if active {
			calm = 0
		} else {
			calm++
		}
	}
	return counts
}

func TestAutoCompileAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := cmpNewEnv(t, dialect)
		for _, f := range []string{"kb://me/lib/", "kb://me/other/"} {
			if code, b := e.do("POST", "/resources/folders", "alice", map[string]string{"uri": f}); code != 201 {
				t.Fatalf("mkdir %d %s", code, b)
			}
		}
		code, b := e.do("PUT", "/resources/auto-compile", "alice", map[string]any{"uri": "kb://me/lib/", "quiet_s": 0, "model_id": "fake"})
		if v := cmpDecode[compile.AutoView](t, b); code != 200 || v.URI != "kb://users/alice/lib/" || v.QuietS != 0 || v.ModelID != "fake" {
			t.Fatalf("put %d %s", code, b)
		}
		code, b = e.do("GET", "/resources/auto-compile?uri=kb://me/lib/", "alice", nil)
		if v := cmpDecode[compile.AutoView](t, b); code != 200 || v.ModelID != "fake" || !v.Pending {
			t.Fatalf("get %d %s", code, b)
		}
		_, b = e.do("GET", "/resources?uri=kb://me/", "alice", nil)
		marks := map[string]bool{}
		for _, it := range cmpDecode[knowledge.Listing](t, b).Items {
			marks[it.Name] = it.AutoCompile
		}
		if !marks["lib"] || marks["other"] {
			t.Fatalf("listing marks %v", marks)
		}

		// Validation: the compile request's rules and codes, and the
		// quiet period's bounds.
		for _, bad := range []struct {
			body   map[string]any
			schema bool // the body breaks the OpenAPI schema too
			code   string
		}{
			{map[string]any{"quiet_s": 1}, true, "invalid_uri"},
			{map[string]any{"uri": "kb://me/lib/", "quiet_s": -1}, true, "invalid_quiet_s"},
			{map[string]any{"uri": "kb://me/lib/", "quiet_s": 86401}, true, "invalid_quiet_s"},
			{map[string]any{"uri": "kb://me/lib/", "uris": []string{"kb://me/lib/a.md"}}, false, "invalid_uris"},
			{map[string]any{"uri": "kb://me/lib/", "stale_in": "kb://me/lib/"}, false, "invalid_uris"},
			{map[string]any{"uri": "kb://me/lib/", "executor": "magic"}, true, "invalid_executor"},
			{map[string]any{"uri": "kb://me/lib/", "model_id": "nope"}, false, "unknown_model"},
			{map[string]any{"uri": "kb://me/lib/", "model_id": "fake", "timeout_s": 99999}, false, "invalid_timeout"},
			{map[string]any{"uri": "kb://me/lib/", "model_id": "fake", "color": "red"}, true, "invalid_json"},
			{map[string]any{"uri": "kb://me/wiki/", "model_id": "fake"}, false, "not_found"},
		} {
			if bad.schema {
				e.invalid()
			}
			want := 400
			if bad.code == "not_found" {
				want = 404
			}
			if code, b := e.do("PUT", "/resources/auto-compile", "alice", bad.body); code != want || cmpErrCode(t, b) != bad.code {
				t.Errorf("%v: %d %s, want %s", bad.body, code, b, bad.code)
			}
		}
		if code, b := e.do("GET", "/resources/auto-compile?uri=kb://me/other/", "alice", nil); code != 404 || cmpErrCode(t, b) != "auto_compile_not_found" {
			t.Fatalf("get unset %d %s", code, b)
		}

		// Isolation: bob's answers are those of a missing folder.
		for _, m := range []string{"GET", "DELETE"} {
			if code, b := e.do(m, "/resources/auto-compile?uri=kb://users/alice/lib/", "bob", nil); code != 404 || cmpErrCode(t, b) != "not_found" {
				t.Fatalf("bob %s %d %s", m, code, b)
			}
		}
		if code, b := e.do("PUT", "/resources/auto-compile", "bob", map[string]any{"uri": "kb://users/alice/lib/", "model_id": "fake"}); code != 404 {
			t.Fatalf("bob put %d %s", code, b)
		}
		// A read-only token scoped to the folder reads it, changes nothing.
		code, b = e.do("POST", "/auth/tokens", "alice", map[string]any{"name": "agent", "scope_uri": "kb://me/lib/"})
		if code != 201 {
			t.Fatalf("token %d %s", code, b)
		}
		e.tokens["alice-ro"] = cmpDecode[struct{ Token string }](t, b).Token
		if code, b := e.do("GET", "/resources/auto-compile?uri=kb://me/lib/", "alice-ro", nil); code != 200 {
			t.Fatalf("scoped get %d %s", code, b)
		}
		if code, b := e.do("PUT", "/resources/auto-compile", "alice-ro", map[string]any{"uri": "kb://me/lib/", "model_id": "fake"}); code != 403 || cmpErrCode(t, b) != "read_only" {
			t.Fatalf("scoped put %d %s", code, b)
		}
		if code, b := e.do("DELETE", "/resources/auto-compile?uri=kb://me/lib/", "alice-ro", nil); code != 403 || cmpErrCode(t, b) != "read_only" {
			t.Fatalf("scoped delete %d %s", code, b)
		}
		if code, b := e.do("GET", "/resources/auto-compile?uri=kb://me/other/", "alice-ro", nil); code != 404 || cmpErrCode(t, b) != "not_found" {
			t.Fatalf("scoped get outside %d %s", code, b)
		}

		// 50 files through the REST folder upload: 50 summaries, one
		// overview per folder.
		files := map[string]string{}
		for i := range 50 {
			files[fmt.Sprintf("%sf%02d.md", []string{"", "a/", "a/b/"}[i%3], i)] = fmt.Sprintf("file %d", i)
		}
		e.uploadTree("alice", "kb://me/lib/", files)
		pool := e.svc.Start(2)
		defer pool.Stop(context.Background())
		got := e.settledJobs("alice", "kb://me/lib/")
		t.Logf("50 files over REST: %v", got)
		if got["wiki_compile"] != 50 || got["wiki_overview"] != 3 {
			t.Fatalf("jobs %v", got)
		}
		// The same bytes again: nothing.
		e.uploadTree("alice", "kb://me/lib/", files)
		if again := e.settledJobs("alice", "kb://me/lib/"); again["wiki_compile"] != 50 || again["wiki_overview"] != 3 {
			t.Fatalf("same files again: %v", again)
		}

		// Off: the setting is gone and a change queues nothing.
		if code, b := e.do("DELETE", "/resources/auto-compile?uri=kb://me/lib/", "alice", nil); code != 204 {
			t.Fatalf("delete %d %s", code, b)
		}
		if code, b := e.do("DELETE", "/resources/auto-compile?uri=kb://me/lib/", "alice", nil); code != 404 || cmpErrCode(t, b) != "auto_compile_not_found" {
			t.Fatalf("delete twice %d %s", code, b)
		}
		e.uploadTree("alice", "kb://me/lib/", map[string]string{"a/f01.md": "changed after off"})
		time.Sleep(200 * time.Millisecond)
		if off := e.settledJobs("alice", "kb://me/lib/"); off["wiki_compile"] != 50 || off["wiki_overview"] != 3 {
			t.Fatalf("after off: %v", off)
		}
	})
}
