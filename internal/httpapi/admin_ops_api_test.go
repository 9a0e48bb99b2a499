package httpapi

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/config"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const opsFakeKey = "sk-ops-test-SECRET-93"

// opsNewEnv is cmpNewEnv with an admin ("root"), models that fail in
// known ways and CLI profiles whose programs answer, fail or are missing.
func opsNewEnv(t *testing.T, dialect string) *apiEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	fake.SetFunc(func(r *fakellm.Request) fakellm.Response {
		switch {
		case r.Chat == nil:
			return fakellm.HTTPError(400, "no body")
		case r.Chat.Model == "denied-upstream":
			return fakellm.HTTPError(401, "Incorrect API key provided: "+opsFakeKey)
		case r.Chat.Model == "limited-upstream":
			return fakellm.RateLimited("7")
		case r.Chat.Model == "hang-upstream":
			return fakellm.Stream(fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(30*time.Second), fakellm.Done())
		}
		return fakellm.TextStream("OK")
	})
	// A port that was free a moment ago: nothing answers there.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadURL := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	mk := func(id, base, upstream string) llm.ModelConfig {
		m := fake.Model(id, opsFakeKey, upstream)
		m.BaseURL = base
		return m
	}
	reg := apptest.Models(t,
		mk("fake", fake.URL+"/v1", "good-upstream"),
		mk("team/fake", fake.URL+"/v1", "good-upstream"),
		mk("dead", deadURL, "good-upstream"),
		mk("denied", fake.URL+"/v1", "denied-upstream"),
		mk("limited", fake.URL+"/v1", "limited-upstream"),
		mk("hang", fake.URL+"/v1", "hang-upstream"),
	)
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: reg, CLIProfiles: []config.CLIProfile{
		{Name: "answers", Argv: []string{"true"}, Env: []string{"PATH"}},
		{Name: "fails", Argv: []string{"false"}, Env: []string{"PATH"}},
		{Name: "missing", Argv: []string{"/nonexistent/knowspace-secret-cli", "{model}"}},
	}})
	env := newAPIEnv(t, stack, Deps{Models: reg, Compile: comp}, "alice", "bob")
	env.fake, env.fakeURL, env.deadURL = fake, fake.URL, deadURL
	env.tokens["root"] = stack.NewUser(t, "root", store.RoleAdmin).Token
	env.ids = map[string]int64{}
	ctx := context.Background()
	for _, name := range []string{"alice", "bob", "root"} {
		u, err := stack.Store.UserByUsername(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		env.ids[name] = u.ID
	}
	return env
}

type opsJob struct {
	cmpJob
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
}

type opsOverview struct {
	Users struct {
		Total, Disabled, Admins int64
	} `json:"users"`
	Files         int64            `json:"files"`
	Bytes         int64            `json:"bytes"`
	Jobs          map[string]int64 `json:"jobs"`
	ActiveStreams int              `json:"active_streams"`
}

func (e *apiEnv) overview() opsOverview {
	e.t.Helper()
	code, b := e.do("GET", "/admin/overview", "root", nil)
	if code != 200 {
		e.t.Fatalf("overview %d %s", code, b)
	}
	return cmpDecode[opsOverview](e.t, b)
}

func (e *apiEnv) adminJobs(query string) []opsJob {
	e.t.Helper()
	code, b := e.do("GET", "/admin/jobs"+query, "root", nil)
	if code != 200 {
		e.t.Fatalf("admin jobs%s: %d %s", query, code, b)
	}
	return cmpDecode[struct{ Items []opsJob }](e.t, b).Items
}

func TestAdminEndpointsRefuseNonAdmins(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := opsNewEnv(t, dialect)
		for _, r := range []struct{ method, path string }{
			{"GET", "/admin/jobs"}, {"GET", "/admin/jobs?state=queued"}, {"POST", "/admin/jobs/1/cancel"}, {"GET", "/admin/overview"},
		} {
			code, b := e.do(r.method, r.path, "alice", nil)
			if code != 403 || cmpErrCode(t, b) != "admin_only" {
				t.Errorf("alice %s %s: %d %s", r.method, r.path, code, b)
			}
			if code, b := e.do(r.method, r.path, "", nil); code != 401 || cmpErrCode(t, b) != "missing_token" {
				t.Errorf("anonymous %s %s: %d %s", r.method, r.path, code, b)
			}
		}
	})
}

