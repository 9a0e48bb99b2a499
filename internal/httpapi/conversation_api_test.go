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

	"github.com/knowspace/knowspace/internal/chat"
	"github.com/knowspace/knowspace/internal/fakellm"
	"github.com/knowspace/knowspace/internal/kb"
	"github.com/knowspace/knowspace/internal/knowledge/share"
	"github.com/knowspace/knowspace/internal/store"
	"github.com/knowspace/knowspace/internal/store/storetest"
)

const convPath = "/api/v1/knowledge-agent/conversations"

type convMessage struct {
	ID        int64  `json:"id"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	Reasoning string `json:"reasoning"`
	ToolCalls []struct {
		ID, Name, Arguments, Summary, URI string
		OK                                bool
	} `json:"tool_calls"`
	Status string `json:"status"`
	Error  *struct {
		Code, Message string
	} `json:"error"`
	Usage    map[string]int `json:"usage"`
	ModelID  string         `json:"model_id"`
	Version  int            `json:"version"`
	Versions int            `json:"versions"`
	Earlier  []convMessage  `json:"earlier"`
}

type convJSON struct {
	ID       int64         `json:"id"`
	URI      string        `json:"uri"`
	Title    string        `json:"title"`
	ModelID  string        `json:"model_id"`
	Messages []convMessage `json:"messages"`
}

type convPage struct {
	Items      []convJSON `json:"items"`
	NextCursor *string    `json:"next_cursor"`
	Stored     bool       `json:"stored"`
}

func (e *apiEnv) mustCall(t *testing.T, user, method, path, body string, status int, out any) {
	t.Helper()
	got, raw := e.call(t, user, method, path, body)
	if got != status {
		t.Fatalf("%s %s: %d %s, want %d", method, path, got, raw, status)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

func wantCode(t *testing.T, status int, raw []byte, wantStatus int, code string) {
	t.Helper()
	var body errorBody
	json.Unmarshal(raw, &body)
	if status != wantStatus || body.Error.Code != code {
		t.Fatalf("got %d %s, want %d %s", status, raw, wantStatus, code)
	}
}

// turn streams one message and returns its events.
func (e *apiEnv) turn(t *testing.T, user, body string) []stEvent {
	t.Helper()
	resp := e.post(context.Background(), t, user, "/api/v1/knowledge-agent/stream", body)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream %s: %d %s", body, resp.StatusCode, raw)
	}
	return stReadEvents(t, resp.Body, nil)
}

func startIDs(t *testing.T, evs []stEvent) (conv, user, msg int64) {
	t.Helper()
	d := evs[0].data
	if evs[0].name != "start" {
		t.Fatalf("first event %s", evs[0].name)
	}
	num := func(k string) int64 {
		f, ok := d[k].(float64)
		if !ok || f <= 0 {
			t.Fatalf("start event lacks %s: %v", k, d)
		}
		return int64(f)
	}
	return num("conversation_id"), num("user_message_id"), num("message_id")
}

func (e *apiEnv) conversation(t *testing.T, user string, id int64, query string) convJSON {
	t.Helper()
	var c convJSON
	e.mustCall(t, user, http.MethodGet, fmt.Sprintf("%s/%d%s", convPath, id, query), "", 200, &c)
	return c
}

// settled waits for the answer of the conversation to leave streaming: the
// handler stores it after the stream ended, which a client that left does
// not wait for.
func (e *apiEnv) settled(t *testing.T, user string, id int64) convJSON {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := e.conversation(t, user, id, "")
		if last := c.Messages[len(c.Messages)-1]; last.Status != "streaming" || time.Now().After(deadline) {
			return c
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestConversationsCreateListSearchRenameDeleteExport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		var made convJSON
		env.mustCall(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/notes/","title":"Plans"}`, 201, &made)
		if made.URI != "kb://users/alice/notes/" || made.Title != "Plans" || made.ID == 0 {
			t.Fatalf("created %+v", made)
		}
		st, raw := env.call(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/nope/"}`)
		wantCode(t, st, raw, 404, "not_found")
		st, raw = env.call(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/","title":"a\nb"}`)
		wantCode(t, st, raw, 400, "invalid_title")

		evs := env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"where is the zebra budget?"}`, made.ID))
		if evs[len(evs)-1].name != "done" {
			t.Fatalf("events %s", stNames(evs))
		}
		second, _, _ := startIDs(t, env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"Hello there\nsecond line"}`))

		var page convPage
		env.mustCall(t, "alice", http.MethodGet, convPath, "", 200, &page)
		if len(page.Items) != 2 || page.Items[0].ID != second || page.Items[1].ID != made.ID || !page.Stored {
			t.Fatalf("list %+v", page)
		}
		if page.Items[0].Title != "Hello there" || page.Items[0].ModelID != "fake" || page.Items[0].URI != "kb://users/alice/" {
			t.Fatalf("auto title or model: %+v", page.Items[0])
		}
		env.mustCall(t, "alice", http.MethodGet, convPath+"?uri=kb://me/notes/", "", 200, &page)
		if len(page.Items) != 1 || page.Items[0].ID != made.ID {
			t.Fatalf("uri filter %+v", page.Items)
		}
		env.mustCall(t, "alice", http.MethodGet, convPath+"?q=ZEBRA", "", 200, &page)
		if len(page.Items) != 1 || page.Items[0].ID != made.ID {
			t.Fatalf("search of message text %+v", page.Items)
		}
		env.mustCall(t, "alice", http.MethodGet, convPath+"?q=%25", "", 200, &page)
		if len(page.Items) != 0 {
			t.Fatalf("%% is a wildcard: %+v", page.Items)
		}
		env.mustCall(t, "alice", http.MethodGet, convPath+"?limit=1", "", 200, &page)
		if len(page.Items) != 1 || page.NextCursor == nil || page.Items[0].ID != second {
			t.Fatalf("page 1 %+v", page)
		}
		env.mustCall(t, "alice", http.MethodGet, convPath+"?limit=1&cursor="+*page.NextCursor, "", 200, &page)
		if len(page.Items) != 1 || page.NextCursor != nil || page.Items[0].ID != made.ID {
			t.Fatalf("page 2 %+v", page)
		}
		st, raw = env.call(t, "alice", http.MethodGet, convPath+"?cursor=garbage", "")
		wantCode(t, st, raw, 400, "invalid_cursor")

		var renamed convJSON
		env.mustCall(t, "alice", http.MethodPatch, fmt.Sprintf("%s/%d", convPath, made.ID), `{"title":"Budget talk"}`, 200, &renamed)
		if renamed.Title != "Budget talk" {
			t.Fatalf("renamed %+v", renamed)
		}
		st, raw = env.call(t, "alice", http.MethodPatch, fmt.Sprintf("%s/%d", convPath, made.ID), `{"title":"  "}`)
		wantCode(t, st, raw, 400, "invalid_title")

		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s%s/%d/export?format=md", env.srv.URL, convPath, made.ID), nil)
		req.Header.Set("Authorization", "Bearer "+env.tokens["alice"])
		resp, err := CheckedClient(t).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		md, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") ||
			!strings.Contains(resp.Header.Get("Content-Disposition"), `attachment; filename=budget-talk.md`) {
			t.Fatalf("export headers %v", resp.Header)
		}
		for _, want := range []string{"# Budget talk", "`kb://users/alice/notes/`", "## You\n\nwhere is the zebra budget?", "## KnowAgent\n\n"} {
			if !strings.Contains(string(md), want) {
				t.Fatalf("export lacks %q:\n%s", want, md)
			}
		}
		st, raw = env.invalid().call(t, "alice", http.MethodGet, fmt.Sprintf("%s/%d/export?format=pdf", convPath, made.ID), "")
		wantCode(t, st, raw, 400, "invalid_format")

		env.mustCall(t, "alice", http.MethodDelete, fmt.Sprintf("%s/%d", convPath, made.ID), "", 204, nil)
		st, raw = env.call(t, "alice", http.MethodGet, fmt.Sprintf("%s/%d", convPath, made.ID), "")
		wantCode(t, st, raw, 404, "conversation_not_found")
		env.mustCall(t, "alice", http.MethodGet, convPath, "", 200, &page)
		if len(page.Items) != 1 || page.Items[0].ID != second {
			t.Fatalf("after delete %+v", page.Items)
		}
	})
}

func TestConversationTurnStoredWithToolCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		evs := env.turn(t, "alice", `{"uri":"kb://me/notes/","model_id":"fake","message":"use ls on kb://me/notes/ please"}`)
		if got := stNames(evs); got != "start,context,tool_call,tool_result,context,delta,done" {
			t.Fatalf("events %s", got)
		}
		convID, userID, msgID := startIDs(t, evs)
		var answer strings.Builder
		for _, e := range evs {
			if e.name == "delta" {
				answer.WriteString(e.data["text"].(string))
			}
		}
		c := env.conversation(t, "alice", convID, "")
		if len(c.Messages) != 2 {
			t.Fatalf("messages %+v", c.Messages)
		}
		u, a := c.Messages[0], c.Messages[1]
		if u.ID != userID || u.Role != "user" || u.Content != "use ls on kb://me/notes/ please" || u.Status != "complete" {
			t.Fatalf("user message %+v", u)
		}
		if a.ID != msgID || a.Role != "assistant" || a.Status != "complete" || a.Content != answer.String() || a.ModelID != "fake" || a.Error != nil {
			t.Fatalf("assistant message %+v (streamed %q)", a, answer.String())
		}
		if len(a.ToolCalls) != 1 {
			t.Fatalf("tool calls %+v", a.ToolCalls)
		}
		tc := a.ToolCalls[0]
		if tc.ID != "call_fake_ls" || tc.Name != "ls" || !tc.OK || !strings.Contains(tc.Summary, "items") ||
			tc.URI != "kb://users/alice/notes/" || !strings.Contains(tc.Arguments, "kb://") {
			t.Fatalf("tool call %+v", tc)
		}
		if a.Usage["input_tokens"] == 0 || a.Usage["output_tokens"] == 0 {
			t.Fatalf("usage %+v", a.Usage)
		}
		_, raw := env.call(t, "alice", http.MethodGet, fmt.Sprintf("%s/%d", convPath, convID), "")
		if strings.Contains(string(raw), "会议纪要") {
			t.Fatalf("the full tool output was stored: %s", raw)
		}
		if !strings.HasSuffix(a.Content, "Sources: kb://users/alice/notes/") {
			t.Fatalf("the fake's answer does not cite the folder it listed: %q", a.Content)
		}

		// The default fake cites what it read, at the line it started.
		evs = env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"use read on kb://me/notes/research-plan.md"}`, convID))
		c = env.conversation(t, "alice", convID, "")
		read := c.Messages[3]
		if read.Status != "complete" || len(read.ToolCalls) != 1 || read.ToolCalls[0].URI != "kb://users/alice/notes/research-plan.md" ||
			!strings.HasSuffix(read.Content, "Sources: kb://users/alice/notes/research-plan.md#L1") {
			t.Fatalf("read turn %+v (events %s)", read, stNames(evs))
		}
	})
}

func TestConversationCutTurnIsFailedAndStoppedIsStopped(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"cut me [[truncate]] now"}`)
		if evs[len(evs)-1].name != "error" {
			t.Fatalf("events %s", stNames(evs))
		}
		convID, _, _ := startIDs(t, evs)
		a := env.conversation(t, "alice", convID, "").Messages[1]
		if a.Status != "failed" || a.Error == nil || a.Error.Code != evs[len(evs)-1].data["code"] || a.Content != "cut me [" {
			t.Fatalf("cut turn stored as %+v", a)
		}

		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.RoleChunk()), fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(30*time.Second), fakellm.Done()))
		ctx, cancel := context.WithCancel(context.Background())
		resp := env.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"go on"}`, convID))
		var started []stEvent
		stReadEvents(t, resp.Body, func(e stEvent) bool { started = append(started, e); return e.name != "delta" })
		// While the answer streams it is stored as streaming, and a second
		// turn in the same conversation waits for it.
		if c := env.conversation(t, "alice", convID, ""); c.Messages[3].Status != "streaming" {
			t.Fatalf("in flight: %+v", c.Messages[3])
		}
		st, raw := env.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"again"}`, convID))
		wantCode(t, st, raw, 409, "turn_in_progress")
		cancel()
		resp.Body.Close()
		c := env.settled(t, "alice", convID)
		if len(c.Messages) != 4 {
			t.Fatalf("messages %+v", c.Messages)
		}
		if s := c.Messages[3]; s.Status != "stopped" || s.Content != "first" || s.Error != nil {
			t.Fatalf("stopped turn stored as %+v", s)
		}

		// Retry after Stop answers the same question again, completely,
		// and the stopped answer stays as the earlier version.
		_, sameQ, retried := startIDs(t, env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","regenerate":%d}`, convID, c.Messages[3].ID)))
		c = env.conversation(t, "alice", convID, "?versions=all")
		if r := c.Messages[3]; sameQ != c.Messages[2].ID || r.ID != retried || r.Status != "complete" || r.Content != "go on" ||
			len(r.Earlier) != 1 || r.Earlier[0].Status != "stopped" {
			t.Fatalf("retry after stop %+v", r)
		}
	})
}

