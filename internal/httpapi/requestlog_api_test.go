package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/knowspace/knowspace/internal/apptest"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/observe"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

// lockedBuffer is a log sink shared by the server's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// captureJSONLogs routes slog, at debug level, into a buffer until the
// test ends.
func captureJSONLogs(t *testing.T) *lockedBuffer {
	t.Helper()
	buf := &lockedBuffer{}
	h, err := observe.NewLogHandler(observe.LogJSON, slog.LevelDebug, buf)
	if err != nil {
		t.Fatal(err)
	}
	prev := slog.Default()
	slog.SetDefault(slog.New(h))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return buf
}

// TestLogsCarryRequestIDsAndNoSecrets drives a login, a token, an upload, a
// streamed turn that reads the file and a compile job through a server
// logging JSON, then reads every line.
func TestLogsCarryRequestIDsAndNoSecrets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		logs := captureJSONLogs(t)
		e := obsSetup(t, dialect, 0)
		pool := e.svc.Start(1)
		defer pool.Stop(context.Background())
		const (
			password      = "Pa55-word-only-carol-knows"
			wrongPassword = "Wr0ng-guess-of-a-stranger"
			content       = "zebra-quokka-content-7731 is in the file and nowhere else"
		)
		if _, err := e.stack.Auth.CreateUser(context.Background(), "carol", password, store.RoleUser); err != nil {
			t.Fatal(err)
		}
		res := e.open("POST", "/api/v1/auth/login", "", map[string]string{"username": "carol", "password": wrongPassword})
		res.Body.Close()
		if res.StatusCode != 401 {
			t.Fatalf("wrong password: %d", res.StatusCode)
		}
		var login loginJSONBody
		json.Unmarshal(e.expect("POST", "/api/v1/auth/login", "", map[string]string{"username": "carol", "password": password}, 200), &login)
		if login.Token == "" {
			t.Fatal("login answered no token")
		}
		var tok struct{ Token string }
		json.Unmarshal(e.expect("POST", "/api/v1/auth/tokens", login.Token, map[string]any{"name": "ci"}, 201), &tok)
		if !strings.HasPrefix(tok.Token, "ks_") && len(tok.Token) < 20 {
			t.Fatalf("token secret %q", tok.Token)
		}
		e.tokens["carol"] = tok.Token // the API token from here on
		e.compileOne("carol", "secret.md", content)
		sse := e.turnSSE("carol", "use read on kb://me/obs/secret.md")
		if !strings.Contains(sse, "zebra-quokka") {
			t.Fatalf("the turn did not read the file, so the test proves nothing:\n%.2000s", sse)
		}

		// An incoming id is honoured and echoed; a bad one is replaced.
		for _, c := range []struct{ in, name string }{
			{"trace-obs-0001", "sane"},
			{"has spaces\tand tabs", "unprintable"},
			{strings.Repeat("x", 200), "too long"},
			{"", "absent"},
		} {
			res := e.open("GET", "/api/v1/auth/me", "carol", nil, RequestIDHeader, c.in)
			res.Body.Close()
			got := res.Header.Get(RequestIDHeader)
			switch {
			case c.name == "sane" && got != c.in:
				t.Errorf("sane id %q answered as %q", c.in, got)
			case c.name != "sane" && (got == "" || got == c.in || len(got) != 24):
				t.Errorf("%s id %q answered as %q, want a fresh one", c.name, c.in, got)
			}
		}

		text := logs.String()
		for what, secret := range map[string]string{"the password": password, "a wrong password": wrongPassword,
			"the session token": login.Token, "the API token secret": tok.Token, "the file's content": "zebra-quokka",
			"the provider key": "sk-obs-SECRET-9", "an Authorization header": "Bearer"} {
			if strings.Contains(text, secret) {
				t.Errorf("the log holds %s", what)
			}
		}
		var requests, turns, jobs int
		sawTrace := false
		for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("not a JSON log line: %q", line)
			}
			switch rec["msg"] {
			case "request":
				requests++
				id, _ := rec["request_id"].(string)
				if id == "" {
					t.Errorf("request line without an id: %s", line)
				}
				for _, k := range []string{"user_id", "route", "method", "status", "duration_ms", "bytes"} {
					if _, ok := rec[k]; !ok {
						t.Errorf("request line without %s: %s", k, line)
					}
				}
				if id == "trace-obs-0001" {
					sawTrace = true
					if rec["route"] != "/api/v1/auth/me" || rec["user_id"] == float64(0) {
						t.Errorf("traced request logged as %s", line)
					}
				}
			case "turn":
				turns++
				for _, k := range []string{"request_id", "turn_id", "model", "steps", "tool_calls", "finish_reason", "input_tokens", "output_tokens"} {
					if _, ok := rec[k]; !ok {
						t.Errorf("turn line without %s: %s", k, line)
					}
				}
				if rec["tool_calls"] != float64(1) || rec["steps"] != float64(2) || rec["finish_reason"] != "stop" {
					t.Errorf("turn line %s", line)
				}
			case "compile job":
				jobs++
				for _, k := range []string{"job", "kind", "from", "to"} {
					if _, ok := rec[k]; !ok {
						t.Errorf("job line without %s: %s", k, line)
					}
				}
			}
		}
		if !sawTrace {
			t.Error("the incoming X-Request-Id is in no log line")
		}
		// login ×2, token, mkdir, upload, compile, job polls, stream, me ×4.
		if requests < 12 || turns != 1 || jobs < 3 {
			t.Errorf("%d request lines, %d turn lines, %d job lines", requests, turns, jobs)
		}
	})
}

type loginJSONBody struct {
	Token string `json:"token"`
}

// TestLogNamesDoorUser: a mounted door checks its own credentials; the
// user it notes is the one the request log names.
func TestLogNamesDoorUser(t *testing.T) {
	logs := captureJSONLogs(t)
	stack := apptest.NewStack(t, store.DialectSQLite)
	door := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		observe.NoteUser(r.Context(), 4242)
		w.WriteHeader(http.StatusNoContent)
	})
	srv := httptest.NewServer(New(Deps{Store: stack.Store, Auth: stack.Auth, Tree: stack.Tree, Mounts: []Mount{{Path: "/door", Handler: door}}}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/door/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, `"route":"/door/*"`) {
			if !strings.Contains(line, `"user_id":4242`) {
				t.Fatalf("request log without the door's user: %s", line)
			}
			return
		}
	}
	t.Fatalf("no request line for /door/x in %s", logs.String())
}

// TestStreamLogLineCoversTheStream: a stream whose connection its turn
// took is logged when it ends, with its whole time and bytes, not when
// the handler handed it over.
func TestStreamLogLineCoversTheStream(t *testing.T) {
	logs := captureJSONLogs(t)
	env := stSetup(t, store.DialectSQLite)
	env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("first ")),
		fakellm.Sleep(400*time.Millisecond), fakellm.Data(fakellm.TextChunk("last")), fakellm.Done()))
	resp := env.post(context.Background(), t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Header.Get(RequestIDHeader)
	deadline := time.Now().Add(3 * time.Second)
	for {
		for _, line := range strings.Split(logs.String(), "\n") {
			if !strings.Contains(line, `"msg":"request"`) || !strings.Contains(line, id) {
				continue
			}
			var rec struct {
				Status   int     `json:"status"`
				Duration float64 `json:"duration_ms"`
				Bytes    int64   `json:"bytes"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Status != 200 || rec.Duration < 400 || rec.Bytes != int64(len(body)) {
				t.Fatalf("the stream's log line says %+v; it took over 400 ms and sent %d bytes", rec, len(body))
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no request line for %s", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
