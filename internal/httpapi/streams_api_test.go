package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/store"
)

// TestStreamsPerUser: a user's fifth open stream is refused with 429
// too_many_streams while another user streams freely; a finished stream
// frees its slot; disabling the user ends the open ones.
func TestStreamsPerUser(t *testing.T) {
	stack := apptest.NewStack(t, store.DialectSQLite)
	fake := apptest.StartFake(t, fakellm.Options{})
	model := fake.Model("fake", "k", "m")
	model.OutputReserve, model.NativeTools = 4096, true
	env := newAPIEnv(t, stack, Deps{Models: apptest.Models(t, model)}, "alice", "bob")
	srv, tokens := env.srv, env.tokens
	ctx := context.Background()
	admin := stack.NewUser(t, "root", store.RoleAdmin)
	alice, _ := stack.Auth.UserByName(ctx, "alice")

	post := func(token, path, body string) *http.Response {
		return env.send(t, env.request(t, ctx, http.MethodPost, path, token, body))
	}
	hang := func() {
		fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("x")), fakellm.Sleep(30*time.Second), fakellm.Done()))
	}
	const stream, ask = "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`
	var open []*http.Response
	for range DefaultStreamsPerUser {
		hang()
		res := post(tokens["alice"], stream, ask)
		if res.StatusCode != 200 {
			t.Fatalf("stream %d: %d", len(open)+1, res.StatusCode)
		}
		evs := stReadEvents(t, res.Body, func(e stEvent) bool { return e.name != "delta" })
		t.Logf("stream %d: %s", len(open)+1, stNames(evs))
		open = append(open, res)
	}
	res := post(tokens["alice"], stream, ask)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var e struct {
		Error struct{ Code, Message string }
	}
	json.Unmarshal(body, &e)
	if res.StatusCode != 429 || e.Error.Code != "too_many_streams" || !strings.Contains(e.Error.Message, fmt.Sprint(DefaultStreamsPerUser)) {
		t.Fatalf("fifth stream: %d %s", res.StatusCode, body)
	}
	// Bob is not held back by alice's streams.
	fake.Push(fakellm.TextStream("for bob"))
	res = post(tokens["bob"], stream, ask)
	if evs := stReadEvents(t, res.Body, nil); res.StatusCode != 200 || evs[len(evs)-1].name != "done" {
		t.Fatalf("bob: %d %s", res.StatusCode, stNames(evs))
	}
	res.Body.Close()
	// Closing one of alice's frees its slot.
	open[0].Body.Close()
	open = open[1:]
	deadline := time.Now().Add(3 * time.Second)
	for {
		fake.Push(fakellm.TextStream("again"))
		res = post(tokens["alice"], stream, ask)
		if res.StatusCode == 200 {
			stReadEvents(t, res.Body, nil)
			res.Body.Close()
			break
		}
		res.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("a closed stream never freed its slot")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Disabling alice ends her open streams at once.
	start := time.Now()
	req, _ := http.NewRequest(http.MethodPatch, fmt.Sprintf("%s/api/v1/admin/users/%d", srv.URL, alice.ID), strings.NewReader(`{"disabled":true}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+admin.Token)
	if res, err := CheckedClient(t).Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("disable: %v %v", res, err)
	}
	for i, r := range open {
		done := make(chan struct{})
		go func() { io.Copy(io.Discard, r.Body); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("stream %d still open %v after the disable", i, time.Since(start))
		}
		r.Body.Close()
	}
}
