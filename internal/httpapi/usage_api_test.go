package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/usage"
)

// usageSetup is the chat server with a meter as every model's recorder;
// the models cost 2 per million input tokens and 10 per million output.
func usageSetup(t *testing.T, dialect string) *apiEnv {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	m := fake.Model("fake", stFakeKey, "upstream-secret-name")
	m.OutputReserve, m.NativeTools, m.PriceInput, m.PriceOutput = 4096, true, 2, 10
	meter := usage.New(stack.Store)
	reg, err := llm.NewRegistry([]llm.ModelConfig{m}, llm.RegistryOptions{Recorder: meter})
	if err != nil {
		t.Fatal(err)
	}
	env := newAPIEnv(t, stack, Deps{Models: reg, Usage: meter, Budgets: usage.NewBudgets(stack.Store, meter), Shutdown: make(chan struct{}),
		Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree}}, "alice", "bob")
	env.fake, env.fakeURL = fake, fake.URL
	return env
}

type usageReply struct {
	From, To string
	Rows     []usage.Row `json:"rows"`
}

func (e *apiEnv) usage(t *testing.T, user, path string) usageReply {
	t.Helper()
	st, raw := e.call(t, user, http.MethodGet, path, "")
	var out usageReply
	if st != http.StatusOK || json.Unmarshal(raw, &out) != nil {
		t.Fatalf("GET %s as %s: %d %s", path, user, st, raw)
	}
	return out
}