// TestConversationShutdownAndRestartInterrupt: a turn cut by a graceful
// stop, and one left streaming by a crash, are both failed/interrupted.
func TestConversationShutdownAndRestartInterrupt(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		ctx := context.Background()
		env.fake.Push(fakellm.Stream(fakellm.Data(fakellm.TextChunk("first")), fakellm.Sleep(30*time.Second), fakellm.Done()))
		resp := env.post(ctx, t, "alice", "/api/v1/knowledge-agent/stream", `{"uri":"kb://me/","model_id":"fake","message":"hi"}`)
		var convID int64
		evs := stReadEvents(t, resp.Body, func(e stEvent) bool {
			if e.name == "delta" {
				close(env.shutdown)
			}
			return true
		})
		resp.Body.Close()
		convID, _, _ = startIDs(t, evs)
		a := env.settled(t, "alice", convID).Messages[1]
		if a.Status != "failed" || a.Error == nil || a.Error.Code != "interrupted" || a.Content != "first" {
			t.Fatalf("shutdown turn stored as %+v", a)
		}

		// A crash: the turn began and nothing ended it. The next start
		// finds it, as cmd/server does before serving.
		alice, _ := env.stack.Store.UserByUsername(ctx, "alice")
		svc := newChatService(env)
		turn, err := svc.Begin(ctx, callerOf(alice), chatTurn(convID, "and then?"))
		if err != nil {
			t.Fatal(err)
		}
		if n, err := svc.Interrupt(ctx, time.Now()); err != nil || n != 1 {
			t.Fatalf("interrupt: %d %v", n, err)
		}
		c := env.conversation(t, "alice", convID, "")
		last := c.Messages[len(c.Messages)-1]
		if last.ID != turn.MessageID || last.Status != "failed" || last.Error == nil || last.Error.Code != "interrupted" {
			t.Fatalf("interrupted turn %+v", last)
		}
	})
}

