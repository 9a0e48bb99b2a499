package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
	"github.com/knowspace/knowspace/internal/turn"
)

// twoReplicas is two servers on one PostgreSQL database, as two replicas
// of one deployment: a is stSetup's (alice and bob signed in, the fake
// behind its models); b has its own store, turn service and models on the
// same fake, and takes the same sessions.
func twoReplicas(t *testing.T, tweak ...func(*Deps)) (a, b *apiEnv) {
	t.Helper()
	if os.Getenv("KB_TEST_POSTGRES_DSN") == "" {
		t.Skip("KB_TEST_POSTGRES_DSN is not set: two replicas share a PostgreSQL database")
	}
	dsn, dir := storetest.Empty(t, store.DialectPostgres)
	a = stSetupOn(t, apptest.NewStackAt(t, dsn, dir), tweak...)
	stack := apptest.NewStackAt(t, dsn, dir)
	m := a.fake.Model("fake", stFakeKey, "upstream-secret-name")
	m.OutputReserve, m.NativeTools = 4096, true
	shutdown := make(chan struct{})
	d := Deps{Models: apptest.Models(t, m), Shutdown: shutdown, Chat: &chat.Service{Store: stack.Store, Tree: stack.Tree}}
	for _, f := range tweak {
		f(&d)
	}
	b = newAPIEnv(t, stack, d)
	b.tokens, b.fake, b.fakeURL, b.shutdown = a.tokens, a.fake, a.fakeURL, shutdown
	return a, b
}

// startDetached starts a detached turn as alice and reads until stop says
// so, then leaves; it returns what it read.
func (e *apiEnv) startDetached(t *testing.T, body string, stop func(stEvent) bool) []stEvent {
	t.Helper()
	ctx, leave := context.WithCancel(context.Background())
	defer leave()
	resp := e.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream", body)
	defer resp.Body.Close()
	return stReadEvents(t, resp.Body, func(ev stEvent) bool { return !stop(ev) })
}

// ascending fails unless the events' ids rise from at least first (a
// joined delta carries the id of the last it holds).
func ascending(t *testing.T, evs []stEvent, first int) {
	t.Helper()
	for i, e := range evs {
		if e.id < first || i > 0 && e.id <= evs[i-1].id {
			t.Fatalf("event %d has id %d after %d: %+v", i, e.id, first-1, evs)
		}
	}
}

// TestDetachedTurnResumesOnAnotherReplica: a detached turn runs on one
// replica; its client leaves after a delta and resumes on the other with
// Last-Event-ID: the rest, exactly once and in order, ending in the same
// done the running replica gives; a follower there from the start reads
// it whole; the stored answer is complete.
func TestDetachedTurnResumesOnAnotherReplica(t *testing.T) {
	a, b := twoReplicas(t)
	words := []string{"one", " two", " three", " four", " five"}
	steps := []fakellm.Step{fakellm.Data(fakellm.RoleChunk())}
	for _, w := range words {
		steps = append(steps, fakellm.Data(fakellm.TextChunk(w)), fakellm.Sleep(150*time.Millisecond))
	}
	a.fake.Push(fakellm.Stream(append(steps, fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done())...))
	seen := a.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"count","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
	conv, _, msg := startIDs(t, seen)
	last := seen[len(seen)-1].id
	whole := make(chan []stEvent, 1)
	go func() { whole <- b.resumeQuiet(msg, 0) }()

	rest := b.resume(t, "alice", msg, last)
	ascending(t, rest, last+1)
	if rest[0].id != last+1 && rest[0].name != "delta" {
		t.Fatalf("resumed after %d at %+v", last, rest[0])
	}
	if got := answerText(seen) + answerText(rest); got != "one two three four five" || rest[len(rest)-1].name != "done" {
		t.Fatalf("before leaving %q, resumed on the other replica %+v", answerText(seen), rest)
	}
	all := <-whole
	ascending(t, all, 1)
	if answerText(all) != "one two three four five" || all[len(all)-1].name != "done" {
		t.Fatalf("followed from the start on the other replica: %+v", all)
	}
	here := a.resume(t, "alice", msg, 0)
	if end, there := here[len(here)-1], rest[len(rest)-1]; end.id != there.id || !reflect.DeepEqual(end.data, there.data) {
		t.Fatalf("done on the running replica %+v, on the other %+v", end, there)
	}
	if m := b.settled(t, "alice", conv).Messages; m[len(m)-1].Status != "complete" || m[len(m)-1].Content != "one two three four five" {
		t.Fatalf("stored %+v", m[len(m)-1])
	}
	st, raw := b.call(t, "bob", http.MethodGet, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d", msg), "")
	wantCode(t, st, raw, http.StatusNotFound, "answer_not_running")
}

// resumeQuiet is resume for a goroutine: it reports instead of failing.
func (e *apiEnv) resumeQuiet(msgID int64, after int) []stEvent {
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/knowledge-agent/stream/%d", e.srv.URL, msgID), nil)
	req.Header.Set("Authorization", "Bearer "+e.tokens["alice"])
	req.Header.Set("Last-Event-ID", fmt.Sprint(after))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Errorf("resume: %v", err)
		return nil
	}
	defer resp.Body.Close()
	return stReadEvents(nil, resp.Body, nil)
}

