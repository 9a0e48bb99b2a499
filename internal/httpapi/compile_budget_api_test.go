package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/catalog"
	"github.com/knowspace/knowspace/internal/compile"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/usage"
)

// compileBudgetEnv is a compile service whose models come from a catalog
// (so a model can be restricted to a group) with a meter and budgets; its
// workers are started by the test.
func compileBudgetEnv(t *testing.T, dialect string) (*apiEnv, *compile.Service, *catalog.Service) {
	t.Helper()
	stack := apptest.NewStack(t, dialect)
	fake := apptest.StartFake(t, fakellm.Options{})
	fake.SetFunc(func(*fakellm.Request) fakellm.Response {
		return fakellm.Stream(fakellm.Data(fakellm.TextChunk("a summary")), fakellm.Data(fakellm.FinishChunk("stop")),
			fakellm.Data(fakellm.UsageChunk(300, 20)), fakellm.Done())
	})
	meter := usage.New(stack.Store)
	cat, err := catalog.New(context.Background(), stack.Store, apptest.Models(t), strings.Repeat("s", 32), llm.RegistryOptions{Recorder: meter})
	if err != nil {
		t.Fatal(err)
	}
	k := cmpFakeKey
	if _, err := cat.Create(context.Background(), catalog.Input{ID: "fake", Profile: llm.ProfileOpenAICompatible, BaseURL: fake.URL + "/v1",
		Model: "upstream", ContextWindow: 32768, OutputReserve: 2048, APIKey: &k}); err != nil {
		t.Fatal(err)
	}
	budgets := usage.NewBudgets(stack.Store, meter)
	comp := compile.New(compile.Options{Store: stack.Store, Tree: stack.Tree, Models: cat.Models(), Budget: budgets,
		Poll: 20 * time.Millisecond, Heartbeat: 50 * time.Millisecond, Backoff: func(int) time.Duration { return 300 * time.Millisecond }})
	e := newAPIEnv(t, stack, Deps{Models: cat.Models(), Catalog: cat, Compile: comp, Usage: meter, Budgets: budgets}, "alice")
	e.fake = fake
	e.tokens["root"] = stack.NewUser(t, "root", store.RoleAdmin).Token
	return e, comp, cat
}

type cmpBudgetReply struct {
	Jobs     []cmpJob `json:"jobs"`
	Rejected []struct {
		URI, Code, Message string
	} `json:"rejected"`
	Budget *struct {
		Queued   int `json:"queued"`
		LeftOut  int `json:"left_out"`
		Subject  string
		Scope    string
		Period   string
		ResetsAt time.Time `json:"resets_at"`
	} `json:"budget"`
}

// TestCompileBatchQueuesWhatFits: a batch whose files would spend more
// than what is left of the user's budget queues the files that fit, in
// order, and leaves out the rest with budget_exceeded, saying so in the
// answer's budget; a batch that fits says nothing of it.
func TestCompileBatchQueuesWhatFits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e, _, _ := compileBudgetEnv(t, dialect)
		alice, err := e.stack.Store.UserByUsername(context.Background(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{}
		var uris []string
		for i := range 5 {
			name := fmt.Sprintf("f%d.md", i)
			// About 1000 tokens each by the byte count (3 a token).
			files[name] = "# Notes\n\n" + strings.Repeat("word ", 600)
			uris = append(uris, "kb://me/obs/"+name)
		}
		files["small.md"] = "# Small\n\nA line.\n"
		e.upload("alice", "kb://me/obs/", files)
		ask := func(uris ...string) cmpBudgetReply {
			b := e.expect("POST", "/api/v1/knowledge-agent/compile", "alice",
				map[string]any{"uris": uris, "executor": "llm", "model_id": "fake"}, 200)
			var r cmpBudgetReply
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			return r
		}
		e.expect("PUT", "/api/v1/admin/budgets", "root",
			map[string]any{"scope": "user", "user_id": alice.ID, "period": "day", "max_tokens": 2500}, 200)
		if r := ask("kb://me/obs/small.md"); len(r.Jobs) != 1 || r.Budget != nil {
			t.Fatalf("a batch that fits is queued whole, naming no budget: %+v", r)
		}
		r := ask(uris...)
		if len(r.Jobs) != 2 || len(r.Rejected) != 3 || r.Budget == nil || r.Budget.Queued != 2 || r.Budget.LeftOut != 3 ||
			r.Budget.Scope != "user" || r.Budget.Subject != "alice" || r.Budget.Period != "day" || r.Budget.ResetsAt.IsZero() {
			t.Fatalf("a batch over the budget: %+v", r)
		}
		for i, rej := range r.Rejected {
			if rej.Code != "budget_exceeded" || !strings.HasSuffix(rej.URI, strings.TrimPrefix(uris[2+i], "kb://me")) || !strings.Contains(rej.Message, "budget") {
				t.Fatalf("left out: %+v", r.Rejected)
			}
		}
	})
}