func TestConversationRegenerateAndEditKeepEarlierVersions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		convID, _, first := startIDs(t, env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"one"}`))
		_, oldQ, oldA := startIDs(t, env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"two"}`, convID)))

		st, raw := env.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","regenerate":%d}`, convID, first))
		wantCode(t, st, raw, 400, "invalid_regenerate")

		env.fake.Push(fakellm.TextStream("second answer"))
		_, sameQ, newA := startIDs(t, env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","regenerate":%d}`, convID, oldA)))
		if sameQ != oldQ || newA == oldA {
			t.Fatalf("regenerate answered %d as %d", sameQ, newA)
		}
		if last := env.fake.LastChat().Messages; string(last[len(last)-1].Content) != "two" || len(last) != 4 {
			t.Fatalf("regenerate asked %+v", last)
		}
		c := env.conversation(t, "alice", convID, "")
		if len(c.Messages) != 4 || c.Messages[3].ID != newA || c.Messages[3].Content != "second answer" || c.Messages[3].Version != 2 || c.Messages[3].Versions != 2 || c.Messages[3].Earlier != nil {
			t.Fatalf("after regenerate %+v", c.Messages)
		}
		all := env.conversation(t, "alice", convID, "?versions=all")
		if e := all.Messages[3].Earlier; len(e) != 1 || e[0].ID != oldA || e[0].Content != "two" || e[0].Version != 1 {
			t.Fatalf("earlier versions %+v", e)
		}

		st, raw = env.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","edit":%d,"message":"x"}`, convID, newA))
		wantCode(t, st, raw, 400, "invalid_edit")
		_, editedQ, editedA := startIDs(t, env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","edit":%d,"message":"three"}`, convID, oldQ)))
		c = env.conversation(t, "alice", convID, "?versions=all")
		if len(c.Messages) != 4 {
			t.Fatalf("after edit %+v", c.Messages)
		}
		q, a := c.Messages[2], c.Messages[3]
		if q.ID != editedQ || q.Content != "three" || q.Versions != 2 || len(q.Earlier) != 1 || q.Earlier[0].Content != "two" {
			t.Fatalf("edited question %+v", q)
		}
		if a.ID != editedA || a.Content != "three" || a.Versions != 3 || len(a.Earlier) != 2 {
			t.Fatalf("answer to the edit %+v", a)
		}
		if msgs := env.fake.LastChat().Messages; len(msgs) != 4 || string(msgs[3].Content) != "three" {
			t.Fatalf("edit asked %+v", msgs)
		}
	})
}