// TestStopFromAnotherReplica: Stop asked on the other replica reaches the
// one running the turn: its own client and a follower on the other replica
// both end with error stopped, and the answer is stored stopped.
func TestStopFromAnotherReplica(t *testing.T) {
	a, b := twoReplicas(t)
	stopEndsEveryFollower(t, a, b)
}

// TestStopFromASecondConnection: Stop from another connection ends the
// turn for its own client and for a second follower alike.
func TestStopFromASecondConnection(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		stopEndsEveryFollower(t, env, env)
	})
}

// stopEndsEveryFollower starts a detached turn on a and follows it there
// (its own client) and on b, then asks b to stop it.
func stopEndsEveryFollower(t *testing.T, a, b *apiEnv) {
	t.Helper()
	a.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("thinking")), fakellm.Sleep(30*time.Second), fakellm.Done()))
	resp := a.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`)
	defer resp.Body.Close()
	first := make(chan []stEvent, 1)
	started := make(chan stEvent, 1)
	go func() {
		first <- stReadEvents(nil, resp.Body, func(e stEvent) bool {
			if e.name == "start" {
				started <- e
			}
			return true
		})
	}()
	start := <-started
	msg := int64(start.data["message_id"].(float64))
	conv := int64(start.data["conversation_id"].(float64))
	other := make(chan []stEvent, 1)
	go func() { other <- b.resumeQuiet(msg, 0) }()
	time.Sleep(200 * time.Millisecond)
	began := time.Now()
	if st, raw := b.call(t, "alice", http.MethodPost, fmt.Sprintf("/api/v1/knowledge-agent/stream/%d/stop", msg), ""); st != http.StatusNoContent {
		t.Fatalf("stop on the other replica: %d %s", st, raw)
	}
	for name, c := range map[string]chan []stEvent{"its own client": first, "a second follower": other} {
		select {
		case evs := <-c:
			if end := evs[len(evs)-1]; end.name != "error" || end.data["code"] != "stopped" {
				t.Fatalf("%s: %+v", name, evs)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s never saw the stop", name)
		}
	}
	t.Logf("stopped %v after the request", time.Since(began).Round(time.Millisecond))
	if m := a.settled(t, "alice", conv).Messages; m[len(m)-1].Status != "stopped" {
		t.Fatalf("stored %+v", m[len(m)-1])
	}
}

// TestRestartSparesAnotherReplicasTurn: a replica starting marks only the
// answers no live replica writes: the other replica's detached turn runs
// on to complete.
func TestRestartSparesAnotherReplicasTurn(t *testing.T) {
	a, b := twoReplicas(t)
	a.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("slow")), fakellm.Sleep(600*time.Millisecond),
		fakellm.Data(fakellm.TextChunk(" answer")), fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done()))
	seen := a.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
	conv, _, _ := startIDs(t, seen)
	restarting := &chat.Service{Store: b.stack.Store, Tree: b.stack.Tree}
	if n, err := restarting.Interrupt(context.Background(), time.Now().Add(-turn.Lease)); err != nil || n != 0 {
		t.Fatalf("a replica starting marked %d answers (%v)", n, err)
	}
	if m := a.conversation(t, "alice", conv, "").Messages; m[len(m)-1].Status != "streaming" {
		t.Fatalf("the live turn's answer after another replica started: %+v", m[len(m)-1])
	}
	if m := a.settled(t, "alice", conv).Messages; m[len(m)-1].Status != "complete" || m[len(m)-1].Content != "slow answer" {
		t.Fatalf("stored %+v", m[len(m)-1])
	}
}

// TestDetachedTurnWatchedFromAnotherReplicaRunsOn: a client following on
// the other replica counts as someone watching: the turn outlives the
// detached timeout of the replica running it.
func TestDetachedTurnWatchedFromAnotherReplicaRunsOn(t *testing.T) {
	a, b := twoReplicas(t, func(d *Deps) {
		d.Turns = turn.New(d.Tree, d.Chat, 4)
		d.Turns.DetachedTimeout = 300 * time.Millisecond
	})
	a.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("long")), fakellm.Sleep(1500*time.Millisecond),
		fakellm.Data(fakellm.TextChunk(" wait")), fakellm.Data(fakellm.FinishChunk("stop")), fakellm.Done()))
	seen := a.startDetached(t, `{"uri":"kb://me/","model_id":"fake","message":"go","detach":true}`, func(e stEvent) bool { return e.name == "delta" })
	_, _, msg := startIDs(t, seen)
	rest := b.resume(t, "alice", msg, seen[len(seen)-1].id)
	if end := rest[len(rest)-1]; end.name != "done" || answerText(rest) != " wait" {
		t.Fatalf("followed on the other replica past the timeout: %+v", rest)
	}
}