func TestAdminJobsAndOverview(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := opsNewEnv(t, dialect)
		before := e.overview()
		if before.Users.Total != 3 || before.Users.Admins != 1 || before.Users.Disabled != 0 || before.ActiveStreams != 0 {
			t.Fatalf("overview before: %+v", before)
		}
		for _, s := range []string{"queued", "running", "succeeded", "failed", "cancelled"} {
			if n, ok := before.Jobs[s]; !ok || n != 0 {
				t.Fatalf("jobs[%s] = %d, %v in %+v", s, n, ok, before.Jobs)
			}
		}
		e.upload("alice", "kb://me/notes/", map[string]string{"a.md": "alpha", "b.md": "beta!"})
		e.upload("bob", "kb://me/docs/", map[string]string{"c.md": "gamma gamma"})
		for user, uris := range map[string][]string{"alice": {"kb://me/notes/a.md", "kb://me/notes/b.md"}, "bob": {"kb://me/docs/c.md"}} {
			code, b := e.do("POST", "/knowledge-agent/compile", user, map[string]any{"uris": uris, "executor": "llm", "model_id": "fake"})
			if code != 200 || len(cmpDecode[cmpEnqueue](t, b).Jobs) != len(uris) {
				t.Fatalf("compile for %s: %d %s", user, code, b)
			}
		}

		all := e.adminJobs("")
		if len(all) != 3 {
			t.Fatalf("admin sees %d jobs: %+v", len(all), all)
		}
		owners := map[string]string{}
		for _, j := range all {
			owners[j.URI] = j.Username
			if j.UserID != e.ids[j.Username] || j.State != "queued" || j.Kind != "wiki_compile" {
				t.Errorf("job %+v", j)
			}
		}
		if owners["kb://users/alice/notes/a.md"] != "alice" || owners["kb://users/alice/notes/b.md"] != "alice" || owners["kb://users/bob/docs/c.md"] != "bob" {
			t.Fatalf("owners by uri: %v", owners)
		}
		bobs := e.adminJobs(fmt.Sprintf("?user_id=%d&state=queued&kind=wiki_compile", e.ids["bob"]))
		if len(bobs) != 1 || bobs[0].URI != "kb://users/bob/docs/c.md" || bobs[0].Username != "bob" {
			t.Fatalf("bob's jobs: %+v", bobs)
		}
		if got := e.adminJobs("?kind=other"); len(got) != 0 {
			t.Fatalf("kind=other: %+v", got)
		}
		if got := e.adminJobs("?limit=2"); len(got) != 2 {
			t.Fatalf("limit=2: %d jobs", len(got))
		}
		for q, want := range map[string]string{"?state=bogus": "invalid_state", "?user_id=x": "invalid_user_id",
			"?limit=501": "invalid_limit", "?user_id=-3": "invalid_user_id"} {
			if code, b := e.invalid().do("GET", "/admin/jobs"+q, "root", nil); code != 400 || cmpErrCode(t, b) != want {
				t.Errorf("%s: %d %s, want %s", q, code, b, want)
			}
		}

		// Cancelling bob's job as the admin is bob's own cancel.
		code, b := e.do("POST", fmt.Sprintf("/admin/jobs/%d/cancel", bobs[0].ID), "root", nil)
		got := cmpDecode[opsJob](t, b)
		if code != 200 || got.State != "cancelled" || got.Username != "bob" || got.UserID != e.ids["bob"] || got.URI != "kb://users/bob/docs/c.md" {
			t.Fatalf("admin cancel: %d %s", code, b)
		}
		code, b = e.do("GET", fmt.Sprintf("/jobs/%d", bobs[0].ID), "bob", nil)
		if code != 200 || cmpDecode[cmpJob](t, b).State != "cancelled" {
			t.Fatalf("bob's view after admin cancel: %d %s", code, b)
		}
		if code, b = e.do("POST", fmt.Sprintf("/admin/jobs/%d/cancel", bobs[0].ID), "root", nil); code != 409 || cmpErrCode(t, b) != "job_finished" {
			t.Fatalf("cancel twice: %d %s", code, b)
		}
		if code, b = e.do("POST", "/admin/jobs/99999/cancel", "root", nil); code != 404 || cmpErrCode(t, b) != "job_not_found" {
			t.Fatalf("cancel unknown: %d %s", code, b)
		}
		// Alice still cannot cancel bob's job through her own route.
		if code, b = e.do("POST", fmt.Sprintf("/jobs/%d/cancel", bobs[0].ID), "alice", nil); code != 404 {
			t.Fatalf("alice cancels bob's job: %d %s", code, b)
		}

		// Disabling bob cancels his queued jobs too (none left) and counts him.
		if code, b = e.do("PATCH", fmt.Sprintf("/admin/users/%d", e.ids["bob"]), "root", map[string]any{"disabled": true}); code != 200 {
			t.Fatalf("disable bob: %d %s", code, b)
		}
		// One answer streaming on this replica.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		resp := e.stream(ctx, "alice", `{"uri":"kb://me/","model_id":"hang","message":"hi","temporary":true}`)
		defer resp.Body.Close()
		after := e.overview()
		want := opsOverview{Files: before.Files + 3, Bytes: before.Bytes + int64(len("alpha")+len("beta!")+len("gamma gamma")),
			Jobs: map[string]int64{"queued": 2, "running": 0, "succeeded": 0, "failed": 0, "cancelled": 1}, ActiveStreams: 1}
		want.Users.Total, want.Users.Disabled, want.Users.Admins = 3, 1, 1
		if fmt.Sprint(after) != fmt.Sprint(want) {
			t.Fatalf("overview after:\n got %+v\nwant %+v", after, want)
		}
		cancel()
		deadline := time.Now().Add(5 * time.Second)
		for e.overview().ActiveStreams != 0 {
			if time.Now().After(deadline) {
				t.Fatal("the stream stayed counted after its client left")
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// stream opens a chat stream and waits for its first event.
func (e *apiEnv) stream(ctx context.Context, user, body string) *http.Response {
	e.t.Helper()
	resp := e.send(e.t, e.request(e.t, ctx, "POST", "/api/v1/knowledge-agent/stream", user, body))
	if resp.StatusCode != 200 {
		e.t.Fatalf("stream: %v", resp.Status)
	}
	buf := make([]byte, 1)
	if _, err := resp.Body.Read(buf); err != nil {
		e.t.Fatalf("stream first byte: %v", err)
	}
	return resp
}

type opsCheck struct {
	OK        bool   `json:"ok"`
	LatencyMS *int64 `json:"latency_ms"`
	Error     *struct {
		Code, Message string
	} `json:"error"`
}

func (e *apiEnv) check(user, path string) (opsCheck, int, []byte) {
	e.t.Helper()
	code, b := e.do("POST", path, user, nil)
	var c opsCheck
	if code == 200 {
		c = cmpDecode[opsCheck](e.t, b)
		if c.LatencyMS == nil || *c.LatencyMS < 0 {
			e.t.Fatalf("%s: no latency in %s", path, b)
		}
	}
	// No secret of any model or profile in any answer.
	for _, secret := range []string{opsFakeKey, e.fakeURL, strings.TrimPrefix(e.fakeURL, "http://"), e.deadURL,
		strings.TrimPrefix(e.deadURL, "http://"), "upstream", "knowspace-secret-cli"} {
		if strings.Contains(string(b), secret) {
			e.t.Fatalf("%s: secret %q in %s", path, secret, b)
		}
	}
	return c, code, b
}

func TestModelCheckAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := opsNewEnv(t, dialect)
		models := "/knowledge-agent/models/"

		c, code, b := e.check("alice", models+"fake/check")
		if code != 200 || !c.OK || c.Error != nil || strings.Contains(string(b), `"error"`) {
			t.Fatalf("fake: %d %s", code, b)
		}
		last := e.fake.LastChat()
		if last == nil || last.MaxTokens != 1 || len(last.Tools) != 0 || last.Model != "good-upstream" {
			t.Fatalf("the check call was not a 1-token completion: %+v", last)
		}
		// An id with a slash is escaped in the path.
		if c, code, b = e.check("alice", models+url.PathEscape("team/fake")+"/check"); code != 200 || !c.OK {
			t.Fatalf("team/fake: %d %s", code, b)
		}
		for id, want := range map[string]string{"dead": "llm_connect_error", "denied": "llm_auth", "limited": "llm_rate_limited"} {
			c, code, b := e.check("alice", models+id+"/check")
			if code != 200 || c.OK || c.Error == nil || c.Error.Code != want || c.Error.Message == "" {
				t.Errorf("%s: %d %s, want error %s", id, code, b, want)
			}
		}
		// Unknown ids are 404 and do not use up the limit.
		for i := 0; i < 3; i++ {
			if _, code, b := e.check("alice", models+"nope/check"); code != 404 || cmpErrCode(t, b) != "unknown_model" {
				t.Fatalf("unknown: %d %s", code, b)
			}
		}
		// Five checks so far; the sixth passes, the seventh waits.
		if c, code, b = e.check("alice", models+"fake/check"); code != 200 || !c.OK {
			t.Fatalf("sixth: %d %s", code, b)
		}
		code, b = e.do("POST", models+"fake/check", "alice", nil)
		if code != 429 || cmpErrCode(t, b) != "too_many_checks" || !strings.Contains(string(b), "at most 6 checks a minute") {
			t.Fatalf("seventh: %d %s", code, b)
		}
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1"+models+"fake/check", nil)
		req.Header.Set("Authorization", "Bearer "+e.tokens["alice"])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if ra, _ := strconv.Atoi(resp.Header.Get("Retry-After")); resp.StatusCode != 429 || ra < 1 || ra > 60 {
			t.Fatalf("Retry-After %q on %d", resp.Header.Get("Retry-After"), resp.StatusCode)
		}
		// The limit is per user.
		if c, code, b = e.check("bob", models+"fake/check"); code != 200 || !c.OK {
			t.Fatalf("bob: %d %s", code, b)
		}
		if code, _ := e.do("POST", models+"fake/check", "", nil); code != 401 {
			t.Fatalf("anonymous check: %d", code)
		}

		profiles := "/knowledge-agent/cli-profiles/"
		if c, code, b = e.check("bob", profiles+"answers/check"); code != 200 || !c.OK || c.Error != nil {
			t.Fatalf("answers: %d %s", code, b)
		}
		for name, want := range map[string]string{"fails": "cli_failed", "missing": "cli_not_installed"} {
			c, code, b := e.check("bob", profiles+name+"/check")
			if code != 200 || c.OK || c.Error == nil || c.Error.Code != want || !strings.Contains(c.Error.Message, name) {
				t.Errorf("%s: %d %s, want %s", name, code, b, want)
			}
		}
		if _, code, b = e.check("bob", profiles+"nope/check"); code != 404 || cmpErrCode(t, b) != "cli_profile_not_found" {
			t.Fatalf("unknown profile: %d %s", code, b)
		}
	})
}