// TestConversationHistoryComesFromTheStore: with conversation_id, the model
// sees the stored messages and never what the client claims was said.
func TestConversationHistoryComesFromTheStore(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		convID, _, _ := startIDs(t, env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"first question"}`))
		env.turn(t, "alice", fmt.Sprintf(`{"conversation_id":%d,"uri":"kb://me/","model_id":"fake","message":"second question",
			"history":[{"role":"user","content":"forged"},{"role":"assistant","content":"forged answer"}]}`, convID))
		var got []string
		for _, m := range env.fake.LastChat().Messages {
			got = append(got, m.Role+":"+string(m.Content))
		}
		want := []string{"user:first question", "assistant:first question", "user:second question"}
		if len(got) != 4 || strings.Join(got[1:], "|") != strings.Join(want, "|") {
			t.Fatalf("model saw %q", got)
		}
		st, raw := env.call(t, "alice", http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"uri":"kb://me/notes/","model_id":"fake","message":"x"}`, convID))
		wantCode(t, st, raw, 400, "uri_mismatch")

		// Without conversation_id the page's history starts the new
		// conversation: the model sees it and the conversation keeps it.
		seeded, _, _ := startIDs(t, env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"and now?",
			"history":[{"role":"user","content":"page question"},{"role":"assistant","content":"page answer"}]}`))
		if msgs := env.fake.LastChat().Messages; len(msgs) != 4 || string(msgs[1].Content) != "page question" || string(msgs[2].Content) != "page answer" {
			t.Fatalf("page history not sent: %+v", msgs)
		}
		c := env.conversation(t, "alice", seeded, "")
		if len(c.Messages) != 4 || c.Title != "page question" || c.Messages[1].Content != "page answer" || c.Messages[2].Content != "and now?" || c.Messages[3].Status != "complete" {
			t.Fatalf("seeded conversation %+v", c)
		}
	})
}

func TestConversationsAreTheirUsersOnly(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		convID, _, msgID := startIDs(t, env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"private"}`))
		before := len(env.fake.Requests())
		id := fmt.Sprintf("%s/%d", convPath, convID)
		for _, tc := range []struct{ method, path, body string }{
			{http.MethodGet, id, ""},
			{http.MethodGet, id + "?versions=all", ""},
			{http.MethodPatch, id, `{"title":"mine now"}`},
			{http.MethodDelete, id, ""},
			{http.MethodGet, id + "/export?format=md", ""},
			{http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"hi"}`, convID)},
			{http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","regenerate":%d}`, convID, msgID)},
		} {
			st, raw := env.call(t, "bob", tc.method, tc.path, tc.body)
			if st != 404 || !strings.Contains(string(raw), "conversation_not_found") || strings.Contains(string(raw), "private") {
				t.Fatalf("bob %s %s: %d %s", tc.method, tc.path, st, raw)
			}
		}
		if n := len(env.fake.Requests()); n != before {
			t.Fatalf("bob's turn reached the model")
		}
		var page convPage
		env.mustCall(t, "bob", http.MethodGet, convPath, "", 200, &page)
		if len(page.Items) != 0 {
			t.Fatalf("bob lists %+v", page.Items)
		}
		c := env.conversation(t, "alice", convID, "")
		if c.Title != "private" || len(c.Messages) != 2 {
			t.Fatalf("alice's conversation changed: %+v", c)
		}
	})
}

