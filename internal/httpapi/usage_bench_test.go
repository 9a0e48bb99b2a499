package httpapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/usage"
)

// BenchmarkUsageAccounting runs the same short turn (a stored conversation,
// a provider reporting usage) on a server that accounts every call and on
// one that does not, alternating in each iteration so load on a shared
// machine hits both alike; accounting-ratio is the accounted turn's time ÷
// the plain one's (goal ≤ 1.02).
func BenchmarkUsageAccounting(b *testing.B) {
	envs := make([]*apiEnv, 2)
	for i, accounted := range []bool{false, true} {
		stack := apptest.NewStack(b, store.DialectSQLite)
		fake := apptest.StartFake(b, fakellm.Options{})
		fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			return fakellm.Stream(fakellm.Data(fakellm.TextChunk("a short answer")), fakellm.Data(fakellm.FinishChunk("stop")),
				fakellm.Data(fakellm.UsageChunk(900, 40)), fakellm.Done())
		})
		m := fake.Model("fake", stFakeKey, "upstream")
		m.OutputReserve, m.NativeTools = 4096, true
		d := Deps{Shutdown: make(chan struct{}), Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree}}
		opts := llm.RegistryOptions{}
		if accounted {
			d.Usage = usage.New(stack.Store)
			d.Budgets = usage.NewBudgets(stack.Store, d.Usage)
			opts.Recorder = d.Usage
		}
		reg, err := llm.NewRegistry([]llm.ModelConfig{m}, opts)
		if err != nil {
			b.Fatal(err)
		}
		d.Models = reg
		envs[i] = newAPIEnv(b, stack, d, "alice")
	}
	elapsed := make([]time.Duration, 2)
	turn := func(e *apiEnv) {
		resp := e.open(http.MethodPost, "/api/v1/knowledge-agent/stream", "alice", map[string]any{"uri": "kb://me/", "model_id": "fake", "message": "hi"})
		_, body := readAll(resp)
		if resp.StatusCode != http.StatusOK || len(body) == 0 {
			b.Fatalf("turn: %d %s", resp.StatusCode, body)
		}
	}
	for i := 0; i < b.N; i++ {
		for k, e := range envs {
			start := time.Now()
			turn(e)
			elapsed[k] += time.Since(start)
		}
	}
	b.ReportMetric(float64(elapsed[0].Microseconds())/float64(b.N), "plain-µs/turn")
	b.ReportMetric(float64(elapsed[1].Microseconds())/float64(b.N), "accounted-µs/turn")
	b.ReportMetric(float64(elapsed[1])/float64(elapsed[0]), "accounting-ratio")
}

// BenchmarkBudgetHolds runs the same short turn on two accounting servers,
// one where a budget applies to the user (each turn takes a hold under a
// lock and settles it) and one with none, alternating; holds-ratio is the
// budgeted turn's time ÷ the other's.
func BenchmarkBudgetHolds(b *testing.B) {
	envs := make([]*apiEnv, 2)
	for i, budgeted := range []bool{false, true} {
		stack := apptest.NewStack(b, store.DialectSQLite)
		fake := apptest.StartFake(b, fakellm.Options{})
		fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			return fakellm.Stream(fakellm.Data(fakellm.TextChunk("a short answer")), fakellm.Data(fakellm.FinishChunk("stop")),
				fakellm.Data(fakellm.UsageChunk(900, 40)), fakellm.Done())
		})
		m := fake.Model("fake", stFakeKey, "upstream")
		m.OutputReserve, m.NativeTools = 4096, true
		meter := usage.New(stack.Store)
		budgets := usage.NewBudgets(stack.Store, meter)
		reg, err := llm.NewRegistry([]llm.ModelConfig{m}, llm.RegistryOptions{Recorder: meter})
		if err != nil {
			b.Fatal(err)
		}
		envs[i] = newAPIEnv(b, stack, Deps{Shutdown: make(chan struct{}), Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree},
			Usage: meter, Budgets: budgets, Models: reg}, "alice")
		if budgeted {
			u, err := stack.Store.UserByUsername(context.Background(), "alice")
			if err != nil {
				b.Fatal(err)
			}
			if _, err := budgets.Put(context.Background(), store.Budget{Scope: store.BudgetUser, SubjectID: u.ID, Period: store.PeriodDay, MaxTokens: 1 << 40}); err != nil {
				b.Fatal(err)
			}
		}
	}
	elapsed := make([]time.Duration, 2)
	for i := 0; i < b.N; i++ {
		for k, e := range envs {
			start := time.Now()
			resp := e.open(http.MethodPost, "/api/v1/knowledge-agent/stream", "alice", map[string]any{"uri": "kb://me/", "model_id": "fake", "message": "hi"})
			_, body := readAll(resp)
			if resp.StatusCode != http.StatusOK || len(body) == 0 {
				b.Fatalf("turn: %d %s", resp.StatusCode, body)
			}
			elapsed[k] += time.Since(start)
		}
	}
	b.ReportMetric(float64(elapsed[0].Microseconds())/float64(b.N), "unbudgeted-µs/turn")
	b.ReportMetric(float64(elapsed[1].Microseconds())/float64(b.N), "budgeted-µs/turn")
	b.ReportMetric(float64(elapsed[1])/float64(elapsed[0]), "holds-ratio")
}