// TestQueuedJobChecksModelAccessWhenItStarts: a job queued while its user
// could use a model restricted to a group fails with model_not_allowed
// when it starts after the user left the group; it calls no model.
func TestQueuedJobChecksModelAccessWhenItStarts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e, comp, cat := compileBudgetEnv(t, dialect)
		ctx := context.Background()
		alice, err := e.stack.Store.UserByUsername(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		g, err := e.stack.Auth.CreateGroup(ctx, "modellers")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.stack.Auth.AddMember(ctx, g.ID, alice.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := cat.Update(ctx, "fake", func(in *catalog.Input) error { in.Groups = []int64{g.ID}; return nil }); err != nil {
			t.Fatal(err)
		}
		e.upload("alice", "kb://me/obs/", map[string]string{"tides.md": "# Tides\n\nThe moon pulls the sea.\n"})
		b := e.expect("POST", "/api/v1/knowledge-agent/compile", "alice",
			map[string]any{"uris": []string{"kb://me/obs/tides.md"}, "executor": "llm", "model_id": "fake"}, 200)
		id := cmpDecode[cmpEnqueue](t, b).Jobs[0].ID
		if err := e.stack.Auth.RemoveMember(ctx, g.ID, alice.ID); err != nil {
			t.Fatal(err)
		}
		pool := comp.Start(1)
		defer pool.Stop(ctx)
		j, _ := e.waitJob(id, 20*time.Second)
		if j.State != "failed" || j.Error == nil || j.Error.Code != "model_not_allowed" {
			t.Fatalf("the job of a user who left the model's group: %+v %+v", j, j.Error)
		}
		if n := e.fake.Completed(); n != 0 {
			t.Fatalf("%d model calls for a job its user may not make", n)
		}
	})
}

// TestJobWaitsForTheRestHeldByRunningWork: a job that starts while what is
// left of its user's budget is held by other running work is tried again,
// not failed, and runs once that work settled.
func TestJobWaitsForTheRestHeldByRunningWork(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		e, comp, _ := compileBudgetEnv(t, dialect)
		ctx := context.Background()
		alice, err := e.stack.Store.UserByUsername(ctx, "alice")
		if err != nil {
			t.Fatal(err)
		}
		e.expect("PUT", "/api/v1/admin/budgets", "root",
			map[string]any{"scope": "user", "user_id": alice.ID, "period": "day", "max_tokens": 100000}, 200)
		budgets, err := e.stack.Store.Budgets(ctx)
		if err != nil || len(budgets) != 1 {
			t.Fatalf("budgets: %v %v", budgets, err)
		}
		// Another replica's turn runs into the rest: nothing has settled
		// yet to estimate from, so the job would have to cross too.
		running := store.BudgetHold{BudgetID: budgets[0].ID, Crossing: true, CreatedAt: time.Now(), ExpiresAt: time.Now().Add(time.Hour)}
		if err := e.stack.Store.AddBudgetHold(ctx, &running); err != nil {
			t.Fatal(err)
		}
		e.upload("alice", "kb://me/obs/", map[string]string{"tides.md": "# Tides\n\nThe moon pulls the sea.\n"})
		b := e.expect("POST", "/api/v1/knowledge-agent/compile", "alice",
			map[string]any{"uris": []string{"kb://me/obs/tides.md"}, "executor": "llm", "model_id": "fake"}, 200)
		id := cmpDecode[cmpEnqueue](t, b).Jobs[0].ID
		pool := comp.Start(1)
		defer pool.Stop(ctx)
		deadline := time.Now().Add(10 * time.Second)
		for {
			j, err := e.stack.Store.JobByID(ctx, alice.ID, id)
			if err != nil {
				t.Fatal(err)
			}
			if j.State == store.JobFailed {
				t.Fatalf("the job failed while the rest was held: %+v", j)
			}
			if j.Attempts >= 2 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the job was not tried again: %+v", j)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := e.stack.Store.SettleBudgetHolds(ctx, []int64{running.ID}, 10, 0); err != nil {
			t.Fatal(err)
		}
		if j, _ := e.waitJob(id, 20*time.Second); j.State != "succeeded" {
			t.Fatalf("after the running work settled: %+v %+v", j, j.Error)
		}
	})
}
