package agent

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// listFeed is a feed the test adds to; it wakes its pusher as a journal
// does.
type listFeed struct {
	mu     sync.Mutex
	evs    []Event
	read   int
	ended  bool
	ready  func()
	closed chan struct{}
}

func (f *listFeed) Next(context.Context) ([]Event, <-chan struct{}, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	evs := f.evs[f.read:]
	f.read = len(f.evs)
	return evs, nil, f.ended && len(evs) == 0
}

func (f *listFeed) OnReady(fn func()) {
	f.mu.Lock()
	if f.read < len(f.evs) || f.ended {
		f.mu.Unlock()
		fn()
		return
	}
	f.ready = fn
	f.mu.Unlock()
}

func (f *listFeed) Close() {
	select {
	case <-f.closed:
	default:
		close(f.closed)
	}
}

func (f *listFeed) add(e Event, end bool) {
	f.mu.Lock()
	f.evs = append(f.evs, e)
	f.ended = end
	fn := f.ready
	f.ready = nil
	f.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// TestPushSSEWritesATakenConnection: a pushed stream carries the headers
// set before it, each event as it comes (written by whoever made it
// ready, after the handler has returned), and a clean chunked end.
func TestPushSSEWritesATakenConnection(t *testing.T) {
	feed := &listFeed{closed: make(chan struct{})}
	returned := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "r1")
		if err := PushSSE(w, r, feed, time.Hour); err != nil {
			t.Errorf("push: %v", err)
		}
		close(returned)
	}))
	defer srv.Close()
	feed.add(Event{Name: EventDelta, Data: TextData{Text: "one "}, ID: 1}, false)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("X-Request-Id") != "r1" {
		t.Fatalf("headers %v", resp.Header)
	}
	<-returned // the handler is gone; what follows is written from add
	feed.add(Event{Name: EventDelta, Data: TextData{Text: "two"}, ID: 2}, false)
	feed.add(Event{Name: EventDone, Data: map[string]any{}, ID: 3}, true)
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("the stream did not end cleanly: %v", err)
	}
	want := "id: 1\nevent: delta\ndata: {\"text\":\"one \"}\n\nid: 2\nevent: delta\ndata: {\"text\":\"two\"}\n\nid: 3\nevent: done\ndata: {}\n\n"
	if string(body) != want {
		t.Fatalf("body %q\nwant %q", body, want)
	}
	select {
	case <-feed.closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the feed was not closed at the stream's end")
	}
}

// TestPushSSELeavesHTTP2Alone: a stream that is not HTTP/1.1 is not
// taken, and nothing is written to it.
func TestPushSSELeavesHTTP2Alone(t *testing.T) {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.ProtoMajor, r.ProtoMinor = 2, 0
	if err := PushSSE(rec, r, &listFeed{closed: make(chan struct{})}, time.Hour); err != ErrNotPushable {
		t.Fatalf("HTTP/2: %v, want ErrNotPushable", err)
	}
	if rec.Body.Len() != 0 || strings.Contains(rec.Header().Get("Content-Type"), "event-stream") {
		t.Fatalf("wrote %q", rec.Body.String())
	}
}

// TestPushSSEEndsWhenTheClientLeaves: a client that leaves an idle
// pushed stream closes its feed at once, with nothing written to find
// out.
func TestPushSSEEndsWhenTheClientLeaves(t *testing.T) {
	feed := &listFeed{closed: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = PushSSE(w, r, feed, time.Hour)
	}))
	defer srv.Close()
	feed.add(Event{Name: EventDelta, Data: TextData{Text: "one"}, ID: 1}, false)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if _, err := resp.Body.Read(buf); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cancel()
	resp.Body.Close()
	select {
	case <-feed.closed:
		t.Logf("closed %v after the client left", time.Since(start))
	case <-time.After(2 * time.Second):
		t.Fatal("the feed of a stream whose client left stayed open")
	}
}

// TestPushEventsSkipsWhatEncodesToNothing: an event a door's protocol has
// no spelling for writes nothing; an empty chunk would end the body.
func TestPushEventsSkipsWhatEncodesToNothing(t *testing.T) {
	feed := &listFeed{closed: make(chan struct{})}
	onlyText := func(buf []byte, e Event) []byte {
		if d, ok := e.Data.(TextData); ok {
			return append(buf, d.Text...)
		}
		return buf
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = PushEvents(w, r, feed, time.Hour, onlyText)
	}))
	defer srv.Close()
	// The first batch is the tool call alone.
	feed.add(Event{Name: EventToolCall, Data: ToolCallData{ID: "c1", Name: "ls"}}, false)
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	feed.add(Event{Name: EventDelta, Data: TextData{Text: "one "}}, false)
	feed.add(Event{Name: EventDelta, Data: TextData{Text: "two"}}, false)
	feed.add(Event{Name: EventDone, Data: map[string]any{}}, true)
	body, err := io.ReadAll(resp.Body)
	if err != nil || string(body) != "one two" {
		t.Fatalf("body %q, %v; want \"one two\"", body, err)
	}
}