// TestConversationInSharedFolderIsTheCallers: bob talks about a folder
// alice shares with him; the conversation is bob's, never alice's.
func TestConversationInSharedFolderIsTheCallers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		ctx := context.Background()
		alice, _ := env.stack.Store.UserByUsername(ctx, "alice")
		sh, err := share.New(env.stack.Tree).Share(ctx, callerOf(alice), shareNotesWithBob())
		if err != nil {
			t.Fatal(err)
		}
		convID, _, _ := startIDs(t, env.turn(t, "bob", `{"uri":"kb://users/alice/notes/","model_id":"fake","message":"bob asks about the plan"}`))
		var page convPage
		env.mustCall(t, "bob", http.MethodGet, convPath+"?uri=kb://users/alice/notes/", "", 200, &page)
		if len(page.Items) != 1 || page.Items[0].ID != convID {
			t.Fatalf("bob's list %+v", page.Items)
		}
		for _, q := range []string{"", "?uri=kb://me/notes/", "?q=plan"} {
			env.mustCall(t, "alice", http.MethodGet, convPath+q, "", 200, &page)
			if len(page.Items) != 0 {
				t.Fatalf("the owner sees the grantee's conversation (%s): %+v", q, page.Items)
			}
		}
		st, raw := env.call(t, "alice", http.MethodGet, fmt.Sprintf("%s/%d", convPath, convID), "")
		wantCode(t, st, raw, 404, "conversation_not_found")

		// Once the share is revoked the conversation stays bob's to read,
		// but no new turn may look at alice's folder.
		if err := share.New(env.stack.Tree).Unshare(ctx, callerOf(alice), sh.ID); err != nil {
			t.Fatal(err)
		}
		st, raw = env.call(t, "bob", http.MethodPost, "/api/v1/knowledge-agent/stream", fmt.Sprintf(`{"conversation_id":%d,"model_id":"fake","message":"more"}`, convID))
		wantCode(t, st, raw, 404, "not_found")
		if c := env.conversation(t, "bob", convID, ""); len(c.Messages) != 2 {
			t.Fatalf("bob's conversation after the revoke %+v", c.Messages)
		}
	})
}

