package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/knowledge"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const cmpFakeKey = "sk-compile-api-SECRET-77"

func cmpNewEnv(t *testing.T, dialect string) *apiEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	fake.SetFunc(func(*fakellm.Request) fakellm.Response { return fakellm.TextStream("a summary") })
	reg := apptest.Models(t, fake.Model("fake", cmpFakeKey, "upstream-secret-name"))
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: reg, Poll: 20 * time.Millisecond,
		Heartbeat: 50 * time.Millisecond, CLIProfiles: []config.CLIProfile{{Name: "codex",
			Argv: []string{"/usr/bin/codex-secret-path", "--model", "{model}"}, Models: []string{"gpt-5-codex"}}}})
	e := newAPIEnv(t, stack, Deps{Models: reg, Compile: comp}, "alice", "bob")
	e.fake, e.fakeURL = fake, fake.URL
	return e
}

func (e *apiEnv) upload(user, folder string, files map[string]string) {
	e.t.Helper()
	if code, b := e.do("POST", "/resources/folders", user, map[string]string{"uri": folder}); code != 201 && code != 200 && code != 409 {
		e.t.Fatalf("mkdir %d %s", code, b)
	}
	e.postUpload(user, "uri="+folder, files)
}

// postUpload sends files in one upload request with the given query
// (on_conflict=replace always) and requires success.
func (e *apiEnv) postUpload(user, query string, files map[string]string) {
	e.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for name, content := range files {
		w, _ := mw.CreateFormFile("file", name)
		w.Write([]byte(content))
	}
	mw.Close()
	req := e.request(e.t, context.Background(), "POST", "/api/v1/resources/upload?on_conflict=replace&"+query, user, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp := e.send(e.t, req)
	if resp.StatusCode >= 300 {
		e.t.Fatalf("upload: %v", resp.Status)
	}
	resp.Body.Close()
}

type cmpJob struct {
	ID            int64                  `json:"id"`
	Kind          string                 `json:"kind"`
	URI           string                 `json:"uri"`
	State         string                 `json:"state"`
	Stage         string                 `json:"stage"`
	Progress      float64                `json:"progress"`
	Attempts      int                    `json:"attempts"`
	Error         *struct{ Code string } `json:"error"`
	Configuration map[string]any         `json:"configuration"`
	CreatedAt     time.Time              `json:"created_at"`
	UpdatedAt     time.Time              `json:"updated_at"`
}

type cmpEnqueue struct {
	Jobs     []cmpJob `json:"jobs"`
	Rejected []struct {
		URI, Code, Message string
	} `json:"rejected"`
}

func cmpDecode[T any](t testing.TB, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

func cmpErrCode(t testing.TB, b []byte) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string }
	}
	json.Unmarshal(b, &e)
	return e.Error.Code
}

func TestCompileAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := cmpNewEnv(t, dialect)
		e.upload("alice", "kb://me/notes/", map[string]string{"a.md": "alpha", "b.md": "beta"})

		// Enqueue: one job per file, rejection per bad URI.
		code, b := e.do("POST", "/knowledge-agent/compile", "alice", map[string]any{
			"uris": []string{"kb://me/notes/a.md", "kb://me/notes/b.md", "kb://me/notes/"}, "executor": "llm",
			"model_id": "fake", "call_budget": 4, "timeout_s": 60, "skill": "concise"})
		if code != 200 {
			t.Fatalf("compile %d %s", code, b)
		}
		res := cmpDecode[cmpEnqueue](t, b)
		if len(res.Jobs) != 2 || len(res.Rejected) != 1 || res.Rejected[0].Code != "not_a_file" {
			t.Fatalf("%s", b)
		}
		j := res.Jobs[0]
		if j.Kind != "wiki_compile" || j.URI != "kb://users/alice/notes/a.md" || j.State != "queued" ||
			j.Configuration["model_id"] != "fake" || j.Configuration["call_budget"] != float64(4) {
			t.Fatalf("job %s", b)
		}
		// Secrets never appear in job answers.
		for _, secret := range []string{cmpFakeKey, e.fakeURL, strings.TrimPrefix(e.fakeURL, "http://"), "upstream-secret-name", "codex-secret-path"} {
			if bytes.Contains(b, []byte(secret)) {
				t.Fatalf("secret %q in %s", secret, b)
			}
		}

		// Request errors.
		for _, c := range []struct {
			body   any
			status int
			code   string
		}{
			{map[string]any{"uris": []string{"kb://me/notes/a.md"}, "model_id": "nope"}, 400, "unknown_model"},
			{map[string]any{"uris": []string{}}, 400, "invalid_uris"},
			{map[string]any{"uris": []string{"kb://me/notes/a.md"}, "executor": "sh"}, 400, "invalid_executor"},
			{map[string]any{"uris": []string{"kb://me/notes/a.md"}, "shell": "rm -rf /"}, 400, "invalid_json"},
			{map[string]any{"uris": []string{"kb://me/notes/a.md"}, "cli_profile": "codex", "model": "other"}, 400, "invalid_model"},
		} {
			ex := e
			if c.code == "invalid_executor" || c.code == "invalid_json" { // outside the document
				ex = e.invalid()
			}
			code, b := ex.do("POST", "/knowledge-agent/compile", "alice", c.body)
			if code != c.status || cmpErrCode(t, b) != c.code {
				t.Errorf("%v: %d %s", c.body, code, b)
			}
		}
		if code, _ := e.do("POST", "/knowledge-agent/compile", "", map[string]any{"uris": []string{"kb://me/notes/a.md"}}); code != 401 {
			t.Fatalf("unauthenticated compile: %d", code)
		}

		// List, filter, get; bob sees nothing of alice's.
		code, b = e.do("GET", "/jobs?state=queued&uri=kb://me/notes/", "alice", nil)
		list := cmpDecode[struct{ Items []cmpJob }](t, b)
		if code != 200 || len(list.Items) != 2 {
			t.Fatalf("list %d %s", code, b)
		}
		code, b = e.do("GET", "/jobs?uri=kb://me/notes/b.md", "alice", nil)
		if list = cmpDecode[struct{ Items []cmpJob }](t, b); code != 200 || len(list.Items) != 1 || list.Items[0].URI != "kb://users/alice/notes/b.md" {
			t.Fatalf("uri filter %d %s", code, b)
		}
		if code, b = e.invalid().do("GET", "/jobs?state=bogus", "alice", nil); code != 400 || cmpErrCode(t, b) != "invalid_state" {
			t.Fatalf("%d %s", code, b)
		}
		path := fmt.Sprintf("/jobs/%d", j.ID)
		if code, b = e.do("GET", path, "alice", nil); code != 200 || cmpDecode[cmpJob](t, b).ID != j.ID {
			t.Fatalf("get %d %s", code, b)
		}
		for _, p := range []string{path, path + "/cancel", path + "/retry"} {
			method := "POST"
			if p == path {
				method = "GET"
			}
			if code, b = e.do(method, p, "bob", nil); code != 404 || cmpErrCode(t, b) != "job_not_found" {
				t.Fatalf("bob %s %s: %d %s", method, p, code, b)
			}
		}
		if code, b = e.do("GET", "/jobs", "bob", nil); code != 200 || len(cmpDecode[struct{ Items []cmpJob }](t, b).Items) != 0 {
			t.Fatalf("bob's list %s", b)
		}
		if code, _ = e.invalid().do("GET", "/jobs/abc", "alice", nil); code != 400 {
			t.Fatalf("bad id %d", code)
		}
		if code, _ = e.do("GET", "/jobs/999999", "alice", nil); code != 404 {
			t.Fatalf("missing id %d", code)
		}

		// Cancel a queued job, retry is refused while queued, allowed after.
		if code, b = e.do("POST", path+"/retry", "alice", nil); code != 409 {
			t.Fatalf("retry queued %d %s", code, b)
		}
		code, b = e.do("POST", path+"/cancel", "alice", nil)
		if code != 200 || cmpDecode[cmpJob](t, b).State != "cancelled" {
			t.Fatalf("cancel %d %s", code, b)
		}
		if code, b = e.do("POST", path+"/cancel", "alice", nil); code != 409 || cmpErrCode(t, b) != "job_finished" {
			t.Fatalf("cancel twice %d %s", code, b)
		}
		code, b = e.do("POST", path+"/retry", "alice", nil)
		if code != 200 || cmpDecode[cmpJob](t, b).State != "queued" {
			t.Fatalf("retry %d %s", code, b)
		}

		// Workers run both jobs to the end, visible through GET /jobs.
		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		deadline := time.Now().Add(15 * time.Second)
		for {
			_, b = e.do("GET", "/jobs?state=succeeded", "alice", nil)
			if len(cmpDecode[struct{ Items []cmpJob }](t, b).Items) == 2 {
				break
			}
			if time.Now().After(deadline) {
				_, all := e.do("GET", "/jobs", "alice", nil)
				t.Fatalf("jobs did not finish: %s", all)
			}
			time.Sleep(20 * time.Millisecond)
		}
		code, b = e.do("GET", "/resources/content?uri=kb://me/wiki/notes/a.md", "alice", nil)
		if code != 200 || !strings.Contains(string(b), "a summary") {
			t.Fatalf("summary %d %s", code, b)
		}
		// The tree shows each file's job and a fresh summary; a new upload
		// of the source makes the summary stale.
		badges := func() map[string]knowledge.Item {
			_, b := e.do("GET", "/resources?uri=kb://me/notes/", "alice", nil)
			out := map[string]knowledge.Item{}
			for _, it := range cmpDecode[knowledge.Listing](t, b).Items {
				out[it.Name] = it
			}
			return out
		}
		if a := badges()["a.md"]; a.Job == nil || a.Job.State != "succeeded" || a.Summary != "fresh" || a.SummaryURI != "kb://users/alice/wiki/notes/a.md" {
			t.Fatalf("badges after compile: %+v", a)
		}
		e.upload("alice", "kb://me/notes/", map[string]string{"a.md": "alpha, changed"})
		if a := badges()["a.md"]; a.Summary != "stale" {
			t.Fatalf("summary after the source changed: %+v", a)
		}

		// The summaries are generated and refused as inputs.
		code, b = e.do("POST", "/knowledge-agent/compile", "alice", map[string]any{"uris": []string{"kb://me/wiki/notes/a.md"}, "model_id": "fake"})
		if res := cmpDecode[cmpEnqueue](t, b); code != 200 || len(res.Rejected) != 1 || res.Rejected[0].Code != "generated_artifact" {
			t.Fatalf("%d %s", code, b)
		}

		// Options list the CLI profile without its argv, and the defaults.
		code, b = e.do("GET", "/knowledge-agent/options", "alice", nil)
		if code != 200 || !strings.Contains(string(b), `"cli_profiles":[{"name":"codex","models":["gpt-5-codex"],"efforts":[]}]`) ||
			strings.Contains(string(b), "codex-secret-path") || !strings.Contains(string(b), `"max_files":32`) {
			t.Fatalf("options %s", b)
		}
	})
}