// TestUsageMatchesTheProvidersCount: a chat turn's usage row is exactly what
// the provider reported, costed by the model's prices; a provider that
// reports none gives an estimate marked as one; each user sees their own,
// an admin everyone's, as JSON and CSV.
func TestUsageMatchesTheProvidersCount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := usageSetup(t, dialect)
		env.tokens["root"] = env.stack.NewUser(t, "root", store.RoleAdmin).Token

		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("counted answer")), fakellm.Data(fakellm.FinishChunk("stop")),
			fakellm.Data(fakellm.UsageChunk(1234, 56)), fakellm.Done()))
		if evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"count me"}`); evs[len(evs)-1].name != "done" {
			t.Fatalf("turn: %s", stNames(evs))
		}
		rows := env.usage(t, "alice", "/api/v1/usage").Rows
		if len(rows) != 1 {
			t.Fatalf("alice's usage: %+v", rows)
		}
		r := rows[0]
		if r.Model != "fake" || r.Purpose != "chat" || r.Calls != 1 || r.EstimatedCalls != 0 || r.InputTokens != 1234 || r.OutputTokens != 56 || r.Username != "alice" {
			t.Fatalf("the provider's count: %+v", r)
		}
		if want := (1234*2.0 + 56*10.0) / 1e6; r.Cost != want {
			t.Fatalf("cost %v, want %v", r.Cost, want)
		}

		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("an answer nobody counted")), fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done()))
		env.turn(t, "bob", `{"uri":"kb://me/","model_id":"fake","message":"estimate me"}`)
		rows = env.usage(t, "bob", "/api/v1/usage").Rows
		if len(rows) != 1 || rows[0].EstimatedCalls != 1 || rows[0].InputTokens == 0 || rows[0].OutputTokens != 8 {
			t.Fatalf("bob's estimated usage: %+v", rows)
		}

		st, raw := env.call(t, "bob", http.MethodGet, "/api/v1/admin/usage", "")
		wantCode(t, st, raw, http.StatusForbidden, "admin_only")
		all := env.usage(t, "root", "/api/v1/admin/usage").Rows
		if len(all) != 2 || all[0].Username == all[1].Username {
			t.Fatalf("admin's view: %+v", all)
		}
		st, raw = env.call(t, "root", http.MethodGet, "/api/v1/admin/usage?format=csv", "")
		lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
		if st != http.StatusOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "day,user_id,username,model") ||
			!strings.Contains(string(raw), ",alice,fake,chat,1,0,1234,56,0.003028") {
			t.Fatalf("CSV: %d\n%s", st, raw)
		}
		st, raw = env.invalid().call(t, "alice", http.MethodGet, "/api/v1/usage?from=2026-13-01", "")
		wantCode(t, st, raw, http.StatusBadRequest, "invalid_request")
	})
}

// TestBudgetRefusesTheNextTurn: a turn that spends a user's daily budget
// finishes; the next is refused with the budget, the amount used and the
// reset, while another user chats on; a group's budget counts its members
// together; deleting the budget lets the user in again.
func TestBudgetRefusesTheNextTurn(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := usageSetup(t, dialect)
		env.tokens["root"] = env.stack.NewUser(t, "root", store.RoleAdmin).Token
		counted := func() {
			env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("ok")), fakellm.Data(fakellm.FinishChunk("stop")),
				fakellm.Data(fakellm.UsageChunk(1234, 56)), fakellm.Done()))
		}
		alice, err := env.stack.Store.UserByUsername(context.Background(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		aliceID := alice.ID
		st, raw := env.call(t, "root", http.MethodPut, "/api/v1/admin/budgets",
			fmt.Sprintf(`{"scope":"user","user_id":%d,"period":"day","max_tokens":1000}`, aliceID))
		if st != http.StatusOK {
			t.Fatalf("put budget: %d %s", st, raw)
		}
		counted()
		if evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"spend it"}`); evs[len(evs)-1].name != "done" {
			t.Fatalf("the turn that spends the budget finishes: %s", stNames(evs))
		}
		st, raw = env.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"one more"}`)
		var refusal struct {
			Error struct {
				Code       string    `json:"code"`
				UsedTokens int64     `json:"used_tokens"`
				MaxTokens  int64     `json:"max_tokens"`
				ResetsAt   time.Time `json:"resets_at"`
				Budget     struct{ Scope, Period, Subject string }
			} `json:"error"`
		}
		if st != http.StatusTooManyRequests || json.Unmarshal(raw, &refusal) != nil || refusal.Error.Code != "budget_exceeded" ||
			refusal.Error.UsedTokens != 1290 || refusal.Error.MaxTokens != 1000 || refusal.Error.Budget.Scope != "user" || refusal.Error.Budget.Subject != "alice" {
			t.Fatalf("over budget: %d %s", st, raw)
		}
		if tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour); !refusal.Error.ResetsAt.Equal(tomorrow) {
			t.Fatalf("resets at %v, want %v", refusal.Error.ResetsAt, tomorrow)
		}
		var mine struct{ Budgets []usage.Status }
		_, raw = env.call(t, "alice", http.MethodGet, "/api/v1/usage/budgets", "")
		if json.Unmarshal(raw, &mine) != nil || len(mine.Budgets) != 1 || mine.Budgets[0].Fraction < 1.29 {
			t.Fatalf("alice's budgets: %s", raw)
		}

		// bob is not alice; but his group's monthly cost budget counts him.
		counted()
		if evs := env.turn(t, "bob", `{"uri":"kb://me/","model_id":"fake","message":"mine is fine"}`); evs[len(evs)-1].name != "done" {
			t.Fatalf("bob is refused for alice's budget: %s", stNames(evs))
		}
		bob, _ := env.stack.Store.UserByUsername(context.Background(), "bob")
		g, err := env.stack.Auth.CreateGroup(context.Background(), "team")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.stack.Auth.AddMember(context.Background(), g.ID, bob.ID); err != nil {
			t.Fatal(err)
		}
		gid := g.ID
		if st, raw := env.call(t, "root", http.MethodPut, "/api/v1/admin/budgets", fmt.Sprintf(`{"scope":"group","group_id":%d,"period":"month","max_cost":0.001}`, gid)); st != http.StatusOK || !strings.Contains(string(raw), `"subject":"team"`) {
			t.Fatalf("put the group's budget: %d %s", st, raw)
		}
		st, raw = env.call(t, "bob", http.MethodPost, "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"again"}`)
		if st != http.StatusTooManyRequests || !strings.Contains(string(raw), `"subject":"team"`) {
			t.Fatalf("bob over his group's budget: %d %s", st, raw)
		}

		var all struct{ Budgets []usage.Status }
		_, raw = env.call(t, "root", http.MethodGet, "/api/v1/admin/budgets", "")
		if json.Unmarshal(raw, &all) != nil || len(all.Budgets) != 2 {
			t.Fatalf("admin's budgets: %s", raw)
		}
		for _, b := range all.Budgets {
			st, raw = env.call(t, "root", http.MethodDelete, fmt.Sprintf("/api/v1/admin/budgets/%d", b.ID), "")
			if st != http.StatusNoContent {
				t.Fatalf("delete budget %d: %d %s", b.ID, st, raw)
			}
		}
		counted()
		if evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"free again"}`); evs[len(evs)-1].name != "done" {
			t.Fatalf("after the budget is gone: %s", stNames(evs))
		}
		st, raw = env.invalid().call(t, "root", http.MethodPut, "/api/v1/admin/budgets", `{"scope":"user","user_id":1,"period":"week","max_tokens":5}`)
		wantCode(t, st, raw, http.StatusBadRequest, "invalid_budget")
	})
}

// TestUsageOfACompileJob: every model call of a compile job is filed under
// its user with purpose compile, with exactly the provider's counts.
func TestUsageOfACompileJob(t *testing.T) {
	stack := apptest.NewStack(t, "sqlite")
	fake := apptest.StartFake(t, fakellm.Options{})
	fake.SetFunc(func(*fakellm.Request) fakellm.Response {
		return fakellm.Stream(fakellm.Data(fakellm.TextChunk("a summary")), fakellm.Data(fakellm.FinishChunk("stop")),
			fakellm.Data(fakellm.UsageChunk(300, 20)), fakellm.Done())
	})
	meter := usage.New(stack.Store)
	reg, err := llm.NewRegistry([]llm.ModelConfig{fake.Model("fake", cmpFakeKey, "upstream")}, llm.RegistryOptions{Recorder: meter})
	if err != nil {
		t.Fatal(err)
	}
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: reg, Poll: 20 * time.Millisecond, Heartbeat: 50 * time.Millisecond})
	e := newAPIEnv(t, stack, Deps{Models: reg, Compile: comp, Usage: meter}, "alice")
	e.fake = fake
	pool := comp.Start(1)
	defer pool.Stop(context.Background())
	e.upload("alice", "kb://me/obs/", map[string]string{"tides.md": "# Tides\n\nThe moon pulls the sea.\n"})
	b := e.expect("POST", "/api/v1/knowledge-agent/compile", "alice",
		map[string]any{"uris": []string{"kb://me/obs/tides.md"}, "executor": "llm", "model_id": "fake"}, 200)
	id := cmpDecode[cmpEnqueue](t, b).Jobs[0].ID
	if j, _ := e.waitJob(id, 20*time.Second); j.State != "succeeded" {
		t.Fatalf("job: %+v", j)
	}
	calls := int64(fake.Completed())
	rows := e.usage(t, "alice", "/api/v1/usage").Rows
	if calls == 0 || len(rows) != 1 || rows[0].Purpose != "compile" || rows[0].Calls != calls ||
		rows[0].InputTokens != 300*calls || rows[0].OutputTokens != 20*calls || rows[0].EstimatedCalls != 0 {
		t.Fatalf("%d calls, usage %+v", calls, rows)
	}
}