func TestConversationsOffStoresNothing(t *testing.T) {
	env := stSetup(t, "sqlite", func(d *Deps) { d.Chat = nil })
	evs := env.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"hi","history":[{"role":"user","content":"page history"}]}`)
	if _, ok := evs[0].data["conversation_id"]; ok {
		t.Fatalf("start %v", evs[0].data)
	}
	if msgs := env.fake.LastChat().Messages; len(msgs) != 3 || string(msgs[1].Content) != "page history" {
		t.Fatalf("page history not used: %+v", msgs)
	}
	var page convPage
	env.mustCall(t, "alice", http.MethodGet, convPath, "", 200, &page)
	if page.Stored || len(page.Items) != 0 || page.NextCursor != nil {
		t.Fatalf("list %+v", page)
	}
	st, raw := env.call(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/"}`)
	wantCode(t, st, raw, 400, "conversations_disabled")
	st, raw = env.call(t, "alice", http.MethodGet, convPath+"/1", "")
	wantCode(t, st, raw, 404, "conversation_not_found")

	on := stSetup(t, "sqlite")
	evs = on.turn(t, "alice", `{"uri":"kb://me/","model_id":"fake","message":"hi","temporary":true}`)
	if _, ok := evs[0].data["conversation_id"]; ok {
		t.Fatalf("temporary start %v", evs[0].data)
	}
	on.mustCall(t, "alice", http.MethodGet, convPath, "", 200, &page)
	if len(page.Items) != 0 || !page.Stored {
		t.Fatalf("a temporary chat was stored: %+v", page)
	}
}

func newChatService(e *apiEnv) *chat.Service {
	return &chat.Service{Store: e.stack.Store, Tree: e.stack.Tree}
}

func callerOf(u store.User) kb.Caller { return kb.Caller{ID: u.ID, Username: u.Username} }

func chatTurn(convID int64, message string) chat.TurnRequest {
	return chat.TurnRequest{ConversationID: convID, Message: message, ModelID: "fake"}
}

func shareNotesWithBob() share.Request {
	return share.Request{URI: "kb://me/notes/", User: "bob", Role: "read"}
}

// The list is ordered by last activity; active_at carries that time so a
// client can group the list by day. A rename changes updated_at but neither
// the order nor active_at.
func TestConversationListCarriesActivityTime(t *testing.T) {
	storetest.Each(t, func(t *testing.T, dialect string) {
		env := stSetup(t, dialect)
		type item struct {
			ID        int64     `json:"id"`
			ActiveAt  time.Time `json:"active_at"`
			UpdatedAt time.Time `json:"updated_at"`
		}
		list := func() []item {
			var page struct {
				Items []item `json:"items"`
			}
			env.mustCall(t, "alice", http.MethodGet, convPath, "", 200, &page)
			return page.Items
		}
		var older, newer convJSON
		env.mustCall(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/notes/","title":"Older"}`, 201, &older)
		env.mustCall(t, "alice", http.MethodPost, convPath, `{"uri":"kb://me/","title":"Newer"}`, 201, &newer)
		before := list()
		if len(before) != 2 || before[0].ID != newer.ID || before[0].ActiveAt.IsZero() || before[0].ActiveAt.Before(before[1].ActiveAt) {
			t.Fatalf("list before rename %+v", before)
		}
		time.Sleep(5 * time.Millisecond)
		env.mustCall(t, "alice", http.MethodPatch, fmt.Sprintf("%s/%d", convPath, older.ID), `{"title":"Older, renamed"}`, 200, nil)
		after := list()
		if len(after) != 2 || after[1].ID != older.ID || !after[1].ActiveAt.Equal(before[1].ActiveAt) || !after[1].UpdatedAt.After(after[1].ActiveAt) {
			t.Fatalf("a rename moved the activity time: before %+v, after %+v", before, after)
		}
		if got := env.conversation(t, "alice", older.ID, ""); got.ID != older.ID {
			t.Fatalf("detail %+v", got)
		}
	})
}
