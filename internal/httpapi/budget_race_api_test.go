package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/agent/llm"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/usage"
)

// replica is one server of several on one database, with its own meter.
type replica struct {
	*apiEnv
	meter *usage.Meter
}

// meteredReplicas serves two servers on one database, each with its own store
// handle, meter and budgets, calling one fake model; users signed in on
// the first are known to both.
func meteredReplicas(t *testing.T, dialect string, fake *apptest.Fake, users ...string) [2]replica {
	t.Helper()
	dsn, dir := storetest.Empty(t, dialect)
	var out [2]replica
	for i := range out {
		st, err := store.Open(context.Background(), dsn, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		stack := apptest.NewStackOn(t, st, dir)
		m := fake.Model("fake", stFakeKey, "upstream")
		m.NativeTools = true
		meter := usage.New(st)
		reg, err := llm.NewRegistry([]llm.ModelConfig{m}, llm.RegistryOptions{Recorder: meter})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		if i == 0 {
			names = users
		}
		env := newAPIEnv(t, stack, Deps{Models: reg, Usage: meter, Budgets: usage.NewBudgets(st, meter), Shutdown: make(chan struct{}),
			Chat: &chat.Service{Store: st, Tree: stack.Tree}}, names...)
		if i == 1 {
			env.tokens = out[0].tokens
		}
		out[i] = replica{apiEnv: env, meter: meter}
	}
	return out
}

// TestBudgetHoldsAcrossRacingReplicas: 20 turns of one user race across
// two replicas against a daily token budget; each costs 100 tokens. The
// budget is overspent by at most one call per replica, and turns go on
// being admitted until it is spent.
func TestBudgetHoldsAcrossRacingReplicas(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		fake := apptest.StartFake(t, fakellm.Options{})
		fake.SetFunc(func(*fakellm.Request) fakellm.Response {
			return fakellm.Stream(fakellm.Sleep(30*time.Millisecond), fakellm.Data(fakellm.TextChunk("ok")),
				fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Data(fakellm.UsageChunk(90, 10)), fakellm.Done())
		})
		rs := meteredReplicas(t, dialect, fake, "alice")
		rs[0].tokens["root"] = rs[0].stack.NewUser(t, "root", store.RoleAdmin).Token
		alice, err := rs[0].stack.Store.UserByUsername(context.Background(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		const limit, perTurn = 550, 100
		if st, raw := rs[0].call(t, "root", http.MethodPut, "/api/v1/admin/budgets",
			fmt.Sprintf(`{"scope":"user","user_id":%d,"period":"day","max_tokens":%d}`, alice.ID, limit)); st != http.StatusOK {
			t.Fatalf("put budget: %d %s", st, raw)
		}
		turn := func(r replica) (int, string) {
			resp := r.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"race"}`)
			if resp.StatusCode != http.StatusOK {
				st, raw := readAll(resp)
				return st, string(raw)
			}
			defer resp.Body.Close()
			evs := stReadEvents(t, resp.Body, nil)
			return http.StatusOK, evs[len(evs)-1].name
		}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			admitted int
		)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st, body := turn(rs[i%2])
				mu.Lock()
				defer mu.Unlock()
				switch {
				case st == http.StatusOK && body == "done":
					admitted++
				case st == http.StatusTooManyRequests:
				default:
					t.Errorf("turn %d: %d %s", i, st, body)
				}
			}()
		}
		wg.Wait()
		used := func() int64 {
			for _, r := range rs {
				r.meter.Flush(context.Background())
			}
			sum, err := rs[0].stack.Store.SumUsage(context.Background(), store.UsageFilter{From: time.Now().UTC().Format(time.DateOnly), UserIDs: []int64{alice.ID}})
			if err != nil {
				t.Fatal(err)
			}
			return sum.Tokens
		}
		u := used()
		t.Logf("%d of 20 racing turns admitted, %d tokens spent of %d", admitted, u, limit)
		if u > limit+2*perTurn {
			t.Fatalf("20 racing turns (%d admitted) spent %d tokens of a %d budget: more than one call per replica over", admitted, u, limit)
		}
		// What the race left unspent is still there to spend.
		for i := 0; i < 20; i++ {
			st, body := turn(rs[i%2])
			if st == http.StatusTooManyRequests {
				break
			}
			if st != http.StatusOK || body != "done" {
				t.Fatalf("a turn after the race: %d %s", st, body)
			}
		}
		u = used()
		t.Logf("after the turns that followed: %d tokens spent of %d", u, limit)
		if u < limit || u > limit+2*perTurn {
			t.Fatalf("after the race and the turns that followed: %d tokens of a %d budget", u, limit)
		}
	})
}