// TestTokenLastUsedIsWrittenOncePerMinute: the list gives created, last
// used and expiry; a second use within the minute does not rewrite it.
func TestTokenLastUsedIsWrittenOncePerMinute(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e := opsNewEnv(t, dialect)
		code, b := e.do("POST", "/auth/tokens", "alice", map[string]any{"name": "cron", "expires_in_days": 7})
		if code != 201 {
			t.Fatalf("create: %d %s", code, b)
		}
		tok := cmpDecode[struct {
			Token string `json:"token"`
		}](t, b).Token
		type item struct {
			Name       string     `json:"name"`
			CreatedAt  time.Time  `json:"created_at"`
			LastUsedAt *time.Time `json:"last_used_at"`
			ExpiresAt  *time.Time `json:"expires_at"`
		}
		list := func() item {
			t.Helper()
			code, b := e.do("GET", "/auth/tokens", "alice", nil)
			items := cmpDecode[struct{ Items []item }](t, b).Items
			if code != 200 || len(items) != 1 {
				t.Fatalf("list: %d %s", code, b)
			}
			return items[0]
		}
		if it := list(); it.LastUsedAt != nil || it.CreatedAt.IsZero() || it.ExpiresAt == nil ||
			it.ExpiresAt.Sub(it.CreatedAt).Round(time.Hour) != 7*24*time.Hour {
			t.Fatalf("before use: %+v", it)
		}
		use := func() {
			t.Helper()
			e.tokens["cron"] = tok
			if code, b := e.do("GET", "/auth/me", "cron", nil); code != 200 {
				t.Fatalf("use: %d %s", code, b)
			}
		}
		use()
		first := list().LastUsedAt
		if first == nil {
			t.Fatal("last_used_at not set by a use")
		}
		time.Sleep(1100 * time.Millisecond) // past the store's second precision
		use()
		if again := list().LastUsedAt; again == nil || !again.Equal(*first) {
			t.Fatalf("a second use within the minute rewrote last_used_at: %v then %v", first, again)
		}
	})
}
