package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/knowspace/knowspace/internal/app"
	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// TestStopEndsOpenStreamsFirst: a server stopping with a script's stream
// open tells the client, and keeps the answer so far, before the database
// closes; the stream's connection is no longer the server's to wait for.
func TestStopEndsOpenStreamsFirst(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		cfg := testConfig(t, dialect, map[string]string{"KB_ADMIN_PASSWORD": "app-admin-password"})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		a, err := app.New(ctx, cfg, app.Options{FakeLLM: true})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
		sess, err := a.Auth.Login(ctx, "admin", "app-admin-password", "test")
		if err != nil {
			t.Fatal(err)
		}
		api := apptest.Client{URL: "http://" + a.Addr()}
		body := `{"uri":"kb://me/","model_id":"fake-text","message":"[[slow]] ` + strings.Repeat("word ", 200) + `"}`
		res := api.Open(t, api.Request(t, context.Background(), http.MethodPost, "/api/v1/knowledge-agent/stream", sess.Token, []byte(body)))
		defer res.Body.Close()
		events := bufio.NewScanner(res.Body)
		var messageID int64
		for events.Scan() && !strings.HasPrefix(events.Text(), "event: delta") {
			if d, ok := strings.CutPrefix(events.Text(), "data: "); ok && messageID == 0 {
				var start struct {
					MessageID int64 `json:"message_id"`
				}
				_ = json.Unmarshal([]byte(d), &start)
				messageID = start.MessageID
			}
		}
		if messageID == 0 {
			t.Fatal("the stream named no stored answer before its first words")
		}
		cancel()
		if err := a.Wait(ctx); err != nil {
			t.Fatalf("stop: %v", err)
		}
		m, err := a.Store.MessageOnly(context.Background(), messageID)
		if err != nil {
			t.Fatal(err)
		}
		if m.Status == store.MessageStreaming || m.Content == "" {
			t.Fatalf("after the stop the answer is %q with %q", m.Status, m.Content)
		}
		var rest strings.Builder
		for events.Scan() {
			rest.WriteString(events.Text() + "\n")
		}
		if !strings.Contains(rest.String(), `"code":"server_shutdown"`) {
			t.Fatalf("the client was not told of the stop:\n%s", rest.String())
		}
	})
}
